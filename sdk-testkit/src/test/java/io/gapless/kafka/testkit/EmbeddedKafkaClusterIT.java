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

import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.internals.Exit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@EmbeddedKafkaTest
class EmbeddedKafkaClusterIT {

    private final EmbeddedKafka kafka;

    EmbeddedKafkaClusterIT(EmbeddedKafka kafka) {
        this.kafka = kafka;
    }

    @ParameterizedTest(name = "group.protocol={0}")
    @ValueSource(strings = {"classic", "consumer"})
    void producesAndConsumesWithBothGroupProtocols(String protocol) {
        String topic = TestTopics.unique("plain");
        kafka.createTopic(topic, 3);
        try (KafkaProducer<String, String> producer = producer(Map.of())) {
            for (int i = 0; i < 300; i++) {
                producer.send(new ProducerRecord<>(topic, "k" + i, "v" + i));
            }
            producer.flush();
        }
        Properties props = consumerProps(TestTopics.unique("group"), protocol);
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        Set<String> seen = new HashSet<>();
        int received = 0;
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props)) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (seen.size() < 300 && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                    seen.add(r.value());
                    received++;
                }
            }
        }
        assertEquals(300, seen.size(), "every record consumed");
        assertEquals(300, received, "no record consumed twice");
    }

    @Test
    void transactionalProducerWithSendOffsetsIsReadBackReadCommitted() throws Exception {
        String input = TestTopics.unique("tx-in");
        String output = TestTopics.unique("tx-out");
        String group = TestTopics.unique("tx-group");
        kafka.createTopic(input, 1);
        kafka.createTopic(output, 1);
        try (KafkaProducer<String, String> producer = producer(Map.of())) {
            for (int i = 0; i < 10; i++) {
                producer.send(new ProducerRecord<>(input, "k", "in" + i));
            }
        }
        Map<String, Object> txConfig = Map.of(ProducerConfig.TRANSACTIONAL_ID_CONFIG, TestTopics.unique("tx"));
        try (KafkaProducer<String, String> producer = producer(txConfig)) {
            producer.initTransactions();
            // An aborted transaction must stay invisible to read_committed readers.
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(output, "k", "aborted")).get();
            producer.abortTransaction();

            Properties cprops = consumerProps(group, "classic");
            cprops.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
            cprops.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
            try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(cprops)) {
                consumer.subscribe(List.of(input));
                List<ConsumerRecord<String, String>> batch = pollUntil(consumer, 10);
                producer.beginTransaction();
                for (ConsumerRecord<String, String> r : batch) {
                    producer.send(new ProducerRecord<>(output, r.key(), r.value().replace("in", "out")));
                }
                producer.sendOffsetsToTransaction(
                        Map.of(new TopicPartition(input, 0), new OffsetAndMetadata(batch.get(batch.size() - 1).offset() + 1)),
                        consumer.groupMetadata());
                producer.commitTransaction();
            }
        }
        Properties readProps = consumerProps(TestTopics.unique("reader"), "consumer");
        readProps.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        readProps.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        try (KafkaConsumer<String, String> reader = new KafkaConsumer<>(readProps)) {
            reader.subscribe(List.of(output));
            List<String> values = pollUntil(reader, 10).stream().map(ConsumerRecord::value).toList();
            assertEquals(10, values.size());
            assertTrue(values.stream().noneMatch("aborted"::equals), "aborted record hidden: " + values);
        }
        Map<TopicPartition, OffsetAndMetadata> committed = kafka.admin().listConsumerGroupOffsets(group)
                .partitionsToOffsetAndMetadata().get();
        assertEquals(10, committed.get(new TopicPartition(input, 0)).offset(), "offsets committed with the transaction");
    }

    @Test
    void shareConsumerInExplicitModeAcceptsReleasesAndRejects() throws Exception {
        String topic = TestTopics.unique("share");
        String group = TestTopics.unique("share-group");
        kafka.createTopic(topic, 1);
        kafka.admin().incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.GROUP, group),
                List.of(new AlterConfigOp(new ConfigEntry("share.auto.offset.reset", "earliest"), AlterConfigOp.OpType.SET))))
                .all().get();
        try (KafkaProducer<String, String> producer = producer(Map.of())) {
            for (int i = 0; i < 3; i++) {
                producer.send(new ProducerRecord<>(topic, "k", "v" + i));
            }
        }
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        props.put("share.acknowledgement.mode", "explicit");
        Map<String, Integer> deliveries = new HashMap<>();
        Set<String> accepted = new HashSet<>();
        Set<String> rejected = new HashSet<>();
        try (KafkaShareConsumer<String, String> consumer = new KafkaShareConsumer<>(props)) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (accepted.size() + rejected.size() < 3 && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                    deliveries.merge(r.value(), 1, Integer::sum);
                    AcknowledgeType type;
                    if (r.value().equals("v0")) {
                        type = AcknowledgeType.REJECT;
                        rejected.add(r.value());
                    } else if (r.value().equals("v1") && r.deliveryCount().orElse((short) 1) == 1) {
                        type = AcknowledgeType.RELEASE;
                    } else {
                        type = AcknowledgeType.ACCEPT;
                        accepted.add(r.value());
                        if (r.value().equals("v1")) {
                            assertEquals((short) 2, r.deliveryCount().orElseThrow(), "released record redelivered");
                        }
                    }
                    consumer.acknowledge(r, type);
                }
                consumer.commitSync();
            }
        }
        assertEquals(Set.of("v1", "v2"), accepted);
        assertEquals(Set.of("v0"), rejected);
        assertEquals(Map.of("v0", 1, "v1", 2, "v2", 1), deliveries, "only the released record came back");
    }

    @Test
    void addPartitionsGrowsTheTopic() {
        String topic = TestTopics.unique("grow");
        kafka.createTopic(topic, 2);
        kafka.addPartitions(topic, 4);
        assertEquals(4, kafka.partitionCount(topic));
        assertThrows(org.apache.kafka.common.KafkaException.class, () -> kafka.addPartitions(topic, 3),
                "shrinking is refused by Kafka");
    }

    @Test
    void startsAndStopsTwiceInOneJvmOnFreshPorts() {
        try (EmbeddedKafka one = EmbeddedKafka.builder().brokerProperty("auto.create.topics.enable", false).start()) {
            assertNotEquals(kafka.bootstrapServers(), one.bootstrapServers());
            one.createTopic("t", 1);
            assertEquals(1, one.partitionCount("t"));
        }
        try (EmbeddedKafka two = EmbeddedKafka.start()) {
            assertNotEquals(kafka.bootstrapServers(), two.bootstrapServers());
            two.createTopic("t", 2);
            assertEquals(2, two.partitionCount("t"));
        }
    }

    @Test
    void aFatalBrokerFaultThrowsInsteadOfHaltingTheJvm() {
        // The embedded cluster installs the guard; Exit.halt is what Kafka's fatal fault handler calls.
        assertThrows(EmbeddedKafkaFatalException.class, () -> Exit.halt(1, "simulated fatal fault"));
        assertThrows(EmbeddedKafkaFatalException.class, () -> Exit.exit(1, "simulated exit"));
    }

    private KafkaProducer<String, String> producer(Map<String, Object> extra) {
        Map<String, Object> props = new HashMap<>();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        props.putAll(extra);
        return new KafkaProducer<>(props);
    }

    private Properties consumerProps(String group, String protocol) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        props.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, protocol);
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        return props;
    }

    private static List<ConsumerRecord<String, String>> pollUntil(KafkaConsumer<String, String> consumer, int count) {
        List<ConsumerRecord<String, String>> out = new ArrayList<>();
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            consumer.poll(Duration.ofMillis(200)).forEach(out::add);
            return out.size() >= count;
        });
        return out;
    }
}
