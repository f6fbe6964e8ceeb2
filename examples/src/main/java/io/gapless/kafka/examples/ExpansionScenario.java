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
package io.gapless.kafka.examples;

import io.gapless.kafka.testkit.EmbeddedKafka;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.function.Function;

/**
 * The scenario behind the loss: a group starts on a topic with {@code initialPartitions}
 * partitions and {@code auto.offset.reset=latest}, the topic grows to {@code finalPartitions} and
 * records are written to every partition at once. Records written before the group started
 * (history) must not be replayed; every record written after it should be consumed.
 */
public final class ExpansionScenario {
    private static final int HISTORY_PER_PARTITION = 50;
    private static final Duration PHASE_TIMEOUT = Duration.ofSeconds(120);

    private final EmbeddedKafka kafka;
    private final int initialPartitions;
    private final int finalPartitions;
    private final int records;

    public ExpansionScenario(EmbeddedKafka kafka, int initialPartitions, int finalPartitions, int records) {
        this.kafka = kafka;
        this.initialPartitions = initialPartitions;
        this.finalPartitions = finalPartitions;
        this.records = records;
    }

    /**
     * Runs the scenario once on a fresh topic and group.
     *
     * @param label         the row label in the printed table
     * @param groupProtocol {@code classic} or {@code consumer}
     * @param extraConfig   settings added to the consumer (for example the SDK's new-partitions policy)
     * @param factory       builds the consumer under test from its properties
     */
    public ExpansionResult run(String label, String groupProtocol, Map<String, String> extraConfig,
                               Function<Properties, Consumer<String, String>> factory) {
        String topic = "demo-" + label.replaceAll("[^A-Za-z0-9]+", "-").toLowerCase() + "-" + System.nanoTime();
        kafka.createTopic(topic, initialPartitions);
        ExpansionResult result = new ExpansionResult(label, initialPartitions, finalPartitions);
        try (KafkaProducer<String, String> producer = producer()) {
            for (int p = 0; p < initialPartitions; p++) {
                for (int i = 0; i < HISTORY_PER_PARTITION; i++) {
                    producer.send(new ProducerRecord<>(topic, p, "history", "h-" + p + "-" + i));
                }
            }
            producer.flush();

            Properties props = consumerProps(topic, groupProtocol);
            extraConfig.forEach(props::put);
            try (Consumer<String, String> consumer = factory.apply(props)) {
                consumer.subscribe(List.of(topic));
                Set<String> seen = new HashSet<>();
                // Positioned on the initial partitions: from here on every new record should be read.
                pollUntil(consumer, seen, result, PHASE_TIMEOUT, "the group to be positioned on " + initialPartitions + " partitions",
                        () -> consumer.assignment().size() == initialPartitions && positioned(consumer));
                pollOnce(consumer, seen, result);

                kafka.addPartitions(topic, finalPartitions);
                for (int i = 0; i < records; i++) {
                    int partition = i % finalPartitions;
                    producer.send(new ProducerRecord<>(topic, partition, "live", "l-" + partition + "-" + i));
                    result.produced(partition);
                }
                producer.flush();

                // Caught up: positioned at or past the end of every partition, so whatever was not seen never will be.
                Map<TopicPartition, Long> ends = consumer.endOffsets(partitions(topic, finalPartitions));
                pollUntil(consumer, seen, result, PHASE_TIMEOUT, "the group to catch up with all " + finalPartitions + " partitions",
                        () -> consumer.assignment().size() == finalPartitions && positioned(consumer) && caughtUp(consumer, ends));
            }
        }
        kafka.deleteTopics(topic);
        return result;
    }

    private static List<TopicPartition> partitions(String topic, int count) {
        return java.util.stream.IntStream.range(0, count).mapToObj(p -> new TopicPartition(topic, p)).toList();
    }

    private static boolean caughtUp(Consumer<String, String> consumer, Map<TopicPartition, Long> ends) {
        return ends.entrySet().stream().allMatch(e -> consumer.position(e.getKey(), Duration.ofSeconds(5)) >= e.getValue());
    }

    private static boolean positioned(Consumer<String, String> consumer) {
        for (TopicPartition tp : consumer.assignment()) {
            consumer.position(tp, Duration.ofSeconds(5));
        }
        return true;
    }

    /** Polls until {@code done}; a phase that does not finish in time fails the run rather than skew its numbers. */
    private static void pollUntil(Consumer<String, String> consumer, Set<String> seen, ExpansionResult result,
                                  Duration timeout, String what, java.util.function.BooleanSupplier done) {
        long deadline = System.nanoTime() + timeout.toNanos();
        do {
            pollOnce(consumer, seen, result);
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("Timed out after " + timeout + " waiting for " + what);
            }
        } while (!done.getAsBoolean());
    }

    private static int pollOnce(Consumer<String, String> consumer, Set<String> seen, ExpansionResult result) {
        int n = 0;
        for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(100))) {
            n++;
            if ("history".equals(r.key())) {
                result.historyReplayed();
            } else if (!seen.add(r.value())) {
                result.duplicate();
            } else {
                result.seen(r.partition());
            }
        }
        return n;
    }

    private KafkaProducer<String, String> producer() {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        return new KafkaProducer<>(props);
    }

    private Properties consumerProps(String topic, String groupProtocol) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, topic + "-group");
        props.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, groupProtocol);
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
        // Discover added partitions quickly, so the demo shows loss rather than a slow refresh.
        props.put(ConsumerConfig.METADATA_MAX_AGE_CONFIG, "1000");
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        return props;
    }
}
