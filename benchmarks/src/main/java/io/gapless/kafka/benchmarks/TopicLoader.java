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

import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Fills a topic with fixed-size records spread evenly over its partitions. */
public final class TopicLoader {
    /** Record value size used by every throughput benchmark. */
    public static final int VALUE_BYTES = 100;

    private TopicLoader() {
    }

    /** A {@value #VALUE_BYTES}-byte value with random content (compression is off, so content does not matter). */
    public static byte[] value() {
        byte[] v = new byte[VALUE_BYTES];
        new Random(42).nextBytes(v);
        return v;
    }

    /**
     * Creates a topic and waits until every partition accepts a write. Metadata can name a leader a
     * few milliseconds before that leader accepts produce requests; an idempotent producer whose
     * first batch gets NOT_LEADER_OR_FOLLOWER while later batches land then retries with
     * OUT_OF_ORDER_SEQUENCE_NUMBER until its delivery timeout (seen with 4.4 in one JVM). One
     * acknowledged record per partition, from a producer with one request in flight, avoids that.
     * The topic then holds one extra record per partition.
     */
    public static void create(EmbeddedKafka kafka, String topic, int partitions) {
        kafka.createTopic(topic, partitions);
        Map<String, Object> settings = ClientSettings.producer(kafka);
        settings.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1);
        settings.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(settings)) {
            for (int p = 0; p < partitions; p++) {
                producer.send(new ProducerRecord<>(topic, p, null, value())).get(60, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for " + topic + " to accept writes", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("Topic " + topic + " does not accept writes", e);
        }
    }

    /** Creates {@code topic} as {@link #create} does and writes {@code records} more records round-robin. */
    public static void load(EmbeddedKafka kafka, String topic, int partitions, int records) {
        create(kafka, topic, partitions);
        byte[] value = value();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(ClientSettings.producer(kafka))) {
            for (int i = 0; i < records; i++) {
                producer.send(new ProducerRecord<>(topic, i % partitions, null, value));
            }
            producer.flush();
        }
    }
}
