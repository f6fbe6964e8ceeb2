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

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecords;

import java.time.Duration;
import java.util.List;

/** A new group's start as the benchmarks time it: from {@code subscribe} to the first record. */
final class FirstRecord {
    private FirstRecord() {
    }

    /**
     * Subscribes {@code consumer} to {@code topic} and polls until a record arrives.
     *
     * @return the milliseconds from {@code subscribe} to the first record
     * @throws IllegalStateException when no record arrives within {@code timeout}
     */
    static double millis(Consumer<byte[], byte[]> consumer, String topic, Duration timeout) {
        long subscribed = System.nanoTime();
        consumer.subscribe(List.of(topic));
        long deadline = subscribed + timeout.toNanos();
        ConsumerRecords<byte[], byte[]> batch = ConsumerRecords.empty();
        while (batch.isEmpty()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no record within " + timeout + " of subscribing");
            }
            batch = consumer.poll(Duration.ofMillis(100));
        }
        return (System.nanoTime() - subscribed) / 1e6;
    }
}
