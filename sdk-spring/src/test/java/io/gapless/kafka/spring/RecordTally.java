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
package io.gapless.kafka.spring;

import org.apache.kafka.clients.consumer.ConsumerRecord;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * Record values per partition, counted every time they arrive (a value seen twice is in the list
 * twice): what a listener received, or what a test wrote. Safe for concurrent listener threads.
 */
public final class RecordTally {
    private final Map<Integer, List<String>> byPartition = new ConcurrentHashMap<>();

    public void record(ConsumerRecord<?, String> record) {
        add(record.partition(), record.value());
    }

    public void add(int partition, String value) {
        List<String> values = byPartition.computeIfAbsent(partition, p -> new ArrayList<>());
        synchronized (values) {
            values.add(value);
        }
    }

    public boolean contains(int partition, String value) {
        List<String> values = byPartition.getOrDefault(partition, List.of());
        synchronized (values) {
            return values.contains(value);
        }
    }

    /** Per partition, the sorted values matching {@code filter} (duplicates kept), for exact comparison. */
    public Map<Integer, List<String>> sorted(Predicate<String> filter) {
        Map<Integer, List<String>> out = new TreeMap<>();
        byPartition.forEach((p, values) -> {
            List<String> copy;
            synchronized (values) {
                copy = new ArrayList<>(values.stream().filter(filter).toList());
            }
            copy.sort(null);
            if (!copy.isEmpty()) {
                out.put(p, copy);
            }
        });
        return out;
    }

    public Map<Integer, List<String>> sorted() {
        return sorted(v -> true);
    }

    /** How many values matching {@code filter} arrived from {@code partition}. */
    public int count(int partition, Predicate<String> filter) {
        List<String> values = byPartition.getOrDefault(partition, List.of());
        synchronized (values) {
            return (int) values.stream().filter(filter).count();
        }
    }

    /** Whether every value of {@code expected} arrived at least once. */
    public boolean containsAll(RecordTally expected) {
        for (Map.Entry<Integer, List<String>> e : expected.sorted().entrySet()) {
            List<String> have = byPartition.getOrDefault(e.getKey(), List.of());
            synchronized (have) {
                if (!have.containsAll(e.getValue())) {
                    return false;
                }
            }
        }
        return true;
    }
}
