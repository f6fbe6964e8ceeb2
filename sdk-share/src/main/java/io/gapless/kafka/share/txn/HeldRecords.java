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

import io.gapless.kafka.share.ledger.LedgerRange;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.InvalidRecordStateException;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Records a transactional share consumer has handed out and not yet settled, and which of them
 * are staged in a producer transaction. Pure bookkeeping; the consumer does the acknowledging.
 */
final class HeldRecords<K, V> {
    private final Map<TopicIdPartition, TreeMap<Long, ConsumerRecord<K, V>>> held = new LinkedHashMap<>();
    private final Map<TopicIdPartition, Map<Long, String>> staged = new HashMap<>();

    void hold(TopicIdPartition partition, ConsumerRecord<K, V> record) {
        held.computeIfAbsent(partition, p -> new TreeMap<>()).put(record.offset(), record);
    }

    boolean anyStaged() {
        return staged.values().stream().anyMatch(m -> !m.isEmpty());
    }

    boolean isEmpty() {
        return held.values().stream().allMatch(Map::isEmpty);
    }

    /** Removes and returns every held record that is not staged. */
    List<ConsumerRecord<K, V>> takeUnstaged() {
        List<ConsumerRecord<K, V>> result = new ArrayList<>();
        held.forEach((partition, byOffset) -> {
            Map<Long, String> s = staged.getOrDefault(partition, Map.of());
            byOffset.entrySet().removeIf(e -> {
                if (s.containsKey(e.getKey())) {
                    return false;
                }
                result.add(e.getValue());
                return true;
            });
        });
        held.values().removeIf(Map::isEmpty);
        return result;
    }

    /** Whether {@code partition@offset} is held (staged or not). */
    boolean holds(TopicIdPartition partition, long offset) {
        TreeMap<Long, ConsumerRecord<K, V>> byOffset = held.get(partition);
        return byOffset != null && byOffset.containsKey(offset);
    }

    /** Whether {@code partition@offset} is staged in a transaction. */
    boolean isStaged(TopicIdPartition partition, long offset) {
        return staged.getOrDefault(partition, Map.of()).containsKey(offset);
    }

    /** The held partitions. */
    List<TopicIdPartition> partitions() {
        return List.copyOf(held.keySet());
    }

    /** The held records of {@code partition}, ascending. */
    List<ConsumerRecord<K, V>> records(TopicIdPartition partition) {
        return List.copyOf(held.getOrDefault(partition, new TreeMap<>()).values());
    }

    /** Files everything held under {@code from} under {@code to} (a topic id learnt later). */
    void rekey(TopicIdPartition from, TopicIdPartition to) {
        TreeMap<Long, ConsumerRecord<K, V>> byOffset = held.remove(from);
        if (byOffset != null) {
            held.computeIfAbsent(to, p -> new TreeMap<>()).putAll(byOffset);
        }
        Map<Long, String> s = staged.remove(from);
        if (s != null) {
            staged.computeIfAbsent(to, p -> new HashMap<>()).putAll(s);
        }
    }

    /** Forgets a record the application acknowledged itself. */
    void forget(TopicIdPartition partition, long offset) {
        TreeMap<Long, ConsumerRecord<K, V>> byOffset = held.get(partition);
        if (byOffset != null) {
            byOffset.remove(offset);
        }
        Map<Long, String> s = staged.get(partition);
        if (s != null) {
            s.remove(offset);
        }
    }

    /** The held record at {@code offset} of {@code partition} (staged or not), or null; nothing changes. */
    ConsumerRecord<K, V> get(TopicIdPartition partition, long offset) {
        TreeMap<Long, ConsumerRecord<K, V>> byOffset = held.get(partition);
        return byOffset == null ? null : byOffset.get(offset);
    }

    /** Removes a held record (staged or not) and returns it, or null. */
    ConsumerRecord<K, V> take(TopicIdPartition partition, long offset) {
        TreeMap<Long, ConsumerRecord<K, V>> byOffset = held.get(partition);
        ConsumerRecord<K, V> record = byOffset == null ? null : byOffset.remove(offset);
        Map<Long, String> s = staged.get(partition);
        if (s != null) {
            s.remove(offset);
        }
        return record;
    }

    /** Undoes {@link #stage} of these ranges: the records are held, not staged. */
    void unstage(Map<TopicIdPartition, List<LedgerRange>> ranges) {
        ranges.forEach((partition, list) -> {
            Map<Long, String> s = staged.get(partition);
            if (s != null) {
                for (LedgerRange r : list) {
                    for (long o = r.first(); o <= r.last(); o++) {
                        s.remove(o);
                    }
                }
            }
        });
    }

    /** The held partition matching {@code partition}; a zero topic id matches by topic name. */
    TopicIdPartition resolve(TopicIdPartition partition) {
        if (!Uuid.ZERO_UUID.equals(partition.topicId())) {
            return partition;
        }
        for (TopicIdPartition p : held.keySet()) {
            if (p.topicPartition().equals(partition.topicPartition())) {
                return p;
            }
        }
        return partition;
    }

    /**
     * Stages acknowledged offsets for {@code transactionalId} and returns them as ledger ranges split
     * by type and delivery count. All-or-nothing: on any offset not held, or already staged, throws
     * and stages nothing.
     */
    Map<TopicIdPartition, List<LedgerRange>> stage(Map<TopicIdPartition, List<AcknowledgementBatch>> acks, String transactionalId) {
        Map<TopicIdPartition, List<LedgerRange>> result = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        for (Map.Entry<TopicIdPartition, List<AcknowledgementBatch>> e : acks.entrySet()) {
            TopicIdPartition partition = resolve(e.getKey());
            TreeMap<Long, ConsumerRecord<K, V>> byOffset = held.getOrDefault(partition, new TreeMap<>());
            Map<Long, String> s = staged.getOrDefault(partition, Map.of());
            List<LedgerRange> ranges = new ArrayList<>();
            for (AcknowledgementBatch batch : e.getValue()) {
                for (long offset = batch.firstOffset(); offset <= batch.lastOffset(); offset++) {
                    ConsumerRecord<K, V> record = byOffset.get(offset);
                    if (record == null) {
                        problems.add(partition.topicPartition() + "@" + offset + " is not held by this consumer");
                        continue;
                    }
                    if (s.containsKey(offset)) {
                        problems.add(partition.topicPartition() + "@" + offset + " is already staged by transactional.id " + s.get(offset));
                        continue;
                    }
                    short count = record.deliveryCount().orElse((short) 1);
                    append(ranges, offset, batch.acknowledgeType(), count, transactionalId);
                }
            }
            result.put(partition, ranges);
        }
        if (!problems.isEmpty()) {
            throw new InvalidRecordStateException("Cannot acknowledge in a transaction: "
                    + String.join("; ", problems.subList(0, Math.min(10, problems.size())))
                    + (problems.size() > 10 ? " (and " + (problems.size() - 10) + " more)" : "")
                    + ". Only records returned by the consumer's last poll and not yet acknowledged can be.");
        }
        result.forEach((partition, ranges) -> {
            Map<Long, String> s = staged.computeIfAbsent(partition, p -> new HashMap<>());
            for (LedgerRange r : ranges) {
                for (long o = r.first(); o <= r.last(); o++) {
                    s.put(o, transactionalId);
                }
            }
        });
        return result;
    }

    private static void append(List<LedgerRange> ranges, long offset, AcknowledgeType type, short count, String txnId) {
        if (!ranges.isEmpty()) {
            LedgerRange last = ranges.get(ranges.size() - 1);
            if (last.last() == offset - 1 && last.ackType() == type.id && last.deliveryCount() == count) {
                ranges.set(ranges.size() - 1, new LedgerRange(-1, txnId, last.first(), offset, type.id, count));
                return;
            }
        }
        ranges.add(new LedgerRange(-1, txnId, offset, offset, type.id, count));
    }
}
