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

import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.ShareConsumer;
import org.apache.kafka.common.TopicPartition;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Keeps records below a partition's policy start offset from the application. The broker starts
 * share partitions at the log start where the SDK steers it (or, on Kafka 4.4, for every
 * partition added to a known topic); the records before the policy's start are acknowledged
 * ({@code ACCEPT}, in explicit mode; implicit mode accepts them with the next poll) and counted.
 */
final class ShareStartOffsetFilter {
    private final ShareStartOffsets starts;
    private final boolean explicitAcks;
    private final ShareResetMetrics metrics;

    ShareStartOffsetFilter(ShareStartOffsets starts, boolean explicitAcks, ShareResetMetrics metrics) {
        this.starts = starts;
        this.explicitAcks = explicitAcks;
        this.metrics = metrics;
    }

    <K, V> ConsumerRecords<K, V> apply(ConsumerRecords<K, V> records, ShareConsumer<K, V> delegate) {
        if (records.isEmpty()) {
            return records;
        }
        List<TopicPartition> unknown = new ArrayList<>();
        for (TopicPartition tp : records.partitions()) {
            if (starts.cached(tp) == null) {
                unknown.add(tp);
            }
        }
        if (!unknown.isEmpty()) {
            starts.resolve(unknown);
        }
        Map<TopicPartition, List<ConsumerRecord<K, V>>> kept = new HashMap<>();
        int skipped = 0;
        for (TopicPartition tp : records.partitions()) {
            Long start = starts.cached(tp);
            List<ConsumerRecord<K, V>> out = new ArrayList<>();
            for (ConsumerRecord<K, V> r : records.records(tp)) {
                if (start != null && r.offset() < start) {
                    skipped++;
                    if (explicitAcks) {
                        delegate.acknowledge(r, AcknowledgeType.ACCEPT);
                    }
                } else {
                    out.add(r);
                }
            }
            if (!out.isEmpty()) {
                kept.put(tp, out);
            }
        }
        if (skipped == 0) {
            return records;
        }
        metrics.recordSkipped(skipped);
        return new ConsumerRecords<>(kept, Map.of());
    }
}
