package io.gapless.kafka.share.reset;

import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.Gauge;
import org.apache.kafka.common.metrics.JmxReporter;
import org.apache.kafka.common.metrics.KafkaMetricsContext;
import org.apache.kafka.common.metrics.MetricConfig;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.metrics.stats.CumulativeSum;
import org.apache.kafka.common.utils.Time;

import java.util.List;
import java.util.Map;

/**
 * Metrics of the share-group new-partitions policy (group {@value #GROUP}), merged into the
 * share consumer's {@code metrics()} and reported to JMX under {@code gapless.share}.
 */
final class ShareResetMetrics implements AutoCloseable {
    static final String GROUP = "gapless-share-reset-metrics";

    private final Metrics metrics;
    private final Sensor skipped;
    private final Sensor startsRecorded;
    private final Sensor skippedByBroker;

    ShareResetMetrics(String clientId, String mode) {
        metrics = new Metrics(new MetricConfig(), List.of(new JmxReporter()), Time.SYSTEM, new KafkaMetricsContext("gapless.share"));
        Map<String, String> tags = Map.of("client-id", clientId);
        metrics.addMetric(metrics.metricName("new-partitions-mode", GROUP,
                "How share.auto.offset.reset.new.partitions is delivered: native, emulate or off", tags), (Gauge<String>) (c, now) -> mode);
        skipped = sum("records-skipped-before-start-total",
                "Records the broker delivered below a partition's policy start offset, acknowledged without reaching the application", tags);
        startsRecorded = sum("start-offsets-recorded-total", "Partitions whose policy start offset this client looked up or chose", tags);
        skippedByBroker = sum("records-skipped-by-broker-total",
                "Records the broker skipped because it started a partition later than the policy asks (detected, not recovered)", tags);
    }

    private Sensor sum(String name, String doc, Map<String, String> tags) {
        Sensor s = metrics.sensor(name);
        s.add(metrics.metricName(name, GROUP, doc, tags), new CumulativeSum());
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
