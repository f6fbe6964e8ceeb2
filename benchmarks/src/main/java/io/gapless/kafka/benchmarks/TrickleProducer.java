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

import io.gapless.kafka.testkit.EmbeddedKafka;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * Writes one record every {@code intervalNanos}, round-robin over the partitions it is told about,
 * from its own thread, like a live application during a topic expansion. Values are 8-byte
 * sequence numbers; only records the broker acknowledged count as produced.
 */
public final class TrickleProducer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(TrickleProducer.class);

    private final KafkaProducer<byte[], byte[]> producer;
    private final String topic;
    private final long intervalNanos;
    private final AtomicLongArray produced;
    private final AtomicReference<Exception> failure = new AtomicReference<>();
    private final Thread thread;
    private volatile int partitions;
    private volatile boolean running = true;

    public TrickleProducer(EmbeddedKafka kafka, String topic, int initialPartitions, int maxPartitions, long intervalNanos) {
        Map<String, Object> settings = ClientSettings.producer(kafka);
        // One request in flight: a partition that was just created can answer NOT_LEADER_OR_FOLLOWER to the
        // first batch while later pipelined batches land; the idempotent producer then retries with
        // OUT_OF_ORDER_SEQUENCE_NUMBER until the delivery timeout (seen on 4.4 with an in-JVM broker).
        settings.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1);
        settings.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        this.producer = new KafkaProducer<>(settings);
        this.topic = topic;
        this.intervalNanos = intervalNanos;
        this.produced = new AtomicLongArray(maxPartitions);
        this.partitions = initialPartitions;
        this.thread = new Thread(this::loop, "trickle-" + topic);
        this.thread.setDaemon(true);
        this.thread.start();
    }

    /** From now on, spread records over {@code count} partitions. */
    public void partitions(int count) {
        partitions = count;
    }

    private void loop() {
        long seq = 0;
        long next = System.nanoTime();
        while (running) {
            int partition = (int) (seq % partitions);
            byte[] value = ByteBuffer.allocate(Long.BYTES).putLong(seq).array();
            try {
                producer.send(new ProducerRecord<>(topic, partition, null, value), (md, e) -> {
                    if (e == null) {
                        produced.incrementAndGet(partition);
                    } else {
                        failure.compareAndSet(null, e);
                    }
                });
            } catch (RuntimeException e) {
                failure.compareAndSet(null, e);
                return;
            }
            seq++;
            next += intervalNanos;
            long wait = next - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            }
        }
    }

    /** Stops sending and waits until every record sent is acknowledged. */
    public void stop() {
        running = false;
        try {
            thread.join(30_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        producer.flush();
        if (failure.get() != null) {
            throw new IllegalStateException("trickle producer on " + topic + " failed", failure.get());
        }
    }

    /** Records acknowledged on {@code partition}; call after {@link #stop()}. */
    public long produced(int partition) {
        return produced.get(partition);
    }

    @Override
    public void close() {
        if (running) {
            running = false;
            log.debug("trickle producer on {} closed while running", topic);
        }
        producer.close();
    }
}
