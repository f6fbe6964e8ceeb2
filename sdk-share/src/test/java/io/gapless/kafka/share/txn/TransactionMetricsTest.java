package io.gapless.kafka.share.txn;

import io.gapless.kafka.core.spi.MetricDefinition;
import org.apache.kafka.common.MetricName;
import org.junit.jupiter.api.Test;

import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@link TransactionMetrics#DEFINITIONS} is what the transactional share consumer registers: the generated metrics reference lists exactly these. */
class TransactionMetricsTest {

    private static String signature(MetricName m) {
        return m.group() + "/" + m.name() + " " + new TreeSet<>(m.tags().keySet()) + ": " + m.description();
    }

    private static String signature(MetricDefinition d) {
        return d.group() + "/" + d.name() + " " + new TreeSet<>(d.tags()) + ": " + d.description();
    }

    @Test
    void everyRegisteredMetricIsDefinedAndEveryDefinitionRegistered() {
        try (TransactionMetrics metrics = new TransactionMetrics("c-1")) {
            Set<String> registered = metrics.metrics().keySet().stream()
                    // Kafka's Metrics adds its own kafka-metrics-count to every registry.
                    .filter(m -> m.group().startsWith("gapless-")).map(TransactionMetricsTest::signature)
                    .collect(Collectors.toCollection(TreeSet::new));
            Set<String> defined = TransactionMetrics.DEFINITIONS.stream().map(TransactionMetricsTest::signature)
                    .collect(Collectors.toCollection(TreeSet::new));
            assertEquals(defined, registered);
        }
    }
}
