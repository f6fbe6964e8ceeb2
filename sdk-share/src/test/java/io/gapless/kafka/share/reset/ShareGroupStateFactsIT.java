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

import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.EmbeddedKafkaTest;
import io.gapless.kafka.testkit.TestClients;
import io.gapless.kafka.testkit.TestTopics;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec;
import org.apache.kafka.clients.admin.SharePartitionOffsetInfo;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What Kafka 4.4 reports about a share group's partition state after the operations the SDK's
 * share start offsets must survive (sdk-share/RATIONALE.md, "Share start offsets: when the SDK
 * acknowledges unseen"): an operator's reset, deleted offsets, a re-created topic, a deleted and
 * re-created group, and what an implicit-mode poll does to the batch it follows.
 */
@EmbeddedKafkaTest
class ShareGroupStateFactsIT {
    private static final Duration WAIT = Duration.ofSeconds(45);
    private final EmbeddedKafka kafka;

    ShareGroupStateFactsIT(EmbeddedKafka kafka) {
        this.kafka = kafka;
    }

    @Test
    void anOperatorsResetBackwardsIsReportedAsTheStartAndReplaysAcceptedRecords() throws Exception {
        String topic = TestTopics.unique("facts-reset");
        String group = groupWithReset("earliest");
        TopicPartition tp = new TopicPartition(topic, 0);
        kafka.createTopic(topic, 1);
        produce(topic, "a", 10);
        assertEquals(10, consumeAll(group, topic).size());
        kafka.admin().alterShareGroupOffsets(group, Map.of(tp, 3L)).all().get(30, TimeUnit.SECONDS);
        assertEquals(3L, startOffset(group, tp).orElseThrow(), "the operator's offset is the reported start");
        assertEquals(List.of("a-3", "a-4", "a-5", "a-6", "a-7", "a-8", "a-9"), consumeAll(group, topic),
                "accepted records are delivered again from the operator's offset");
    }

    /**
     * A group at {@code latest} starts its share-partition at the log end when its first member
     * fetches: the records before are never delivered; an operator's reset to 0 moves the start back
     * and delivers them, each at delivery 1.
     */
    @Test
    void aGroupStartedAtLatestSkipsTheBacklogAndAResetBackwardsDeliversItAtDeliveryOne() throws Exception {
        String topic = TestTopics.unique("facts-latest");
        String group = groupWithReset("latest");
        TopicPartition tp = new TopicPartition(topic, 0);
        kafka.createTopic(topic, 1);
        produce(topic, "backlog", 3);
        List<ConsumerRecord<String, String>> firstSeen = new ArrayList<>();
        try (KafkaShareConsumer<String, String> c = consumer(group, "explicit")) {
            c.subscribe(List.of(topic));
            int[] probe = {0};
            // Probes until one arrives: the share-partition is then initialized at the log end it saw.
            await().pollInSameThread().atMost(WAIT).until(() -> {
                produce(topic, "probe" + probe[0]++, 1);
                for (int i = 0; i < 3 && firstSeen.isEmpty(); i++) {
                    for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(300))) {
                        firstSeen.add(r);
                        c.acknowledge(r);
                    }
                }
                c.commitSync();
                return !firstSeen.isEmpty();
            });
        }
        assertTrue(firstSeen.stream().noneMatch(r -> r.value().startsWith("backlog")), "latest: the backlog is not delivered " + firstSeen);
        assertTrue(startOffset(group, tp).orElseThrow() > 3, "the start lies above the backlog");
        await().atMost(WAIT).ignoreExceptions().until(() -> {
            kafka.admin().alterShareGroupOffsets(group, Map.of(tp, 0L)).all().get(10, TimeUnit.SECONDS);
            return true;
        });
        assertEquals(0L, startOffset(group, tp).orElseThrow(), "the reset moved the start back to 0");
        List<ConsumerRecord<String, String>> replay = new ArrayList<>();
        try (KafkaShareConsumer<String, String> c = consumer(group, "explicit")) {
            c.subscribe(List.of(topic));
            await().pollInSameThread().atMost(WAIT).until(() -> {
                for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(200))) {
                    replay.add(r);
                    c.acknowledge(r);
                }
                c.commitSync();
                return replay.stream().filter(r -> r.value().startsWith("backlog")).count() == 3;
            });
        }
        List<ConsumerRecord<String, String>> backlog = replay.stream().filter(r -> r.value().startsWith("backlog")).toList();
        assertEquals(List.of("backlog-0", "backlog-1", "backlog-2"), backlog.stream().map(ConsumerRecord::value).toList());
        assertTrue(backlog.stream().allMatch(r -> r.deliveryCount().orElseThrow() == 1), "the backlog at delivery 1: " + backlog);
    }

    @Test
    void deletedOffsetsAreReportedUninitializedAndRestartByTheGroupsPolicy() throws Exception {
        String topic = TestTopics.unique("facts-delete-offsets");
        String group = groupWithReset("earliest");
        TopicPartition tp = new TopicPartition(topic, 0);
        kafka.createTopic(topic, 1);
        produce(topic, "a", 5);
        assertEquals(5, consumeAll(group, topic).size());
        kafka.admin().deleteShareGroupOffsets(group, Set.of(topic)).all().get(30, TimeUnit.SECONDS);
        assertEquals(Optional.empty(), startOffset(group, tp), "no start after delete-offsets");
        assertEquals(5, consumeAll(group, topic).size(), "earliest: everything again");
    }

    @Test
    void aReCreatedTopicIsReportedUninitializedAndStartsByTheGroupsPolicy() throws Exception {
        String topic = TestTopics.unique("facts-recreate");
        String group = groupWithReset("earliest");
        TopicPartition tp = new TopicPartition(topic, 0);
        kafka.createTopic(topic, 1);
        produce(topic, "old", 10);
        assertEquals(10, consumeAll(group, topic).size());
        var oldId = kafka.topicId(topic);
        kafka.deleteTopics(topic);
        await().atMost(WAIT).until(() -> !kafka.admin().listTopics().names().get().contains(topic));
        assertEquals(Optional.empty(), startOffset(group, tp), "the deleted topic's state is gone");
        kafka.createTopic(topic, 1);
        await().atMost(WAIT).ignoreExceptions().until(() -> !kafka.topicId(topic).equals(oldId));
        assertEquals(Optional.empty(), startOffset(group, tp), "the new topic is uninitialized");
        produce(topic, "new", 4);
        assertEquals(List.of("new-0", "new-1", "new-2", "new-3"), consumeAll(group, topic), "from offset 0 of the new topic");
    }

    @Test
    void aDeletedGroupIsNotFoundKeepsItsGroupConfigAndStartsAnew() throws Exception {
        String topic = TestTopics.unique("facts-group");
        String group = groupWithReset("earliest");
        TopicPartition tp = new TopicPartition(topic, 0);
        kafka.createTopic(topic, 1);
        produce(topic, "a", 6);
        assertEquals(6, consumeAll(group, topic).size());
        kafka.admin().deleteShareGroups(List.of(group)).all().get(30, TimeUnit.SECONDS);
        ExecutionException e = assertThrows(ExecutionException.class, () -> kafka.admin().describeShareGroups(List.of(group))
                .describedGroups().get(group).get(30, TimeUnit.SECONDS));
        assertInstanceOf(GroupIdNotFoundException.class, e.getCause());
        assertEquals(Optional.empty(), startOffset(group, tp));
        String value = kafka.admin().describeConfigs(List.of(new ConfigResource(ConfigResource.Type.GROUP, group)))
                .all().get(30, TimeUnit.SECONDS).values().iterator().next().get("share.auto.offset.reset").value();
        assertEquals("earliest", value, "the group config outlives the group: a steered earliest stays behind");
        assertEquals(6, consumeAll(group, topic).size(), "the group started again delivers everything (earliest)");
    }

    @Test
    void anImplicitModePollAcceptsTheBatchBeforeIt() throws Exception {
        String topic = TestTopics.unique("facts-implicit");
        String group = groupWithReset("earliest");
        TopicPartition tp = new TopicPartition(topic, 0);
        kafka.createTopic(topic, 1);
        produce(topic, "i", 10);
        try (KafkaShareConsumer<String, String> c = consumer(group, "implicit")) {
            c.subscribe(List.of(topic));
            int got = 0;
            long until = System.nanoTime() + WAIT.toNanos();
            while (got == 0 && System.nanoTime() < until) {
                got = c.poll(Duration.ofMillis(200)).count();
            }
            assertEquals(10, got);
            // (listShareGroupOffsets may not report the partition yet: its state is written after the first acknowledgement.)
            // The next poll, with nothing from the application: the batch is accepted (before any close).
            await().atMost(WAIT).pollInSameThread().until(() -> {
                c.poll(Duration.ofMillis(100));
                return lag(group, tp) == 0L;
            });
        }
        assertEquals(List.of(), consumeAll(group, topic, Duration.ofSeconds(3)), "accepted: never delivered again");
    }

    private String groupWithReset(String policy) throws Exception {
        String group = TestTopics.unique("sg");
        kafka.admin().incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.GROUP, group),
                List.of(new AlterConfigOp(new ConfigEntry("share.auto.offset.reset", policy), AlterConfigOp.OpType.SET))))
                .all().get(30, TimeUnit.SECONDS);
        return group;
    }

    private void produce(String topic, String prefix, int count) {
        try (KafkaProducer<String, String> p = TestClients.producer(kafka)) {
            TestClients.produce(p, topic, 0, prefix, count);
        }
    }

    private KafkaShareConsumer<String, String> consumer(String group, String mode) {
        Map<String, Object> cfg = new HashMap<>();
        cfg.put("bootstrap.servers", kafka.bootstrapServers());
        cfg.put("group.id", group);
        cfg.put("share.acknowledgement.mode", mode);
        return new KafkaShareConsumer<>(cfg, new StringDeserializer(), new StringDeserializer());
    }

    private SharePartitionOffsetInfo info(String group, TopicPartition tp) throws Exception {
        try {
            return kafka.admin().listShareGroupOffsets(Map.of(group, new ListShareGroupOffsetsSpec().topicPartitions(List.of(tp))))
                    .partitionsToOffsetInfo(group).get(30, TimeUnit.SECONDS).get(tp);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof GroupIdNotFoundException) {
                return null;
            }
            throw e;
        }
    }

    private Optional<Long> startOffset(String group, TopicPartition tp) throws Exception {
        SharePartitionOffsetInfo i = info(group, tp);
        return i == null || i.startOffset() < 0 ? Optional.empty() : Optional.of(i.startOffset());
    }

    private long lag(String group, TopicPartition tp) throws Exception {
        SharePartitionOffsetInfo i = info(group, tp);
        return i == null ? -1 : i.lag().orElse(-1L);
    }

    /** Consumes (explicit, accepting everything) until 2 s pass without a record ({@code firstWait} before the first). */
    private List<String> consumeAll(String group, String topic) {
        return consumeAll(group, topic, Duration.ofSeconds(15));
    }

    private List<String> consumeAll(String group, String topic, Duration firstWait) {
        List<String> seen = new ArrayList<>();
        try (KafkaShareConsumer<String, String> c = consumer(group, "explicit")) {
            c.subscribe(List.of(topic));
            long start = System.nanoTime();
            long last = start;
            while (System.nanoTime() - last < (seen.isEmpty() ? firstWait : Duration.ofSeconds(2)).toNanos()
                    && System.nanoTime() - start < WAIT.toNanos()) {
                for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(200))) {
                    seen.add(r.value());
                    c.acknowledge(r);
                    last = System.nanoTime();
                }
                c.commitSync();
            }
        }
        return seen;
    }
}
