package io.gapless.kafka.share.txn;

import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.JmxReporter;
import org.apache.kafka.common.metrics.KafkaMetricsContext;
import org.apache.kafka.common.metrics.MetricConfig;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.metrics.stats.Meter;
import org.apache.kafka.common.utils.Time;

import java.util.List;
import java.util.Map;

/**
 * Metrics of a transactional share consumer (group {@value #GROUP}, tag {@code client-id}: the
 * wrapped share consumer's), merged into its {@code metrics()} and reported to JMX under
 * {@code gapless.share}. {@code -total} counters have a {@code -rate} partner.
 */
final class TransactionMetrics implements AutoCloseable {
    static final String GROUP = "gapless-share-transactions";
    static final String ARCHIVED = "records-archived-by-delivery-limit";

    private final Metrics metrics = new Metrics(new MetricConfig(), List.of(new JmxReporter()), Time.SYSTEM,
            new KafkaMetricsContext("gapless.share"));
    private final Sensor archived;

    TransactionMetrics(String clientId) {
        Map<String, String> tags = Map.of("client-id", clientId);
        String what = "records this consumer held that the share group archived because they reached share.delivery.count.limit "
                + "without a committed output (released in their last delivery, or their lock expired)";
        archived = metrics.sensor(ARCHIVED);
        archived.add(new Meter(metrics.metricName(ARCHIVED + "-rate", GROUP, "The number of " + what + " per second", tags),
                metrics.metricName(ARCHIVED + "-total", GROUP, "The total number of " + what, tags)));
    }

    void recordArchived(int records) {
        archived.record(records);
    }

    Map<MetricName, ? extends Metric> metrics() {
        return metrics.metrics();
    }

    @Override
    public void close() {
        metrics.close();
    }
}
