package io.gapless.kafka.share.txn;

import io.gapless.kafka.core.spi.MetricDefinition;
import org.apache.kafka.common.MetricName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@link TransactionMetrics#DEFINITIONS} is what the transactional share consumer registers: the generated metrics reference lists exactly these. */
class TransactionMetricsTest {

    @Test
    void everyRegisteredMetricIsDefinedAndEveryDefinitionRegistered() {
        try (TransactionMetrics metrics = new TransactionMetrics("c-1")) {
            // Kafka's Metrics adds its own kafka-metrics-count to every registry.
            List<MetricName> registered = metrics.metrics().keySet().stream().filter(m -> m.group().startsWith("gapless-")).toList();
            assertEquals(List.of(), registered.stream().filter(m -> TransactionMetrics.DEFINITIONS.stream().noneMatch(d -> d.describes(m))).toList(),
                    "registered without a definition");
            assertEquals(List.<MetricDefinition>of(), TransactionMetrics.DEFINITIONS.stream().filter(d -> registered.stream().noneMatch(d::describes)).toList(),
                    "defined but not registered");
        }
    }
}
