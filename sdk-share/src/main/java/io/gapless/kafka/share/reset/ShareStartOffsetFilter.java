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

import io.gapless.kafka.core.spi.KafkaBackoff;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.ShareConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InterruptException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * Keeps records below a partition's policy start offset from the application. The broker starts
 * share partitions at the log start where the SDK steers it (or, on Kafka 4.4, for every
 * partition added to a known topic); the records before the policy's start are acknowledged
 * ({@code ACCEPT}, in explicit mode; implicit mode accepts them with the next poll) and counted.
 *
 * <p>It runs after Kafka's poll took the batch, so nothing here may fail (sdk-share/RATIONALE.md,
 * "Share start offsets: when the SDK acknowledges unseen"): a record is acknowledged unseen only
 * below a start this client holds for the partition's current topic id, checked with the cluster
 * in this call. A partition whose start cannot be looked up or checked now is <em>undecided</em>:
 * its records are returned to the application (counted, with a WARN), never held back, so a
 * baseline that cannot be read delays no partition and loses nothing; the look-up is tried again
 * after a backoff.
 */
final class ShareStartOffsetFilter {
    private static final Logger log = LoggerFactory.getLogger(ShareStartOffsetFilter.class);

    private final ShareStartOffsets starts;
    private final boolean explicitAcks;
    private final ShareResetMetrics metrics;
    private final KafkaBackoff backoff = new KafkaBackoff(100, 2, 10_000, 0.2);
    private final LongSupplier clock;
    private int failures;
    private long nextAttemptMs;

    ShareStartOffsetFilter(ShareStartOffsets starts, boolean explicitAcks, ShareResetMetrics metrics) {
        this(starts, explicitAcks, metrics, System::currentTimeMillis);
    }

    ShareStartOffsetFilter(ShareStartOffsets starts, boolean explicitAcks, ShareResetMetrics metrics, LongSupplier clock) {
        this.starts = starts;
        this.explicitAcks = explicitAcks;
        this.metrics = metrics;
        this.clock = clock;
    }

    <K, V> ConsumerRecords<K, V> apply(ConsumerRecords<K, V> records, ShareConsumer<K, V> delegate) {
        if (records.isEmpty()) {
            return records;
        }
        Set<TopicPartition> undecided = decide(records);
        Map<TopicPartition, List<ConsumerRecord<K, V>>> kept = new HashMap<>();
        int skipped = 0;
        int delivered = 0;
        for (TopicPartition tp : records.partitions()) {
            ShareStartOffsets.Start start = undecided.contains(tp) ? null : starts.cached(tp);
            List<ConsumerRecord<K, V>> out = new ArrayList<>();
            for (ConsumerRecord<K, V> r : records.records(tp)) {
                if (start != null && r.offset() < start.offset()) {
                    skipped++;
                    if (explicitAcks) {
                        delegate.acknowledge(r, AcknowledgeType.ACCEPT);
                    }
                } else {
                    out.add(r);
                }
            }
            if (undecided.contains(tp)) {
                delivered += out.size();
            }
            if (!out.isEmpty()) {
                kept.put(tp, out);
            }
        }
        if (delivered > 0) {
            metrics.recordDeliveredUndecided(delivered);
        }
        if (skipped == 0) {
            return records;
        }
        metrics.recordSkipped(skipped);
        return new ConsumerRecords<>(kept, Map.of());
    }

    /**
     * Delivers the whole batch undecided, looking nothing up: the member's preparation (the group and
     * operator-reset checks a start depends on) has not succeeded yet.
     */
    <K, V> ConsumerRecords<K, V> deliverUndecided(ConsumerRecords<K, V> records) {
        if (!records.isEmpty()) {
            metrics.recordDeliveredUndecided(records.count());
            log.debug("Share group {}: not prepared yet, {} record(s) of {} delivered undecided", starts.group(), records.count(),
                    records.partitions());
        }
        return records;
    }

    /**
     * Looks up the starts of partitions met for the first time and checks, for partitions with
     * records below their start, that the start still belongs to the topic; returns the
     * partitions left undecided.
     */
    private <K, V> Set<TopicPartition> decide(ConsumerRecords<K, V> records) {
        Set<TopicPartition> unknown = new HashSet<>();
        Set<String> toCheck = new HashSet<>();
        Map<TopicPartition, Long> movedBack = new HashMap<>();
        for (TopicPartition tp : records.partitions()) {
            ShareStartOffsets.Start start = starts.cached(tp);
            long lowest = minOffset(records.records(tp));
            if (start == null) {
                unknown.add(tp);
            } else if (lowest < start.offset()) {
                toCheck.add(tp.topic());
                if (starts.reached(tp)) {
                    movedBack.put(tp, lowest);
                }
            }
        }
        if (unknown.isEmpty() && toCheck.isEmpty()) {
            return Set.of();
        }
        if (clock.getAsLong() < nextAttemptMs) {
            return undecided(records, null);
        }
        try {
            if (!toCheck.isEmpty()) {
                starts.verify(toCheck);
                records.partitions().stream().filter(tp -> starts.cached(tp) == null).forEach(unknown::add);
            }
            movedBack.keySet().removeIf(tp -> !starts.reached(tp)); // a topic re-created: its start is forgotten instead
            if (!movedBack.isEmpty()) {
                starts.movedBack(movedBack);
            }
            if (!unknown.isEmpty()) {
                starts.resolve(unknown);
            }
            failures = 0;
            Set<TopicPartition> left = new HashSet<>();
            records.partitions().stream().filter(tp -> starts.cached(tp) == null).forEach(left::add);
            return left;
        } catch (RuntimeException e) {
            if (e instanceof InterruptException) {
                Thread.currentThread().interrupt(); // for the caller's next blocking call; the batch is still returned
            }
            nextAttemptMs = clock.getAsLong() + backoff.backoff(failures++);
            metrics.recordLookupFailure();
            return undecided(records, e.toString());
        }
    }

    private <K, V> Set<TopicPartition> undecided(ConsumerRecords<K, V> records, String why) {
        Set<TopicPartition> out = new HashSet<>();
        for (TopicPartition tp : records.partitions()) {
            ShareStartOffsets.Start start = starts.cached(tp);
            if (start == null || minOffset(records.records(tp)) < start.offset()) {
                out.add(tp);
            }
        }
        if (why != null) {
            log.warn("Share group {}: cannot decide the start offsets of {} ({}): their records are delivered rather than acknowledged"
                    + " unseen; looked up again in {} ms", starts.group(), out, why, nextAttemptMs - clock.getAsLong());
        } else {
            log.debug("Share group {}: start offsets of {} still undecided (the look-up failed recently): delivered", starts.group(), out);
        }
        return out;
    }

    private static <K, V> long minOffset(List<ConsumerRecord<K, V>> records) {
        return records.stream().mapToLong(ConsumerRecord::offset).min().orElse(Long.MAX_VALUE);
    }
}
