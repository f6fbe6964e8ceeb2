package io.gapless.kafka.share.reset;

import io.gapless.kafka.core.spi.MetricDefinition;
import io.gapless.kafka.core.spi.ModeDecision;
import org.apache.kafka.common.MetricName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@link ShareResetMetrics#DEFINITIONS} is what the share consumer registers: the generated metrics reference lists exactly these. */
class ShareResetMetricsTest {

    @Test
    void everyRegisteredMetricIsDefinedAndEveryDefinitionRegistered() {
        try (ShareResetMetrics metrics = new ShareResetMetrics("c-1", ModeDecision.Kind.EMULATE)) {
            // Kafka's Metrics adds its own kafka-metrics-count to every registry.
            List<MetricName> registered = metrics.metrics().keySet().stream().filter(m -> m.group().startsWith("gapless-")).toList();
            assertEquals(List.of(), registered.stream().filter(m -> ShareResetMetrics.DEFINITIONS.stream().noneMatch(d -> d.describes(m))).toList(),
                    "registered without a definition");
            assertEquals(List.<MetricDefinition>of(), ShareResetMetrics.DEFINITIONS.stream().filter(d -> registered.stream().noneMatch(d::describes)).toList(),
                    "defined but not registered");
        }
    }
}
