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
package io.gapless.kafka.share.txn;

import io.gapless.kafka.core.spi.MetricDefinition;
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
 * {@code gapless.share}. {@code -total} counters have a {@code -rate} partner. Every metric is one
 * of {@link #DEFINITIONS}.
 *
 * @since 0.1.0
 */
public final class TransactionMetrics implements AutoCloseable {
    static final String GROUP = "gapless-share-transactions";
    static final String ARCHIVED = "records-archived-by-delivery-limit";
    private static final List<MetricDefinition> ARCHIVED_METRICS = MetricDefinition.counter(ARCHIVED, GROUP, "gapless.share",
            "records this consumer held that the share group archived because they reached share.delivery.count.limit "
                    + "without a committed output (released in their last delivery, or their lock expired)", List.of("client-id"));
    /** Every metric of a transactional {@code GaplessShareConsumer}, for the generated reference. */
    public static final List<MetricDefinition> DEFINITIONS = ARCHIVED_METRICS;

    private final Metrics metrics = new Metrics(new MetricConfig(), List.of(new JmxReporter()), Time.SYSTEM,
            new KafkaMetricsContext("gapless.share"));
    private final Sensor archived;

    TransactionMetrics(String clientId) {
        Map<String, String> tags = Map.of("client-id", clientId);
        archived = metrics.sensor(ARCHIVED);
        archived.add(new Meter(ARCHIVED_METRICS.get(1).in(metrics, tags), ARCHIVED_METRICS.get(0).in(metrics, tags)));
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
