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
package io.gapless.kafka.e2e.sharereset;

import org.apache.kafka.common.TopicPartition;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What a share group delivered, per partition: records of the measured batch (produced right
 * after the change under test), duplicates among them, and the markers written later to prove
 * that the partition is being served.
 */
final class DeliveryTally {
    static final String BATCH = "batch";
    static final String MARKER = "marker";
    static final String WARM = "warm";

    private final Map<String, Integer> seen = new ConcurrentHashMap<>();

    void record(String topic, int partition, String value) {
        seen.merge(topic + "|" + partition + "|" + value, 1, Integer::sum);
    }

    /** Distinct batch records delivered from the partition. */
    int batchDelivered(TopicPartition tp) {
        return (int) seen.keySet().stream().filter(k -> k.startsWith(prefix(tp) + BATCH)).count();
    }

    /** Batch records delivered more than once, counted once per extra delivery. */
    int batchDuplicates(TopicPartition tp) {
        return seen.entrySet().stream().filter(e -> e.getKey().startsWith(prefix(tp) + BATCH))
                .mapToInt(e -> e.getValue() - 1).sum();
    }

    boolean markerDelivered(TopicPartition tp) {
        return seen.keySet().stream().anyMatch(k -> k.startsWith(prefix(tp) + MARKER));
    }

    boolean warmDelivered(TopicPartition tp) {
        return seen.keySet().stream().anyMatch(k -> k.startsWith(prefix(tp) + WARM));
    }

    /** Delivered batch records per partition, for the log. */
    Map<String, Integer> summary(Set<TopicPartition> partitions) {
        Map<String, Integer> out = new TreeMap<>();
        partitions.forEach(tp -> out.put(tp.toString(), batchDelivered(tp)));
        return out;
    }

    private static String prefix(TopicPartition tp) {
        return tp.topic() + "|" + tp.partition() + "|";
    }
}
