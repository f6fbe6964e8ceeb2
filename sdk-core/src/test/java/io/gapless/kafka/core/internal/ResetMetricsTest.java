package io.gapless.kafka.core.internal;

import io.gapless.kafka.core.spi.MetricDefinition;
import io.gapless.kafka.core.spi.ModeDecision;
import org.apache.kafka.common.MetricName;
import org.junit.jupiter.api.Test;

import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@link ResetMetrics#DEFINITIONS} is what the consumer registers: the generated metrics reference lists exactly these. */
class ResetMetricsTest {

    static String signature(MetricName m) {
        return m.group() + "/" + m.name() + " " + new TreeSet<>(m.tags().keySet()) + ": " + m.description();
    }

    static String signature(MetricDefinition d) {
        return d.group() + "/" + d.name() + " " + new TreeSet<>(d.tags()) + ": " + d.description();
    }

    @Test
    void everyRegisteredMetricIsDefinedAndEveryDefinitionRegistered() {
        try (ResetMetrics metrics = new ResetMetrics("c-1", ModeDecision.Kind.EMULATE)) {
            metrics.recordReset("earliest", "new");
            Set<String> registered = metrics.metrics().keySet().stream()
                    // Kafka's Metrics adds its own kafka-metrics-count to every registry.
                    .filter(m -> m.group().startsWith("gapless-")).map(ResetMetricsTest::signature).collect(Collectors.toCollection(TreeSet::new));
            Set<String> defined = ResetMetrics.DEFINITIONS.stream().map(ResetMetricsTest::signature).collect(Collectors.toCollection(TreeSet::new));
            assertEquals(defined, registered);
        }
    }
}
