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

import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.TopicPartition;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The acknowledgements an explicit-mode share consumer's application gave and Kafka has not seen
 * yet (KIP-1289 as Kafka ships it). Kafka's consumer sends explicit acknowledgements with the
 * next poll, commit or close; {@code acknowledgementsForTransaction()} takes them away for a
 * producer transaction instead. Emulated, they wait here: {@link #flush} hands them to Kafka at
 * those moments (nothing changes for an application that never uses a transaction), {@link #take}
 * moves them into a transaction's reach. Pure bookkeeping; used from the consumer's thread.
 */
final class ExplicitAcks<K, V> {
    private record Key(TopicPartition partition, long offset) {
        static Key of(ConsumerRecord<?, ?> record) {
            return new Key(new TopicPartition(record.topic(), record.partition()), record.offset());
        }
    }

    /** One acknowledgement the application gave. */
    record Ack<K, V>(ConsumerRecord<K, V> record, AcknowledgeType type) {
    }

    private final Map<Key, Ack<K, V>> pending = new LinkedHashMap<>();
    private final Map<Key, Ack<K, V>> taken = new LinkedHashMap<>();

    /**
     * Records an acknowledgement; a later one for the same record replaces it, as Kafka keeps the
     * last type given before it sends them.
     *
     * @throws IllegalStateException if the record was already taken for a transaction
     */
    void acknowledge(ConsumerRecord<K, V> record, AcknowledgeType type) {
        Key key = Key.of(record);
        if (taken.containsKey(key)) {
            throw new IllegalStateException(key.partition() + "@" + key.offset() + " was already taken by acknowledgementsForTransaction()"
                    + " and can no longer be acknowledged outside the transaction");
        }
        pending.put(key, new Ack<>(record, type));
    }

    /** The pending acknowledgements (as {@code topic-partition@offset}) that {@code acks} would also acknowledge. */
    List<String> pendingIn(Map<TopicIdPartition, List<AcknowledgementBatch>> acks) {
        List<String> found = new ArrayList<>();
        for (Key key : pending.keySet()) {
            acks.forEach((tip, batches) -> {
                if (tip.topicPartition().equals(key.partition()) && batches.stream().anyMatch(b -> b.contains(key.offset()))) {
                    found.add(key.partition() + "@" + key.offset());
                }
            });
        }
        return found;
    }

    /** Removes and returns the acknowledgements Kafka has not seen, in the order they were given. */
    List<Ack<K, V>> flush() {
        List<Ack<K, V>> result = new ArrayList<>(pending.values());
        pending.clear();
        return result;
    }

    /** Moves the pending acknowledgements into a transaction's reach and returns them. */
    List<Ack<K, V>> take() {
        List<Ack<K, V>> result = new ArrayList<>(pending.values());
        pending.forEach(taken::put);
        pending.clear();
        return result;
    }

    /** A producer staged {@code partition@offset}: it is no longer just taken. */
    void staged(TopicPartition partition, long offset) {
        taken.remove(new Key(partition, offset));
    }

    /** A staging of {@code record} was undone: it is taken (for a transaction, with {@code type}) again. */
    void retake(ConsumerRecord<K, V> record, AcknowledgeType type) {
        taken.put(Key.of(record), new Ack<>(record, type));
    }

    /** Removes and returns what was taken and never staged: no transaction will settle it. */
    List<Ack<K, V>> takeAbandoned() {
        List<Ack<K, V>> result = new ArrayList<>(taken.values());
        taken.clear();
        return result;
    }
}
