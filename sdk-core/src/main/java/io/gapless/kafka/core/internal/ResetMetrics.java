package io.gapless.kafka.core.internal;

import io.gapless.kafka.core.spi.ModeDecision;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.JmxReporter;
import org.apache.kafka.common.metrics.KafkaMetricsContext;
import org.apache.kafka.common.metrics.Measurable;
import org.apache.kafka.common.metrics.MetricConfig;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.metrics.stats.Avg;
import org.apache.kafka.common.metrics.stats.Max;
import org.apache.kafka.common.metrics.stats.Meter;
import org.apache.kafka.common.metrics.stats.WindowedCount;
import org.apache.kafka.common.utils.Time;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The SDK's consumer metrics in Kafka's own {@link Metrics} registry (group {@value #GROUP}, tag
 * {@code client-id}: the wrapped consumer's), reported to JMX under {@code gapless.consumer} and
 * merged into the decorated client's {@code metrics()} so that Micrometer binders see them too.
 * Named as Kafka names its own: {@code -total} counters with a {@code -rate} partner (per second),
 * {@code -avg}/{@code -max} latencies in milliseconds; every value is a number.
 */
public final class ResetMetrics implements AutoCloseable {
    public static final String GROUP = "gapless-consumer-metrics";

    private final Metrics metrics;
    private final Map<String, String> tags;
    private final Map<String, Sensor> resetSensors = new ConcurrentHashMap<>();
    private final Sensor baselineReads;
    private final Sensor baselineWrites;
    private final Sensor classificationTime;

    public ResetMetrics(String clientId, ModeDecision.Kind mode) {
        this.metrics = new Metrics(new MetricConfig(), List.of(new JmxReporter()), Time.SYSTEM,
                new KafkaMetricsContext("gapless.consumer"));
        this.tags = Map.of("client-id", clientId);
        metrics.addMetric(metrics.metricName("new-partitions-mode", GROUP, ModeDecision.Kind.METRIC_DOC, tags),
                (Measurable) (c, now) -> mode.ordinal());
        baselineReads = counted("baseline-reads", "reads of the group baseline topic", tags);
        baselineWrites = counted("baseline-writes", "writes to the group baseline topic", tags);
        classificationTime = metrics.sensor("classification-time");
        classificationTime.add(metrics.metricName("classification-time-avg", GROUP,
                "The average time in ms to classify partitions without a usable offset", tags), new Avg());
        classificationTime.add(metrics.metricName("classification-time-max", GROUP,
                "The longest time in ms to classify partitions without a usable offset", tags), new Max());
    }

    /** A sensor counting events as {@code <name>-total} and {@code <name>-rate}, Kafka's pair (as in {@code connection-creation-*}). */
    private Sensor counted(String name, String what, Map<String, String> metricTags) {
        Sensor s = metrics.sensor(name + metricTags);
        s.add(new Meter(new WindowedCount(),
                metrics.metricName(name + "-rate", GROUP, "The number of " + what + " per second", metricTags),
                metrics.metricName(name + "-total", GROUP, "The total number of " + what, metricTags)));
        return s;
    }

    /** Counts one reset by the policy applied and why (new, pre-existing, out-of-range). */
    public void recordReset(String policyKind, String classification) {
        resetSensors.computeIfAbsent(policyKind + "/" + classification, k -> {
            Map<String, String> t = new HashMap<>(tags);
            t.put("policy", policyKind);
            t.put("classification", classification);
            return counted("resets", "offsets reset by the SDK, by policy and classification", t);
        }).record();
    }

    public void recordBaselineRead() {
        baselineReads.record();
    }

    public void recordBaselineWrite() {
        baselineWrites.record();
    }

    public void recordClassificationTime(long millis) {
        classificationTime.record(millis);
    }

    /** The SDK's metrics, to be merged into the client's {@code metrics()}. */
    public Map<MetricName, ? extends org.apache.kafka.common.Metric> metrics() {
        return metrics.metrics();
    }

    @Override
    public void close() {
        metrics.close();
    }
}
