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

import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;

import java.util.concurrent.atomic.AtomicReference;

/**
 * A producer kept open on a topic of its own and driven one segment at a time: each turn sends
 * {@code records} records of 100 bytes round-robin over the partitions as fast as it can and ends
 * with {@code flush()}. Send-to-acknowledgement latency is sampled on every 16th record.
 */
final class LiveProducer implements AutoCloseable {
    private static final int LATENCY_SAMPLE_EVERY = 16;

    private final Producer<byte[], byte[]> producer;
    private final String topic;
    private final int partitions;
    private final int records;
    private final byte[] value = TopicLoader.value();
    private final LatencySamples acks = new LatencySamples();
    private final AtomicReference<Exception> failure = new AtomicReference<>();
    private final Callback onAck = (md, e) -> fail(e);

    LiveProducer(Producer<byte[], byte[]> producer, String topic, int partitions, int segmentRecords) {
        this.producer = producer;
        this.topic = topic;
        this.partitions = partitions;
        this.records = segmentRecords;
        // Metadata first, so that the first send does not pay for the topic lookup.
        producer.partitionsFor(topic);
    }

    /** Sends one segment and flushes it; acknowledgement latencies count when {@code measured}. */
    Segment segment(boolean measured) {
        long[] sent = measured ? new long[records / LATENCY_SAMPLE_EVERY + 1] : null;
        long[] acked = measured ? new long[sent.length] : null;
        long cpu0 = CpuClock.threadNanos();
        long t0 = System.nanoTime();
        for (int i = 0; i < records; i++) {
            ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic, i % partitions, null, value);
            if (measured && i % LATENCY_SAMPLE_EVERY == 0) {
                int n = i / LATENCY_SAMPLE_EVERY;
                sent[n] = System.nanoTime();
                producer.send(record, (md, e) -> {
                    fail(e);
                    acked[n] = System.nanoTime() - sent[n];
                });
            } else {
                producer.send(record, onAck);
            }
        }
        producer.flush();
        long wall = System.nanoTime() - t0;
        long cpu = CpuClock.threadNanos() - cpu0;
        if (failure.get() != null) {
            throw new IllegalStateException("producing to " + topic + " failed", failure.get());
        }
        if (measured) {
            for (long a : acked) {
                if (a > 0) {
                    acks.add(a);
                }
            }
        }
        return new Segment(records / (wall / 1e9), cpu0 < 0 ? Double.NaN : (double) cpu / records);
    }

    private void fail(Exception e) {
        if (e != null) {
            failure.compareAndSet(null, e);
        }
    }

    LatencySamples acks() {
        return acks;
    }

    @Override
    public void close() {
        producer.close();
    }
}
