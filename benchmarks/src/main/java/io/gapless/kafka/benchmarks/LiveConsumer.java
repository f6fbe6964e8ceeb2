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
import org.apache.kafka.common.TopicPartition;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * A consumer kept open on a pre-filled topic and read one segment at a time: each turn polls
 * until it has read a segment's worth of records. It rewinds to the start (a {@code seek}, outside the
 * timed part) every {@code total / (segment + 1000)} segments, before the rest of the topic could
 * run short (a poll returns up to 500 records more than asked): the rewinds fall on the same
 * turns for every client of a benchmark.
 */
final class LiveConsumer implements AutoCloseable {
    private static final Duration POLL = Duration.ofMillis(100);
    private static final Duration TURN_TIMEOUT = Duration.ofMinutes(2);

    private final Consumer<byte[], byte[]> consumer;
    private final LatencySamples polls = new LatencySamples();
    private Map<TopicPartition, Long> beginning;
    private final int records;
    private final long segmentsPerPass;
    private long segments;

    LiveConsumer(Consumer<byte[], byte[]> consumer, String topic, long total, int segmentRecords) {
        this.consumer = consumer;
        this.records = segmentRecords;
        this.segmentsPerPass = Math.max(1, total / (segmentRecords + 1000L));
        consumer.subscribe(List.of(topic));
    }

    /** Reads one segment, timing it; its polls count toward the latency samples when {@code measured}. */
    Segment segment(boolean measured) {
        if (beginning == null) {
            awaitAssignment();
        }
        if (segments++ % segmentsPerPass == 0) {
            beginning.forEach(consumer::seek);
        }
        long deadline = System.nanoTime() + TURN_TIMEOUT.toNanos();
        int read = 0;
        long cpu0 = CpuClock.threadNanos();
        long t0 = System.nanoTime();
        while (read < records) {
            long before = System.nanoTime();
            ConsumerRecords<byte[], byte[]> batch = consumer.poll(POLL);
            long after = System.nanoTime();
            if (measured) {
                polls.add(after - before);
            }
            read += batch.count();
            if (after > deadline) {
                throw new IllegalStateException("read " + read + " of " + records + " records in " + TURN_TIMEOUT);
            }
        }
        long wall = System.nanoTime() - t0;
        long cpu = CpuClock.threadNanos() - cpu0;
        return new Segment(read / (wall / 1e9), cpu0 < 0 ? Double.NaN : (double) cpu / read);
    }

    LatencySamples polls() {
        return polls;
    }

    /** Joins the group and positions every partition (the SDK resets them through the baseline here). */
    private void awaitAssignment() {
        long deadline = System.nanoTime() + TURN_TIMEOUT.toNanos();
        while (consumer.assignment().isEmpty()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no assignment within " + TURN_TIMEOUT);
            }
            consumer.poll(POLL);
        }
        Collection<TopicPartition> assigned = consumer.assignment();
        beginning = consumer.beginningOffsets(assigned);
    }

    @Override
    public void close() {
        consumer.close();
    }
}
