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
package io.gapless.kafka.benchmarks;

import org.apache.kafka.clients.consumer.ConsumerRecord;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * What a consumer delivered in an expansion run, per partition, by the sequence numbers the run's
 * producers write (8-byte values without a key); records with the history key, or of any other
 * shape, predate the group.
 */
final class DeliveredRecords {
    private final int initialPartitions;
    private final Map<Integer, Set<Long>> seen = new HashMap<>();
    private long duplicates;
    private long history;
    private long firstNewAt = -1;
    private final Map<Integer, Long> firstAt = new HashMap<>();

    DeliveredRecords(int initialPartitions) {
        this.initialPartitions = initialPartitions;
    }

    /** Records a poll's records; returns how many there were. */
    int add(Iterable<ConsumerRecord<byte[], byte[]>> records) {
        int n = 0;
        for (ConsumerRecord<byte[], byte[]> r : records) {
            n++;
            // History (ExpansionRun.HISTORY_KEY) and the readiness record TopicLoader.create writes: both predate the group.
            if (r.key() != null || r.value() == null || r.value().length != Long.BYTES) {
                history++;
                continue;
            }
            long seq = ByteBuffer.wrap(r.value()).getLong();
            if (!seen.computeIfAbsent(r.partition(), p -> new HashSet<>()).add(seq)) {
                duplicates++;
            }
            long now = System.nanoTime();
            firstAt.putIfAbsent(r.partition(), now);
            if (r.partition() >= initialPartitions && firstNewAt < 0) {
                firstNewAt = now;
            }
        }
        return n;
    }

    /** Distinct records delivered from {@code partition}. */
    long distinct(int partition) {
        return seen.getOrDefault(partition, Set.of()).size();
    }

    long duplicates() {
        return duplicates;
    }

    /** Records delivered that were written before the group started. */
    long history() {
        return history;
    }

    /** {@link System#nanoTime()} when the first record of an added partition was delivered, -1 if none was. */
    long firstNewAt() {
        return firstNewAt;
    }

    /** {@link System#nanoTime()} when the first record of {@code partition} was delivered, -1 if none was. */
    long firstAt(int partition) {
        return firstAt.getOrDefault(partition, -1L);
    }
}
