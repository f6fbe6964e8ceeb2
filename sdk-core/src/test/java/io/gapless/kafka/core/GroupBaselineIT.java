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

import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.EmbeddedKafkaTest;
import io.gapless.kafka.testkit.TestClients;
import io.gapless.kafka.testkit.TestTopics;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.SubscriptionPattern;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Pattern;

import static io.gapless.kafka.core.ConsumerITSupport.WAIT;
import static io.gapless.kafka.core.ConsumerITSupport.awaitPositioned;
import static io.gapless.kafka.core.ConsumerITSupport.props;
import static io.gapless.kafka.core.ConsumerITSupport.values;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The group baseline where real clusters leave the happy path (issue 10 points 4, 6 and 7): a
 * baseline that could not be written at first, topics first met later whatever their timestamps
 * or retention, and a group deleted and started again.
 */
@EmbeddedKafkaTest
class GroupBaselineIT {
    private final EmbeddedKafka kafka;

    GroupBaselineIT(EmbeddedKafka kafka) {
        this.kafka = kafka;
    }

    @ParameterizedTest(name = "group.protocol={0}, gapless.baseline.unavailable={1}")
    @CsvSource({"classic,fail", "consumer,fail", "consumer,base-policy"})
    void aFailedFirstRegistrationIsNotRecordedAsTheGroupsStartLater(String protocol, String unavailable) throws Exception {
        String topic = TestTopics.unique("reg-failed");
        String group = TestTopics.unique("g");
        String baseline = TestTopics.unique("__baseline-late");
        kafka.createTopic(topic, 2);
        ConsumerITSupport.createUnwritableBaselineTopic(kafka, baseline);
        Properties p = props(kafka, group, protocol, "latest", "earliest");
        p.put("gapless.baseline.topic", baseline);
        p.put("gapless.baseline.timeout.ms", "3000");
        p.put("gapless.baseline.unavailable", unavailable);
        List<RuntimeException> failures = new ArrayList<>();
        try (KafkaProducer<String, String> producer = TestClients.producer(kafka)) {
            TestClients.produce(producer, topic, 0, "history0", 10);
            TestClients.produce(producer, topic, 1, "history1", 10);
            // The group existed before it used the SDK: committed offsets at the end of both partitions.
            kafka.admin().alterConsumerGroupOffsets(group, Map.of(new TopicPartition(topic, 0), new OffsetAndMetadata(10),
                    new TopicPartition(topic, 1), new OffsetAndMetadata(10))).all().get();
            try (GaplessConsumer<String, String> consumer = new GaplessConsumer<>(p)) {
                consumer.subscribe(List.of(topic));
                List<String> first = TestClients.produce(producer, topic, 0, "first", 5);
                List<ConsumerRecord<String, String>> got = ConsumerITSupport.pollThroughFailures(consumer, WAIT, failures,
                        rs -> values(rs).containsAll(first));
                if (unavailable.equals("fail")) {
                    // Records of partitions with committed offsets may come before the registration gives up
                    // (gapless.baseline.timeout.ms): wait until the failure is reported, then heal the baseline.
                    got.addAll(ConsumerITSupport.pollThroughFailures(consumer, WAIT, failures,
                            rs -> failures.stream().anyMatch(BaselineUnavailableException.class::isInstance)));
                }
                consumer.commitSync();
                // The baseline is healthy again; only now does the topic grow.
                ConsumerITSupport.makeWritable(kafka, baseline);
                kafka.addPartitions(topic, 4);
                List<String> added = new ArrayList<>(TestClients.produce(producer, topic, 2, "added2", 20));
                added.addAll(TestClients.produce(producer, topic, 3, "added3", 20));
                got.addAll(ConsumerITSupport.pollThroughFailures(consumer, WAIT, failures, rs -> values(rs).containsAll(added)));
                got.addAll(TestClients.drain(consumer, Duration.ofMillis(500)));
                Set<String> expected = new HashSet<>(first);
                expected.addAll(added);
                assertEquals(expected, values(got), "partitions added after the group started are new, however late the baseline was written");
                assertEquals(expected.size(), got.size(), "none twice");
            }
        }
        if (unavailable.equals("fail")) {
            assertTrue(failures.stream().anyMatch(BaselineUnavailableException.class::isInstance),
                    "the unwritable baseline was reported: " + failures);
        }
    }

    @ParameterizedTest(name = "group.protocol={0}")
    @ValueSource(strings = {"classic", "consumer"})
    void aTopicCreatedAfterTheGroupIsNewWhateverItsRecordTimestamps(String protocol) {
        String prefix = TestTopics.unique("mm2");
        String old = prefix + "-old";
        String mirrored = prefix + "-mirrored";
        kafka.createTopic(old, 1);
        try (KafkaProducer<String, String> producer = TestClients.producer(kafka);
             GaplessConsumer<String, String> consumer = new GaplessConsumer<>(props(kafka, TestTopics.unique("g"), protocol, "latest", "earliest"))) {
            TestClients.produce(producer, old, 0, "history", 10);
            if (protocol.equals("consumer")) {
                consumer.subscribe(new SubscriptionPattern(Pattern.quote(prefix) + "-.*"));
            } else {
                consumer.subscribe(Pattern.compile(Pattern.quote(prefix) + "-.*"));
            }
            List<ConsumerRecord<String, String>> got = new ArrayList<>();
            awaitPositioned(consumer, 1, got);
            // MirrorMaker 2 creates the topic now and keeps the source records' timestamps: a day old.
            kafka.createTopic(mirrored, 2);
            long dayAgo = System.currentTimeMillis() - Duration.ofDays(1).toMillis();
            List<String> backlog = new ArrayList<>(ConsumerITSupport.produceAt(producer, mirrored, 0, dayAgo, "m0", 15));
            backlog.addAll(ConsumerITSupport.produceAt(producer, mirrored, 1, dayAgo, "m1", 15));
            got.addAll(TestClients.pollUntil(consumer, WAIT, rs -> values(rs).containsAll(backlog)));
            got.addAll(TestClients.drain(consumer, Duration.ofMillis(500)));
            assertEquals(new HashSet<>(backlog), values(got), "the whole backlog of a topic created after the group, nothing of the old one");
            assertEquals(backlog.size(), got.size(), "none twice");
        }
    }

    @ParameterizedTest(name = "group.protocol={0}")
    @ValueSource(strings = {"classic", "consumer"})
    void aTopicThatExistedBeforeTheGroupStaysPreExistingAfterRetentionMovedItsStart(String protocol) throws Exception {
        String first = TestTopics.unique("first");
        String older = TestTopics.unique("older");
        kafka.createTopic(first, 1);
        kafka.createTopic(older, 1);
        try (KafkaProducer<String, String> producer = TestClients.producer(kafka);
             GaplessConsumer<String, String> consumer = new GaplessConsumer<>(props(kafka, TestTopics.unique("g"), protocol, "latest", "earliest"))) {
            TestClients.produce(producer, older, 0, "before-group", 10);
            consumer.subscribe(List.of(first));
            List<ConsumerRecord<String, String>> got = new ArrayList<>();
            awaitPositioned(consumer, 1, got);
            List<String> afterStart = TestClients.produce(producer, older, 0, "after-group-start", 10);
            // Retention (here deleteRecords) moves the log start of the older topic past the group's creation.
            kafka.admin().deleteRecords(Map.of(new TopicPartition(older, 0), RecordsToDelete.beforeOffset(10))).all().get();
            consumer.subscribe(List.of(first, older));
            awaitPositioned(consumer, 2, got);
            List<String> live = TestClients.produce(producer, older, 0, "live", 5);
            got.addAll(TestClients.pollUntil(consumer, WAIT, rs -> values(rs).containsAll(live)));
            got.addAll(TestClients.drain(consumer, Duration.ofMillis(500)));
            Set<String> replayed = values(got);
            replayed.retainAll(afterStart);
            assertEquals(Set.of(), replayed, "a topic that existed before the group follows the base policy (latest)");
            assertEquals(new HashSet<>(live), values(got));
        }
    }

    @ParameterizedTest(name = "group.protocol={0}")
    @ValueSource(strings = {"classic", "consumer"})
    void aDeletedGroupStartedAgainIsANewGroup(String protocol) throws Exception {
        String topic = TestTopics.unique("deleted");
        String group = TestTopics.unique("g");
        kafka.createTopic(topic, 2);
        try (KafkaProducer<String, String> producer = TestClients.producer(kafka)) {
            TestClients.produce(producer, topic, 0, "history", 10);
            List<String> processed = new ArrayList<>();
            try (GaplessConsumer<String, String> consumer = new GaplessConsumer<>(props(kafka, group, protocol, "latest", "earliest"))) {
                consumer.subscribe(List.of(topic));
                List<ConsumerRecord<String, String>> got = new ArrayList<>();
                awaitPositioned(consumer, 2, got);
                consumer.commitSync();
                kafka.addPartitions(topic, 4);
                processed.addAll(TestClients.produce(producer, topic, 2, "added2", 10));
                processed.addAll(TestClients.produce(producer, topic, 3, "added3", 10));
                got.addAll(TestClients.pollUntil(consumer, WAIT, rs -> values(rs).containsAll(processed)));
                consumer.commitSync();
                assertEquals(new HashSet<>(processed), values(got), "the added partitions read from their start");
            }
            // kafka-consumer-groups --delete (or the offsets expire on the idle group): by KIP-1327 a new group.
            kafka.admin().deleteConsumerGroups(List.of(group)).all().get();
            try (GaplessConsumer<String, String> consumer = new GaplessConsumer<>(props(kafka, group, protocol, "latest", "earliest"))) {
                consumer.subscribe(List.of(topic));
                List<ConsumerRecord<String, String>> got = new ArrayList<>();
                awaitPositioned(consumer, 4, got);
                List<String> live = new ArrayList<>();
                for (int p = 0; p < 4; p++) {
                    live.addAll(TestClients.produce(producer, topic, p, "live" + p, 5));
                }
                got.addAll(TestClients.pollUntil(consumer, WAIT, rs -> values(rs).containsAll(live)));
                got.addAll(TestClients.drain(consumer, Duration.ofMillis(500)));
                Set<String> replayed = values(got);
                replayed.retainAll(processed);
                assertEquals(Set.of(), replayed, "the new group replays nothing the deleted one processed");
                assertEquals(new HashSet<>(live), values(got));
                assertEquals(live.size(), got.size());
            }
        }
    }
}
