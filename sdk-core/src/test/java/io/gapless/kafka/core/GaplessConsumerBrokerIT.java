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
package io.gapless.kafka.core;

import io.gapless.kafka.core.internal.baseline.BaselineStore;
import io.gapless.kafka.core.internal.baseline.GroupBaseline;
import io.gapless.kafka.core.spi.BaselineTopic;
import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.EmbeddedKafkaTest;
import io.gapless.kafka.testkit.TestClients;
import io.gapless.kafka.testkit.TestTopics;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.NoOffsetForPartitionException;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.SubscriptionPattern;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** GaplessConsumer against a real broker, on both group protocols where they differ. */
@EmbeddedKafkaTest
class GaplessConsumerBrokerIT {
    private static final Duration WAIT = Duration.ofSeconds(45);

    private final EmbeddedKafka kafka;

    GaplessConsumerBrokerIT(EmbeddedKafka kafka) {
        this.kafka = kafka;
    }

    private Properties props(String group, String protocol, String base, String newPolicy) {
        Properties p = TestClients.consumerProps(kafka, group, protocol);
        p.put("auto.offset.reset", base);
        if (newPolicy != null) {
            p.put("auto.offset.reset.new.partitions", newPolicy);
        }
        return p;
    }

    /** Polls until the consumer holds {@code partitions} partitions, all positioned. */
    private static void awaitPositioned(GaplessConsumer<String, String> consumer, int partitions, List<ConsumerRecord<String, String>> sink) {
        sink.addAll(TestClients.pollUntil(consumer, WAIT, r -> {
            if (consumer.assignment().size() != partitions) {
                return false;
            }
            consumer.assignment().forEach(tp -> consumer.position(tp, WAIT));
            return true;
        }));
    }

    private static Set<String> values(Collection<ConsumerRecord<String, String>> records) {
        return records.stream().map(ConsumerRecord::value).collect(Collectors.toSet());
    }

    @ParameterizedTest(name = "group.protocol={0}")
    @ValueSource(strings = {"classic", "consumer"})
    void recordsOnPartitionsAddedWhileRunningAreNotLost(String protocol) {
        String topic = TestTopics.unique("expand");
        kafka.createTopic(topic, 2);
        try (KafkaProducer<String, String> producer = TestClients.producer(kafka)) {
            TestClients.produce(producer, topic, 0, "history0", 20);
            TestClients.produce(producer, topic, 1, "history1", 20);
            Properties props = props(TestTopics.unique("g"), protocol, "latest", "earliest");
            if (protocol.equals("classic")) {
                // Nothing is committed here: an eager rebalance after the expansion would drop the positions of partitions
                // 0 and 1 and reset them to latest, skipping live records not yet fetched (seen on a loaded machine).
                // Cooperative rebalancing keeps them, as the consumer protocol does.
                props.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, CooperativeStickyAssignor.class.getName());
            }
            try (GaplessConsumer<String, String> consumer = new GaplessConsumer<>(props)) {
                consumer.subscribe(List.of(topic));
                List<ConsumerRecord<String, String>> received = new ArrayList<>();
                awaitPositioned(consumer, 2, received);
                kafka.addPartitions(topic, 4);
                Set<String> expected = new HashSet<>();
                for (int p = 0; p < 4; p++) {
                    expected.addAll(TestClients.produce(producer, topic, p, "live" + p, 125));
                }
                received.addAll(TestClients.pollUntil(consumer, WAIT, r -> values(r).containsAll(expected)));
                received.addAll(TestClients.drain(consumer, Duration.ofMillis(500)));
                assertEquals(500, received.size(), "every live record exactly once, no history: " + received.size());
                assertEquals(expected, values(received));
                double resets = consumer.metrics().entrySet().stream()
                        .filter(e -> e.getKey().name().equals("resets-total") && "new".equals(e.getKey().tags().get("classification")))
                        .mapToDouble(e -> (Double) e.getValue().metricValue()).sum();
                assertEquals(2.0, resets, "the two added partitions were reset as new");
            }
        }
    }

    @ParameterizedTest(name = "group.protocol={0}")
    @ValueSource(strings = {"classic", "consumer"})
    void partitionsAddedWhileTheGroupIsDownAreReadFromTheStart(String protocol) {
        String topic = TestTopics.unique("down");
        String group = TestTopics.unique("g");
        kafka.createTopic(topic, 2);
        try (KafkaProducer<String, String> producer = TestClients.producer(kafka)) {
            TestClients.produce(producer, topic, 0, "history", 10);
            try (GaplessConsumer<String, String> consumer = new GaplessConsumer<>(props(group, protocol, "latest", "earliest"))) {
                consumer.subscribe(List.of(topic));
                List<ConsumerRecord<String, String>> sink = new ArrayList<>();
                awaitPositioned(consumer, 2, sink);
                List<String> first = TestClients.produce(producer, topic, 1, "before-stop", 10);
                sink.addAll(TestClients.pollUntil(consumer, WAIT, r -> values(r).containsAll(first)));
                consumer.commitSync();
                assertEquals(new HashSet<>(first), values(sink), "no history replayed");
            }
            kafka.addPartitions(topic, 3);
            List<String> whileDown = new ArrayList<>(TestClients.produce(producer, topic, 2, "while-down", 30));
            whileDown.addAll(TestClients.produce(producer, topic, 0, "old-while-down", 5));
            try (GaplessConsumer<String, String> consumer = new GaplessConsumer<>(props(group, protocol, "latest", "earliest"))) {
                consumer.subscribe(List.of(topic));
                List<ConsumerRecord<String, String>> got = TestClients.pollUntil(consumer, WAIT, r -> values(r).containsAll(whileDown));
                got.addAll(TestClients.drain(consumer, Duration.ofMillis(500)));
                assertEquals(new HashSet<>(whileDown), values(got), "new partition from its start, old ones from their commits");
                assertEquals(whileDown.size(), got.size(), "nothing twice");
            }
        }
    }

    @ParameterizedTest(name = "group.protocol={0}")
    @ValueSource(strings = {"classic", "consumer"})
    void aTopicMatchedByPatternAfterTheGroupStartedIsReadFromItsStart(String protocol) {
        String prefix = TestTopics.unique("pat");
        String oldTopic = prefix + "-old";
        String newTopic = prefix + "-new";
        kafka.createTopic(oldTopic, 1);
        try (KafkaProducer<String, String> producer = TestClients.producer(kafka)) {
            TestClients.produce(producer, oldTopic, 0, "history", 10);
            Properties p = props(TestTopics.unique("g"), protocol, "latest", "earliest");
            try (GaplessConsumer<String, String> consumer = new GaplessConsumer<>(p)) {
                if (protocol.equals("consumer")) {
                    consumer.subscribe(new SubscriptionPattern(Pattern.quote(prefix) + "-.*"));
                } else {
                    consumer.subscribe(Pattern.compile(Pattern.quote(prefix) + "-.*"));
                }
                List<ConsumerRecord<String, String>> got = new ArrayList<>();
                awaitPositioned(consumer, 1, got);
                kafka.createTopic(newTopic, 2);
                List<String> expected = new ArrayList<>(TestClients.produce(producer, newTopic, 0, "n0", 15));
                expected.addAll(TestClients.produce(producer, newTopic, 1, "n1", 15));
                expected.addAll(TestClients.produce(producer, oldTopic, 0, "live", 5));
                got.addAll(TestClients.pollUntil(consumer, WAIT, r -> values(r).containsAll(expected)));
                got.addAll(TestClients.drain(consumer, Duration.ofMillis(500)));
                assertEquals(new HashSet<>(expected), values(got), "the new topic from its start, no history of the old one");
                assertEquals(expected.size(), got.size());
            }
        }
    }

    @Test
    void twoMembersStartingTogetherAgreeOnOneBaseline() throws Exception {
        String topic = TestTopics.unique("together");
        String group = TestTopics.unique("g");
        kafka.createTopic(topic, 2);
        List<GaplessConsumer<String, String>> members = new ArrayList<>();
        try (KafkaProducer<String, String> producer = TestClients.producer(kafka)) {
            TestClients.produce(producer, topic, 0, "history", 10);
            for (int i = 0; i < 2; i++) {
                members.add(new GaplessConsumer<>(props(group, "consumer", "latest", "earliest")));
            }
            members.forEach(m -> m.subscribe(List.of(topic)));
            List<ConsumerRecord<String, String>> got = new CopyOnWriteArrayList<>();
            // Both members poll from the same instant, each in its own thread, so both may write a baseline.
            List<Thread> threads = members.stream().map(m -> new Thread(() -> {
                long deadline = System.nanoTime() + Duration.ofSeconds(8).toNanos();
                while (System.nanoTime() < deadline) {
                    m.poll(Duration.ofMillis(100)).forEach(got::add);
                }
            })).toList();
            threads.forEach(Thread::start);
            for (Thread t : threads) {
                t.join();
            }
            BaselineStore store = new BaselineStore(BaselineTopic.of(null, GaplessConsumerConfig.BASELINE_TOPIC_PREFIX_DEFAULT, group), group,
                    Map.of("bootstrap.servers", kafka.bootstrapServers()), Duration.ofSeconds(10), () -> { }, () -> { });
            try (store) {
                GroupBaseline baseline = store.read();
                assertTrue(baseline.started());
                // The recorded partition count, now from the topic snapshot of the group's start (format 2).
                assertEquals(2, baseline.partitionsAtStart(kafka.topicId(topic)).orElseThrow());
            }
            assertEquals(0, got.size(), "no history replayed by either member");
            kafka.addPartitions(topic, 4);
            List<String> expected = new ArrayList<>();
            for (int p = 0; p < 4; p++) {
                expected.addAll(TestClients.produce(producer, topic, p, "live" + p, 20));
            }
            threads = members.stream().map(m -> new Thread(() -> {
                long deadline = System.nanoTime() + WAIT.toNanos();
                while (System.nanoTime() < deadline && !values(got).containsAll(expected)) {
                    m.poll(Duration.ofMillis(100)).forEach(got::add);
                }
            })).toList();
            threads.forEach(Thread::start);
            for (Thread t : threads) {
                t.join();
            }
            assertEquals(new HashSet<>(expected), values(got), "every record of the added partitions consumed by the group");
            assertEquals(expected.size(), got.size(), "none twice");
        } finally {
            members.forEach(GaplessConsumer::close);
        }
    }

    @Test
    void byDurationOnNewPartitionsSeeksByTime() {
        String topic = TestTopics.unique("duration");
        kafka.createTopic(topic, 1);
        try (KafkaProducer<String, String> producer = TestClients.producer(kafka);
             GaplessConsumer<String, String> consumer = new GaplessConsumer<>(props(TestTopics.unique("g"), "classic", "latest", "by_duration:PT1H"))) {
            consumer.subscribe(List.of(topic));
            List<ConsumerRecord<String, String>> got = new ArrayList<>();
            awaitPositioned(consumer, 1, got);
            kafka.addPartitions(topic, 2);
            long now = System.currentTimeMillis();
            for (int i = 0; i < 5; i++) {
                producer.send(new ProducerRecord<>(topic, 1, now - Duration.ofHours(2).toMillis(), "k", "too-old-" + i));
            }
            List<String> recent = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                producer.send(new ProducerRecord<>(topic, 1, now, "k", "recent-" + i));
                recent.add("recent-" + i);
            }
            producer.flush();
            got.addAll(TestClients.pollUntil(consumer, WAIT, r -> values(r).containsAll(recent)));
            got.addAll(TestClients.drain(consumer, Duration.ofMillis(300)));
            assertEquals(new HashSet<>(recent), values(got), "records older than the hour skipped, the rest read");
        }
    }

    @Test
    void baseNoneRethrowsForPreExistingPartitionsOnly() {
        String topic = TestTopics.unique("none");
        kafka.createTopic(topic, 2);
        TopicPartition p0 = new TopicPartition(topic, 0);
        TopicPartition p1 = new TopicPartition(topic, 1);
        TopicPartition p2 = new TopicPartition(topic, 2);
        try (KafkaProducer<String, String> producer = TestClients.producer(kafka);
             GaplessConsumer<String, String> consumer = new GaplessConsumer<>(props(TestTopics.unique("g"), "classic", "none", "earliest"))) {
            consumer.assign(List.of(p0, p1));
            NoOffsetForPartitionException e = assertThrows(NoOffsetForPartitionException.class, () -> consumer.poll(Duration.ofSeconds(5)));
            assertEquals(Set.of(p0, p1), e.partitions());
            consumer.seekToEnd(List.of(p0, p1));
            kafka.addPartitions(topic, 3);
            List<String> expected = TestClients.produce(producer, topic, 2, "new", 10);
            consumer.assign(List.of(p0, p1, p2));
            consumer.seekToEnd(List.of(p0, p1));
            List<ConsumerRecord<String, String>> got = TestClients.pollUntil(consumer, WAIT, r -> values(r).containsAll(expected));
            assertEquals(new HashSet<>(expected), values(got));
            assertEquals(10L, consumer.position(p2));
        }
    }

    @Test
    void anOutOfRangeCommittedOffsetTakesTheBasePolicyEvenOnANewPartition() throws Exception {
        String topic = TestTopics.unique("range");
        String group = TestTopics.unique("g");
        kafka.createTopic(topic, 1);
        TopicPartition p0 = new TopicPartition(topic, 0);
        TopicPartition p1 = new TopicPartition(topic, 1);
        try (KafkaProducer<String, String> producer = TestClients.producer(kafka)) {
            try (GaplessConsumer<String, String> consumer = new GaplessConsumer<>(props(group, "classic", "latest", "earliest"))) {
                consumer.subscribe(List.of(topic));
                awaitPositioned(consumer, 1, new ArrayList<>());
                kafka.addPartitions(topic, 2);
                TestClients.produce(producer, topic, 1, "first", 5);
                TestClients.pollUntil(consumer, WAIT, r -> r.size() >= 5);
                consumer.commitSync(Map.of(p1, new OffsetAndMetadata(2), p0, new OffsetAndMetadata(0)));
            }
            TestClients.produce(producer, topic, 1, "more", 15);
            kafka.admin().deleteRecords(Map.of(p1, RecordsToDelete.beforeOffset(10))).all().get();
            List<String> after = TestClients.produce(producer, topic, 1, "after", 3);
            try (GaplessConsumer<String, String> consumer = new GaplessConsumer<>(props(group, "classic", "latest", "earliest"))) {
                consumer.subscribe(List.of(topic));
                awaitPositioned(consumer, 2, new ArrayList<>());
                // The broker reports the committed offset out of range on the first fetch from it.
                TestClients.pollUntil(consumer, WAIT, r -> consumer.position(p1) != 2L);
                assertEquals(23L, consumer.position(p1), "committed offset 2 < log start 10: base latest, not earliest");
                List<String> later = TestClients.produce(producer, topic, 1, "later", 3);
                List<ConsumerRecord<String, String>> got = TestClients.pollUntil(consumer, WAIT, r -> values(r).containsAll(later));
                assertTrue(values(got).stream().noneMatch(after::contains), "nothing before the reset point");
            }
        }
    }

    @Test
    void aGroupAdoptingTheSdkKeepsTodaysPartitionsAsPreExisting() {
        String topic = TestTopics.unique("adopt");
        String group = TestTopics.unique("g");
        kafka.createTopic(topic, 2);
        try (KafkaProducer<String, String> producer = TestClients.producer(kafka)) {
            Properties plain = TestClients.consumerProps(kafka, group, "classic");
            plain.put("auto.offset.reset", "earliest");
            TestClients.produce(producer, topic, 0, "old", 5);
            try (KafkaConsumer<String, String> before = new KafkaConsumer<>(plain)) {
                before.subscribe(List.of(topic));
                TestClients.pollUntil(before, WAIT, r -> r.size() >= 5);
                before.commitSync();
            }
            // Grown before the group adopts the SDK: partition 2 exists "now", so it is pre-existing.
            kafka.addPartitions(topic, 3);
            List<String> beforeAdoption = TestClients.produce(producer, topic, 2, "before-adoption", 5);
            try (GaplessConsumer<String, String> consumer = new GaplessConsumer<>(props(group, "classic", "latest", "earliest"))) {
                consumer.subscribe(List.of(topic));
                List<ConsumerRecord<String, String>> got = new ArrayList<>();
                awaitPositioned(consumer, 3, got);
                kafka.addPartitions(topic, 4);
                List<String> expected = TestClients.produce(producer, topic, 3, "after-adoption", 10);
                got.addAll(TestClients.pollUntil(consumer, WAIT, r -> values(r).containsAll(expected)));
                got.addAll(TestClients.drain(consumer, Duration.ofMillis(300)));
                assertEquals(new HashSet<>(expected), values(got), "partition 3 new; partition 2 pre-existing (latest): " + beforeAdoption.size() + " skipped");
            }
        }
    }

    @Test
    void aTopicDeletedAndRecreatedCountsAsNew() {
        String topic = TestTopics.unique("recreate");
        String group = TestTopics.unique("g");
        kafka.createTopic(topic, 2);
        try (KafkaProducer<String, String> producer = TestClients.producer(kafka)) {
            try (GaplessConsumer<String, String> consumer = new GaplessConsumer<>(props(group, "classic", "latest", "earliest"))) {
                consumer.subscribe(List.of(topic));
                awaitPositioned(consumer, 2, new ArrayList<>());
                consumer.commitSync();
            }
            kafka.deleteTopics(topic);
            org.awaitility.Awaitility.await().atMost(WAIT).ignoreExceptions().until(() -> {
                kafka.createTopic(topic, 2);
                return true;
            });
            List<String> expected = new ArrayList<>(TestClients.produce(producer, topic, 0, "r0", 5));
            expected.addAll(TestClients.produce(producer, topic, 1, "r1", 5));
            try (GaplessConsumer<String, String> consumer = new GaplessConsumer<>(props(group, "classic", "latest", "earliest"))) {
                consumer.subscribe(List.of(topic));
                List<ConsumerRecord<String, String>> got = TestClients.pollUntil(consumer, WAIT, r -> values(r).containsAll(expected));
                assertEquals(new HashSet<>(expected), values(got));
            }
        }
    }

    @ParameterizedTest(name = "group.protocol={0}")
    @ValueSource(strings = {"classic", "consumer"})
    void aBaselineTopicWithTheWrongCleanupPolicyFailsClearlyAndPositionsNothing(String protocol) throws Exception {
        String topic = TestTopics.unique("badbase");
        String baselines = TestTopics.unique("baselines-delete");
        String group = TestTopics.unique("g");
        kafka.createTopic(topic, 1);
        kafka.createTopic(baselines, 1, Map.of("cleanup.policy", "delete"));
        Properties p = props(group, protocol, "latest", "earliest");
        p.put("gapless.baseline.topic", baselines);
        try (GaplessConsumer<String, String> consumer = new GaplessConsumer<>(p)) {
            consumer.subscribe(List.of(topic));
            BaselineUnavailableException e = assertInstanceOf(BaselineUnavailableException.class,
                    PollFailures.firstFailure(consumer, Duration.ofSeconds(30)));
            assertTrue(e.getMessage().contains(baselines) && e.getMessage().contains("cleanup.policy"), e.getMessage());
        }
        assertTrue(kafka.admin().listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get().isEmpty(),
                "no offsets committed on the way");

        p.put("gapless.baseline.unavailable", "base-policy");
        try (KafkaProducer<String, String> producer = TestClients.producer(kafka);
             GaplessConsumer<String, String> consumer = new GaplessConsumer<>(p)) {
            consumer.subscribe(List.of(topic));
            awaitPositioned(consumer, 1, new ArrayList<>());
            List<String> live = TestClients.produce(producer, topic, 0, "live", 3);
            assertEquals(new HashSet<>(live), values(TestClients.pollUntil(consumer, WAIT, r -> values(r).containsAll(live))));
        }
    }

    @Test
    void theUsersRebalanceListenerSeesEveryCallback() {
        String topic = TestTopics.unique("listener");
        kafka.createTopic(topic, 3);
        List<TopicPartition> assigned = new CopyOnWriteArrayList<>();
        List<TopicPartition> revoked = new CopyOnWriteArrayList<>();
        try (GaplessConsumer<String, String> consumer = new GaplessConsumer<>(props(TestTopics.unique("g"), "classic", "latest", "earliest"))) {
            consumer.subscribe(List.of(topic), new ConsumerRebalanceListener() {
                @Override
                public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                    revoked.addAll(partitions);
                }

                @Override
                public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                    assigned.addAll(partitions);
                }
            });
            awaitPositioned(consumer, 3, new ArrayList<>());
            consumer.unsubscribe();
        }
        assertEquals(IntStream.range(0, 3).mapToObj(i -> new TopicPartition(topic, i)).collect(Collectors.toSet()), new HashSet<>(assigned));
        assertEquals(new HashSet<>(assigned), new HashSet<>(revoked));
    }

    @Test
    void badSettingsFailAtConstruction() {
        Properties p = props("g", "classic", "latest", "none");
        ConfigException e = assertThrows(ConfigException.class, () -> new GaplessConsumer<>(p));
        assertTrue(e.getMessage().contains("auto.offset.reset.new.partitions"), e.getMessage());
        Properties q = props("g", "classic", "latest", "by_duration:-PT1H");
        assertThrows(ConfigException.class, () -> new GaplessConsumer<>(q));
        Map<String, Object> m = new HashMap<>();
        q.forEach((k, v) -> m.put(k.toString(), v));
        m.put("auto.offset.reset.new.partitions", "earliest");
        m.put("gapless.new.partitions.mode", "native");
        ConfigException n = assertThrows(ConfigException.class, () -> new GaplessConsumer<>(m));
        assertTrue(n.getMessage().contains("native"), n.getMessage());
    }
}
