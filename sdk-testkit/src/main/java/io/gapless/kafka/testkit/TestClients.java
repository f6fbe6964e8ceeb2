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
package io.gapless.kafka.testkit;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.function.Predicate;

/**
 * Client settings and small loops that tests against an {@link EmbeddedKafka} keep needing:
 * String producers and consumers, and polling until a condition holds or a deadline passes.
 *
 * @since 0.1.0
 */
public final class TestClients {
    private TestClients() {
    }

    /**
     * Producer settings: String keys and values, {@code acks=all}, short linger. On a secured
     * cluster they connect as the super user; put {@link EmbeddedKafka#clientProperties(String)}
     * over them to act as another principal.
     */
    public static Properties producerProps(EmbeddedKafka kafka) {
        Properties props = kafka.clientProperties();
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        return props;
    }

    /**
     * Consumer settings for a group: String keys and values, the given group protocol, manual
     * commits, and a one-second metadata refresh so that added partitions are found quickly. On a
     * secured cluster they connect as the super user, like {@link #producerProps(EmbeddedKafka)}.
     */
    public static Properties consumerProps(EmbeddedKafka kafka, String groupId, String groupProtocol) {
        Properties props = kafka.clientProperties();
        props.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        props.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, groupProtocol);
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.METADATA_MAX_AGE_CONFIG, "1000");
        return props;
    }

    /** A String producer for the cluster. */
    public static KafkaProducer<String, String> producer(EmbeddedKafka kafka) {
        return new KafkaProducer<>(producerProps(kafka));
    }

    /**
     * Writes {@code count} records to one partition, values {@code prefix-0 ...}, and waits for every ack.
     *
     * @throws IllegalStateException if a record is not acknowledged, or the wait is interrupted
     */
    public static List<String> produce(KafkaProducer<String, String> producer, String topic, int partition, String prefix, int count) {
        List<String> values = new ArrayList<>();
        List<java.util.concurrent.Future<?>> acks = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String value = prefix + "-" + i;
            values.add(value);
            acks.add(producer.send(new ProducerRecord<>(topic, partition, prefix, value)));
        }
        for (java.util.concurrent.Future<?> ack : acks) {
            try {
                ack.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while producing", e);
            } catch (ExecutionException e) {
                throw new IllegalStateException("Produce to " + topic + "-" + partition + " failed", e.getCause());
            }
        }
        return values;
    }

    /**
     * Polls until {@code done} holds for everything received so far, or throws after
     * {@code timeout}. Returns every record received, in order.
     *
     * @throws AssertionError if {@code done} does not hold within {@code timeout}, naming how many records arrived
     */
    public static <K, V> List<ConsumerRecord<K, V>> pollUntil(Consumer<K, V> consumer, Duration timeout,
                                                             Predicate<List<ConsumerRecord<K, V>>> done) {
        List<ConsumerRecord<K, V>> received = new ArrayList<>();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!done.test(received)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("Condition not met within " + timeout + "; received " + received.size() + " records");
            }
            consumer.poll(Duration.ofMillis(100)).forEach(received::add);
        }
        return received;
    }

    /** Polls for {@code quiet} and returns whatever arrives (to check that nothing more comes). */
    public static <K, V> List<ConsumerRecord<K, V>> drain(Consumer<K, V> consumer, Duration quiet) {
        List<ConsumerRecord<K, V>> received = new ArrayList<>();
        long deadline = System.nanoTime() + quiet.toNanos();
        while (System.nanoTime() < deadline) {
            consumer.poll(Duration.ofMillis(100)).forEach(received::add);
        }
        return received;
    }

    /** Every value a {@code read_committed} consumer sees in partition 0 of {@code topic}, from its beginning to its end now. */
    public static List<String> committedValues(EmbeddedKafka kafka, String topic) {
        Properties props = kafka.clientProperties();
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer())) {
            TopicPartition tp = new TopicPartition(topic, 0);
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            long end = consumer.endOffsets(List.of(tp)).get(tp);
            while (consumer.position(tp) < end) {
                consumer.poll(Duration.ofMillis(100)).forEach(r -> values.add(r.value()));
            }
        }
        return values;
    }
}
