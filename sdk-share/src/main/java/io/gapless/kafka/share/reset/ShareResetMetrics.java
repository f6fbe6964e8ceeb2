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
package io.gapless.kafka.share.reset;

import io.gapless.kafka.core.spi.MetricDefinition;
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

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Metrics of the share-group new-partitions policy (group {@value #GROUP}, tag {@code client-id}:
 * the wrapped share consumer's), merged into the share consumer's {@code metrics()} and reported to
 * JMX under {@value #JMX_DOMAIN}. Every value is a number; {@code -total} counters have a
 * {@code -rate} partner. Every metric is one of {@link #DEFINITIONS}.
 *
 * @since 0.1.0
 */
public final class ShareResetMetrics implements AutoCloseable {
    static final String GROUP = "gapless-share-reset-metrics";
    static final String JMX_DOMAIN = "gapless.share";

    private static final List<String> CLIENT = List.of("client-id");
    private static final MetricDefinition NEW_PARTITIONS_MODE = new MetricDefinition("new-partitions-mode", GROUP, JMX_DOMAIN,
            MetricDefinition.Type.GAUGE, ModeDecision.Kind.METRIC_DOC, CLIENT);
    private static final List<MetricDefinition> SKIPPED = MetricDefinition.counter("records-skipped-before-start", GROUP, JMX_DOMAIN,
            "records the broker delivered below a partition's policy start offset, acknowledged without reaching the application", CLIENT);
    private static final List<MetricDefinition> STARTS_RECORDED = MetricDefinition.counter("start-offsets-recorded", GROUP, JMX_DOMAIN,
            "partitions whose policy start offset this client looked up or chose", CLIENT);
    private static final List<MetricDefinition> SKIPPED_BY_BROKER = MetricDefinition.counter("records-skipped-by-broker", GROUP, JMX_DOMAIN,
            "records the broker skipped because it started a partition later than the policy asks (detected, not recovered)", CLIENT);
    private static final List<MetricDefinition> DELIVERED_UNDECIDED = MetricDefinition.counter("records-delivered-undecided", GROUP,
            JMX_DOMAIN, "records delivered to the application although their partition's start offset could not be looked up or"
                    + " checked (the baseline or the cluster did not answer): never acknowledged unseen, possibly below a start", CLIENT);
    private static final List<MetricDefinition> LOOKUP_FAILURES = MetricDefinition.counter("start-lookup-failures", GROUP, JMX_DOMAIN,
            "failed look-ups or checks of start offsets (baseline or cluster unavailable); each is retried after a backoff", CLIENT);

    /** Every metric of {@code GaplessShareConsumer} with {@code share.auto.offset.reset.new.partitions}, for the generated reference. */
    public static final List<MetricDefinition> DEFINITIONS;

    static {
        List<MetricDefinition> all = new ArrayList<>();
        all.add(NEW_PARTITIONS_MODE);
        all.addAll(SKIPPED);
        all.addAll(STARTS_RECORDED);
        all.addAll(SKIPPED_BY_BROKER);
        all.addAll(DELIVERED_UNDECIDED);
        all.addAll(LOOKUP_FAILURES);
        DEFINITIONS = List.copyOf(all);
    }

    private final Metrics metrics;
    private final Sensor skipped;
    private final Sensor startsRecorded;
    private final Sensor skippedByBroker;
    private final Sensor deliveredUndecided;
    private final Sensor lookupFailures;

    ShareResetMetrics(String clientId, ModeDecision.Kind mode) {
        metrics = new Metrics(new MetricConfig(), List.of(new JmxReporter()), Time.SYSTEM, new KafkaMetricsContext(JMX_DOMAIN));
        Map<String, String> tags = Map.of("client-id", clientId);
        metrics.addMetric(NEW_PARTITIONS_MODE.in(metrics, tags), (Measurable) (c, now) -> mode.ordinal());
        skipped = sum("records-skipped-before-start", SKIPPED, tags);
        startsRecorded = sum("start-offsets-recorded", STARTS_RECORDED, tags);
        skippedByBroker = sum("records-skipped-by-broker", SKIPPED_BY_BROKER, tags);
        deliveredUndecided = sum("records-delivered-undecided", DELIVERED_UNDECIDED, tags);
        lookupFailures = sum("start-lookup-failures", LOOKUP_FAILURES, tags);
    }

    /** A sensor summing recorded values as {@code <name>-total} and {@code <name>-rate} (per second), Kafka's pair. */
    private Sensor sum(String name, List<MetricDefinition> totalAndRate, Map<String, String> tags) {
        Sensor s = metrics.sensor(name);
        s.add(new Meter(totalAndRate.get(1).in(metrics, tags), totalAndRate.get(0).in(metrics, tags)));
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

    void recordDeliveredUndecided(int records) {
        deliveredUndecided.record(records);
    }

    void recordLookupFailure() {
        lookupFailures.record(1);
    }

    Map<MetricName, ? extends Metric> metrics() {
        return metrics.metrics();
    }

    @Override
    public void close() {
        metrics.close();
    }
}
