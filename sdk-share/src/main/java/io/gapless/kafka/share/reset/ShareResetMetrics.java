package io.gapless.kafka.share.reset;

import io.gapless.kafka.core.spi.ModeDecision;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.JmxReporter;
import org.apache.kafka.common.metrics.KafkaMetricsContext;
import org.apache.kafka.common.metrics.Measurable;
import org.apache.kafka.common.metrics.MetricConfig;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.metrics.stats.Meter;
import org.apache.kafka.common.utils.Time;

import java.util.List;
import java.util.Map;

/**
 * Metrics of the share-group new-partitions policy (group {@value #GROUP}, tag {@code client-id}:
 * the wrapped share consumer's), merged into the share consumer's {@code metrics()} and reported to
 * JMX under {@code gapless.share}. Every value is a number; {@code -total} counters have a
 * {@code -rate} partner.
 */
final class ShareResetMetrics implements AutoCloseable {
    static final String GROUP = "gapless-share-reset-metrics";

    private final Metrics metrics;
    private final Sensor skipped;
    private final Sensor startsRecorded;
    private final Sensor skippedByBroker;

    ShareResetMetrics(String clientId, ModeDecision.Kind mode) {
        metrics = new Metrics(new MetricConfig(), List.of(new JmxReporter()), Time.SYSTEM, new KafkaMetricsContext("gapless.share"));
        Map<String, String> tags = Map.of("client-id", clientId);
        metrics.addMetric(metrics.metricName("new-partitions-mode", GROUP, ModeDecision.Kind.METRIC_DOC, tags),
                (Measurable) (c, now) -> mode.ordinal());
        skipped = sum("records-skipped-before-start",
                "records the broker delivered below a partition's policy start offset, acknowledged without reaching the application", tags);
        startsRecorded = sum("start-offsets-recorded", "partitions whose policy start offset this client looked up or chose", tags);
        skippedByBroker = sum("records-skipped-by-broker",
                "records the broker skipped because it started a partition later than the policy asks (detected, not recovered)", tags);
    }

    /** A sensor summing recorded values as {@code <name>-total} and {@code <name>-rate} (per second), Kafka's pair. */
    private Sensor sum(String name, String what, Map<String, String> tags) {
        Sensor s = metrics.sensor(name);
        s.add(new Meter(metrics.metricName(name + "-rate", GROUP, "The number of " + what + " per second", tags),
                metrics.metricName(name + "-total", GROUP, "The total number of " + what, tags)));
        return s;
    }

    void recordSkipped(int records) {
        skipped.record(records);
    }

    void recordStartsRecorded(int partitions) {
        startsRecorded.record(partitions);
    }

    void recordSkippedByBroker(long records) {
        skippedByBroker.record(records);
    }

    Map<MetricName, ? extends Metric> metrics() {
        return metrics.metrics();
    }

    @Override
    public void close() {
        metrics.close();
    }
}
