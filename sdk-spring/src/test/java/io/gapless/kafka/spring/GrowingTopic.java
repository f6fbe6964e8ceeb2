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

import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.TestClients;
import io.gapless.kafka.testkit.TestTopics;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

import java.time.Duration;
import java.util.stream.IntStream;

import static org.awaitility.Awaitility.await;

/**
 * A topic a test writes to in named phases and grows; every value written is kept in
 * {@link #written()} (values are {@code <phase>-<partition>-<n>}, unique per topic).
 */
public final class GrowingTopic implements AutoCloseable {
    public static final Duration WAIT = Duration.ofSeconds(90);

    private final EmbeddedKafka kafka;
    private final String name;
    private final KafkaProducer<String, String> producer;
    private final RecordTally written = new RecordTally();
    private int partitions;
    private int markerSeq;

    public GrowingTopic(EmbeddedKafka kafka, String prefix, int partitions) {
        this.kafka = kafka;
        this.name = TestTopics.unique(prefix);
        this.partitions = partitions;
        kafka.createTopic(name, partitions);
        this.producer = TestClients.producer(kafka);
    }

    public String name() {
        return name;
    }

    public int partitions() {
        return partitions;
    }

    public RecordTally written() {
        return written;
    }

    /** Writes {@code perPartition} records of {@code phase} to each of {@code partitionIds} and waits for every ack. */
    public void write(String phase, int perPartition, IntStream partitionIds) {
        partitionIds.forEach(p -> TestClients.produce(producer, name, p, phase + "-" + p, perPartition)
                .forEach(v -> written.add(p, v)));
    }

    /** Writes {@code perPartition} records of {@code phase} to every partition the topic has now. */
    public void write(String phase, int perPartition) {
        write(phase, perPartition, IntStream.range(0, partitions));
    }

    public void grow(int to) {
        kafka.addPartitions(name, to);
        partitions = to;
    }

    /**
     * Writes a {@code marker} record to every partition whose last marker has not arrived in
     * {@code received}, every 300 ms, until one marker of each partition has arrived: then the
     * listener is served from every partition, and in partition order everything written before the
     * marker has been handed to it.
     */
    public void awaitServed(RecordTally received, String marker) {
        long[] lastRound = {0};
        await(marker + " markers on every partition of " + name).atMost(WAIT).pollInterval(Duration.ofMillis(50)).until(() -> {
            boolean all = true;
            boolean resend = System.currentTimeMillis() - lastRound[0] >= 300;
            for (int p = 0; p < partitions; p++) {
                int partition = p;
                if (received.count(partition, v -> v.startsWith(marker + "-")) == 0) {
                    all = false;
                    if (resend) {
                        String value = marker + "-" + partition + "-" + markerSeq++;
                        producer.send(new ProducerRecord<>(name, partition, "marker", value)).get();
                        written.add(partition, value);
                    }
                }
            }
            if (resend) {
                lastRound[0] = System.currentTimeMillis();
            }
            return all;
        });
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(5));
    }
}
