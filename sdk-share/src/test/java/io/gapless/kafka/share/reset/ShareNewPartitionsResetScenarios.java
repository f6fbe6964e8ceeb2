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
package io.gapless.kafka.share.reset;

import io.gapless.kafka.share.GaplessShareConsumer;
import io.gapless.kafka.share.TestShareConsumers;
import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.TestClients;
import io.gapless.kafka.testkit.TestTopics;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The share-group new-partitions policy on a real broker, through the poll-path hooks that
 * GaplessShareConsumer uses. Run against Kafka 4.4 (which starts added partitions at 0) and
 * against a broker from before KAFKA-20742 (which applies the group's base policy to them).
 */
abstract class ShareNewPartitionsResetScenarios {
    private static final Duration WAIT = Duration.ofSeconds(45);

    private final EmbeddedKafka kafka;

    ShareNewPartitionsResetScenarios(EmbeddedKafka kafka) {
        this.kafka = kafka;
    }

    @AfterEach
    void closeExternalHandle() {
        if (kafka.isExternal()) {
            kafka.close(); // only its admin client: the cluster itself belongs to the extension
        }
    }

    /** A member of the share group: a GaplessShareConsumer, exactly as an application uses it. */
    private final class Member implements AutoCloseable {
        final GaplessShareConsumer<String, String> consumer;
        final List<String> seen = new ArrayList<>();

        Member(String group, String base, String newPolicy, String topic) {
            Map<String, Object> cfg = new HashMap<>();
            cfg.put("bootstrap.servers", kafka.bootstrapServers());
            cfg.put("group.id", group);
            cfg.put("share.acknowledgement.mode", "explicit");
            cfg.put("share.auto.offset.reset", base);
            cfg.put("share.auto.offset.reset.new.partitions", newPolicy);
            cfg.put("gapless.share.partition.check.interval.ms", 200L);
            consumer = new GaplessShareConsumer<>(cfg, new StringDeserializer(), new StringDeserializer());
            consumer.subscribe(List.of(topic));
        }

        void resubscribe(List<String> topics) {
            consumer.subscribe(topics);
        }

        void pollOnce() {
            for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(100))) {
                seen.add(r.value());
                consumer.acknowledge(r, AcknowledgeType.ACCEPT);
            }
            consumer.commitSync();
        }

        void pollUntil(Set<String> expected) {
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (!new HashSet<>(seen).containsAll(expected)) {
                if (System.nanoTime() > deadline) {
                    Set<String> missing = new HashSet<>(expected);
                    missing.removeAll(seen);
                    throw new AssertionError("missing " + missing.size() + " records, e.g. " + missing.stream().limit(5).toList());
                }
                pollOnce();
            }
        }

        void drain(Duration quiet) {
            long until = System.nanoTime() + quiet.toNanos();
            while (System.nanoTime() < until) {
                pollOnce();
            }
        }

        double metric(String name) {
            return consumer.metrics().entrySet().stream().filter(e -> e.getKey().name().equals(name))
                    .mapToDouble(e -> ((Number) e.getValue().metricValue()).doubleValue()).sum();
        }

        @Override
        public void close() {
            consumer.close();
        }
    }

    @Test
    void baseLatestNewEarliestLosesNothingOnAddedPartitionsAndReplaysNoHistory() {
        String topic = TestTopics.unique("share-expand");
        String group = TestTopics.unique("sg");
        kafka.createTopic(topic, 2);
        try (KafkaProducer<String, String> producer = TestClients.producer(kafka)) {
            Set<String> history = new HashSet<>(TestClients.produce(producer, topic, 0, "history0", 20));
            history.addAll(TestClients.produce(producer, topic, 1, "history1", 20));
            try (Member member = new Member(group, "latest", "earliest", topic)) {
                member.pollOnce();
                Set<String> live = new HashSet<>(TestClients.produce(producer, topic, 0, "live0", 10));
                member.pollUntil(live);
                kafka.addPartitions(topic, 4);
                Set<String> added = new HashSet<>(TestClients.produce(producer, topic, 2, "new2", 50));
                added.addAll(TestClients.produce(producer, topic, 3, "new3", 50));
                member.pollUntil(added);
                member.drain(Duration.ofMillis(500));
                Set<String> replayed = new HashSet<>(history);
                replayed.retainAll(member.seen);
                assertEquals(Set.of(), replayed, "no record older than the group");
                assertEquals(member.seen.size(), new HashSet<>(member.seen).size(), "none twice");
                assertEquals(110, member.seen.size());
            }
        }
    }

    @Test
    void baseEarliestNewLatestHidesWhatWasWrittenBeforeThePartitionWasFirstSeen() {
        String topic = TestTopics.unique("share-latest");
        String group = TestTopics.unique("sg");
        kafka.createTopic(topic, 2);
        try (KafkaProducer<String, String> producer = TestClients.producer(kafka)) {
            Set<String> history = new HashSet<>(TestClients.produce(producer, topic, 0, "history0", 10));
            try (Member member = new Member(group, "earliest", "latest", topic)) {
                member.pollUntil(history);
                double before = member.metric("start-offsets-recorded-total");
                kafka.addPartitions(topic, 3);
                List<String> early = TestClients.produce(producer, topic, 2, "early", 30);
                // The SDK notices the partition on its next check; from then on every record counts.
                await().atMost(WAIT).pollInSameThread().until(() -> {
                    member.pollOnce();
                    return member.metric("start-offsets-recorded-total") > before;
                });
                Set<String> after = new HashSet<>(TestClients.produce(producer, topic, 2, "after", 20));
                member.pollUntil(after);
                member.drain(Duration.ofMillis(500));
                assertTrue(member.seen.stream().noneMatch(early::contains),
                        "nothing written before the partition was first seen: " + member.seen.stream().filter(early::contains).count());
                assertEquals(30.0, member.metric("records-skipped-before-start-total"), "the broker delivered them from 0 (4.4 always, older brokers as steered); the SDK kept them back");
                assertEquals(member.seen.size(), new HashSet<>(member.seen).size());
            }
        }
    }

    @Test
    void partitionsAddedWhileTheGroupIsStoppedAreReadFromTheirStart() {
        String topic = TestTopics.unique("share-down");
        String group = TestTopics.unique("sg");
        kafka.createTopic(topic, 2);
        try (KafkaProducer<String, String> producer = TestClients.producer(kafka)) {
            TestClients.produce(producer, topic, 1, "history", 10);
            try (Member member = new Member(group, "latest", "earliest", topic)) {
                member.pollOnce();
                Set<String> live = new HashSet<>(TestClients.produce(producer, topic, 1, "live", 5));
                member.pollUntil(live);
            }
            kafka.addPartitions(topic, 3);
            Set<String> whileDown = new HashSet<>(TestClients.produce(producer, topic, 2, "while-down", 25));
            whileDown.addAll(TestClients.produce(producer, topic, 0, "old-while-down", 5));
            try (Member member = new Member(group, "latest", "earliest", topic)) {
                member.pollUntil(whileDown);
                member.drain(Duration.ofMillis(500));
                assertEquals(whileDown, new HashSet<>(member.seen), "added partition from its start, no history, nothing from before the stop");
            }
        }
    }

    @Test
    void topicsSubscribedLaterStartByTheirClassification() {
        String first = TestTopics.unique("share-first");
        String older = TestTopics.unique("share-older");
        String created = TestTopics.unique("share-created-later");
        String group = TestTopics.unique("sg");
        kafka.createTopic(first, 1);
        kafka.createTopic(older, 1);
        try (KafkaProducer<String, String> producer = TestClients.producer(kafka)) {
            Set<String> olderHistory = new HashSet<>(TestClients.produce(producer, older, 0, "older-history", 15));
            try (Member member = new Member(group, "latest", "earliest", first)) {
                member.pollOnce();
                Set<String> live = new HashSet<>(TestClients.produce(producer, first, 0, "first-live", 5));
                member.pollUntil(live);
                kafka.createTopic(created, 2);
                Set<String> expected = new HashSet<>(TestClients.produce(producer, created, 0, "created0", 20));
                expected.addAll(TestClients.produce(producer, created, 1, "created1", 20));
                member.resubscribe(List.of(first, older, created));
                member.pollUntil(expected);
                Set<String> olderLive = new HashSet<>(TestClients.produce(producer, older, 0, "older-live", 5));
                member.pollUntil(olderLive);
                member.drain(Duration.ofMillis(500));
                Set<String> replayed = new HashSet<>(olderHistory);
                replayed.retainAll(member.seen);
                assertEquals(Set.of(), replayed, "a topic older than the group, subscribed later, follows the base policy (latest)");
                assertEquals(member.seen.size(), new HashSet<>(member.seen).size(), "none twice");
            }
        }
    }

    @Test
    void badSettingsAreRejectedNamingKeyAndValue() {
        Map<String, Object> cfg = new HashMap<>();
        cfg.put("bootstrap.servers", kafka.bootstrapServers());
        cfg.put("group.id", TestTopics.unique("sg"));
        cfg.put("share.auto.offset.reset.new.partitions", "none");
        ConfigException e = assertThrows(ConfigException.class, () -> new GaplessShareConsumer<>(cfg, new StringDeserializer(), new StringDeserializer()));
        assertTrue(e.getMessage().contains("share.auto.offset.reset.new.partitions") && e.getMessage().contains("none"), e.getMessage());
        cfg.put("share.auto.offset.reset.new.partitions", "by_duration:PTxx");
        assertThrows(ConfigException.class, () -> new GaplessShareConsumer<>(cfg, new StringDeserializer(), new StringDeserializer()));
        cfg.put("share.auto.offset.reset.new.partitions", "earliest");
        cfg.put("gapless.new.partitions.mode", "native");
        ConfigException n = assertThrows(ConfigException.class, () -> new GaplessShareConsumer<>(cfg, new StringDeserializer(), new StringDeserializer()));
        assertTrue(n.getMessage().contains("does not know"), n.getMessage());
        cfg.remove("gapless.new.partitions.mode");
        assertTrue(TestShareConsumers.newPartitionsReset(Map.of("bootstrap.servers", kafka.bootstrapServers(), "group.id", "g"))
                .isEmpty(), "unset: nothing to do");
    }
}
