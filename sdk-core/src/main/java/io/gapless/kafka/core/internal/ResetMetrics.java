package io.gapless.kafka.core.internal;

import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.Gauge;
import org.apache.kafka.common.metrics.JmxReporter;
import org.apache.kafka.common.metrics.KafkaMetricsContext;
import org.apache.kafka.common.metrics.MetricConfig;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.metrics.stats.Avg;
import org.apache.kafka.common.metrics.stats.CumulativeCount;
import org.apache.kafka.common.metrics.stats.Max;
import org.apache.kafka.common.utils.Time;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The SDK's consumer metrics in Kafka's own {@link Metrics} registry (group
 * {@value #GROUP}, tag {@code client-id}), reported to JMX under {@code gapless.consumer} and
 * merged into the decorated client's {@code metrics()} so that Micrometer binders see them too.
 */
public final class ResetMetrics implements AutoCloseable {
    public static final String GROUP = "gapless-consumer-metrics";

    private final Metrics metrics;
    private final Map<String, String> tags;
    private final Map<String, Sensor> resetSensors = new ConcurrentHashMap<>();
    private final Sensor baselineReads;
    private final Sensor baselineWrites;
    private final Sensor classificationTime;

    public ResetMetrics(String clientId, String mode) {
        this.metrics = new Metrics(new MetricConfig(), List.of(new JmxReporter()), Time.SYSTEM,
                new KafkaMetricsContext("gapless.consumer"));
        this.tags = Map.of("client-id", clientId);
        metrics.addMetric(metrics.metricName("new-partitions-mode", GROUP,
                "How auto.offset.reset.new.partitions is delivered: native, emulate or off", tags), (Gauge<String>) (c, now) -> mode);
        baselineReads = counter("baseline-reads-total", "Reads of the group baseline topic");
        baselineWrites = counter("baseline-writes-total", "Writes to the group baseline topic");
        classificationTime = metrics.sensor("classification-time");
        classificationTime.add(metrics.metricName("classification-time-ms-avg", GROUP, "Average time to classify partitions", tags), new Avg());
        classificationTime.add(metrics.metricName("classification-time-ms-max", GROUP, "Longest time to classify partitions", tags), new Max());
    }

    private Sensor counter(String name, String doc) {
        Sensor s = metrics.sensor(name);
        s.add(metrics.metricName(name, GROUP, doc, tags), new CumulativeCount());
        return s;
    }

    /** Counts one reset by the policy applied and why (new, pre-existing, out-of-range). */
    public void recordReset(String policyKind, String classification) {
        String key = policyKind + "/" + classification;
        resetSensors.computeIfAbsent(key, k -> {
            Sensor s = metrics.sensor("resets-" + k);
            Map<String, String> t = new java.util.HashMap<>(tags);
            t.put("policy", policyKind);
            t.put("classification", classification);
            s.add(metrics.metricName("resets-total", GROUP, "Offsets reset by the SDK, by policy and classification", t),
                    new CumulativeCount());
            return s;
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
