/*
 * Copyright 2026 The Gapless authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package io.gapless.kafka.core.internal;

import io.gapless.kafka.core.spi.MetricDefinition;
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

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The SDK's consumer metrics in Kafka's own {@link Metrics} registry (group {@value #GROUP}, tag
 * {@code client-id}: the wrapped consumer's), reported to JMX under {@value #JMX_DOMAIN} and
 * merged into the decorated client's {@code metrics()} so that Micrometer binders see them too.
 * Named as Kafka names its own: {@code -total} counters with a {@code -rate} partner (per second),
 * {@code -avg}/{@code -max} latencies in milliseconds; every value is a number. Every metric is one
 * of {@link #DEFINITIONS}.
 */
public final class ResetMetrics implements AutoCloseable {
    public static final String GROUP = "gapless-consumer-metrics";
    public static final String JMX_DOMAIN = "gapless.consumer";

    private static final List<String> CLIENT = List.of("client-id");
    static final MetricDefinition NEW_PARTITIONS_MODE = new MetricDefinition("new-partitions-mode", GROUP, JMX_DOMAIN,
            MetricDefinition.Type.GAUGE, ModeDecision.Kind.METRIC_DOC, CLIENT);
    static final List<MetricDefinition> RESETS = MetricDefinition.counter("resets", GROUP, JMX_DOMAIN,
            "offsets reset by the SDK, by policy and classification", List.of("client-id", "policy", "classification"));
    static final List<MetricDefinition> BASELINE_READS = MetricDefinition.counter("baseline-reads", GROUP, JMX_DOMAIN,
            "reads of the group baseline topic", CLIENT);
    static final List<MetricDefinition> BASELINE_WRITES = MetricDefinition.counter("baseline-writes", GROUP, JMX_DOMAIN,
            "writes to the group baseline topic", CLIENT);
    static final MetricDefinition CLASSIFICATION_TIME_AVG = new MetricDefinition("classification-time-avg", GROUP, JMX_DOMAIN,
            MetricDefinition.Type.AVG, "The average time in ms to classify partitions without a usable offset", CLIENT);
    static final MetricDefinition CLASSIFICATION_TIME_MAX = new MetricDefinition("classification-time-max", GROUP, JMX_DOMAIN,
            MetricDefinition.Type.MAX, "The longest time in ms to classify partitions without a usable offset", CLIENT);

    /** Every metric of {@code GaplessConsumer} (and of the Kafka Streams main consumer), for the generated reference. */
    public static final List<MetricDefinition> DEFINITIONS;

    static {
        List<MetricDefinition> all = new ArrayList<>();
        all.add(NEW_PARTITIONS_MODE);
        all.addAll(RESETS);
        all.addAll(BASELINE_READS);
        all.addAll(BASELINE_WRITES);
        all.add(CLASSIFICATION_TIME_AVG);
        all.add(CLASSIFICATION_TIME_MAX);
        DEFINITIONS = List.copyOf(all);
    }

    private final Metrics metrics;
    private final Map<String, String> tags;
    private final Map<String, Sensor> resetSensors = new ConcurrentHashMap<>();
    private final Sensor baselineReads;
    private final Sensor baselineWrites;
    private final Sensor classificationTime;

    public ResetMetrics(String clientId, ModeDecision.Kind mode) {
        this.metrics = new Metrics(new MetricConfig(), List.of(new JmxReporter()), Time.SYSTEM, new KafkaMetricsContext(JMX_DOMAIN));
        this.tags = Map.of("client-id", clientId);
        metrics.addMetric(NEW_PARTITIONS_MODE.in(metrics, tags), (Measurable) (c, now) -> mode.ordinal());
        baselineReads = counted("baseline-reads", BASELINE_READS, tags);
        baselineWrites = counted("baseline-writes", BASELINE_WRITES, tags);
        classificationTime = metrics.sensor("classification-time");
        classificationTime.add(CLASSIFICATION_TIME_AVG.in(metrics, tags), new Avg());
        classificationTime.add(CLASSIFICATION_TIME_MAX.in(metrics, tags), new Max());
    }

    /** A sensor counting events as {@code <name>-total} and {@code <name>-rate}, Kafka's pair (as in {@code connection-creation-*}). */
    private Sensor counted(String name, List<MetricDefinition> totalAndRate, Map<String, String> metricTags) {
        Sensor s = metrics.sensor(name + metricTags);
        s.add(new Meter(new WindowedCount(), totalAndRate.get(1).in(metrics, metricTags), totalAndRate.get(0).in(metrics, metricTags)));
        return s;
    }

    /** Counts one reset by the policy applied and why (new, pre-existing, out-of-range). */
    public void recordReset(String policyKind, String classification) {
        resetSensors.computeIfAbsent(policyKind + "/" + classification, k -> {
            Map<String, String> t = new HashMap<>(tags);
            t.put("policy", policyKind);
            t.put("classification", classification);
            return counted("resets", RESETS, t);
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
