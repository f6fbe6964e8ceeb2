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
package io.gapless.kafka.core.internal.baseline;

import io.gapless.kafka.core.spi.BaselineTopic;
import io.gapless.kafka.core.GaplessConsumer;
import io.gapless.kafka.core.PartitionClassification;
import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.TestClients;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the topic snapshot costs on a cluster with thousands of topics (sdk-core/RATIONALE.md):
 * bytes the group's start writes, and the time it adds to a new group's first assignment, next to
 * plain Kafka and to a restart of the same group. {@code -Dgapless.snapshot.topics=5000} for more
 * topics than the default 2000. Prints one {@code RESULT} line; asserts bytes and classification,
 * never timings (the machine is shared).
 */
class TopicSnapshotCostIT {
    private static final BaselineTopic BASELINE_TOPIC = BaselineTopic.of(null, BaselineTopic.PREFIX_DEFAULT, "sdk");
    /** Other groups with baselines of their own on the same cluster: with one topic per group a start reads none of theirs. */
    private static final int OTHER_GROUPS = 3;

    @Test
    void theSnapshotOfAClusterWithThousandsOfTopics() throws Exception {
        int topics = Integer.getInteger("gapless.snapshot.topics", 2000);
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().brokerProperty("log.index.size.max.bytes", 65_536).start()) {
            createBulk(kafka, topics);
            String topic = "orders";
            kafka.createTopic(topic, 2);
            try (var producer = TestClients.producer(kafka)) {
                TestClients.produce(producer, topic, 0, "history", 10);
            }
            long plainWarm = firstAssignmentMs(new KafkaConsumer<>(props(kafka, "warm-up", false)), topic);
            long plain = firstAssignmentMs(new KafkaConsumer<>(props(kafka, "plain", false)), topic);
            for (int i = 0; i < OTHER_GROUPS; i++) {
                firstAssignmentMs(new GaplessConsumer<>(props(kafka, "other-" + i, true)), topic);
            }
            long sdkNew = firstAssignmentMs(new GaplessConsumer<>(props(kafka, "sdk", true)), topic);
            long sdkAgain = firstAssignmentMs(new GaplessConsumer<>(props(kafka, "sdk", true)), topic);
            long groupBytes = bytesOfGroup(kafka, "sdk");
            long startReads = bytesInTopic(kafka, BASELINE_TOPIC.name());

            BaselineStore store = new BaselineStore(BASELINE_TOPIC, "sdk", Map.of("bootstrap.servers", kafka.bootstrapServers()),
                    Duration.ofSeconds(60), () -> { }, () -> { });
            try (GroupBaselineClassifier classifier = new GroupBaselineClassifier(store)) {
                long t0 = System.nanoTime();
                int listed = store.topicPartitionCounts().size();
                long snapshotMs = (System.nanoTime() - t0) / 1_000_000;
                System.out.printf("RESULT topic-snapshot topics=%d listed=%d group-bytes=%d bytes-per-topic=%.1f snapshot-ms=%d"
                                + " start-reads-bytes=%d (other groups %d) first-assignment-ms plain=%d sdk-new-group=%d sdk-restart=%d"
                                + " (plain warm-up %d)%n",
                        topics, listed, groupBytes, groupBytes / (double) listed, snapshotMs, startReads, OTHER_GROUPS, plain, sdkNew,
                        sdkAgain, plainWarm);
                assertTrue(listed >= topics + 1, "every topic listed: " + listed);
                assertTrue(groupBytes <= 24L * listed + 2048, "about 20 bytes per topic: " + groupBytes + " for " + listed);
                assertEquals(groupBytes, startReads, "a start reads its own group's records only, none of the other groups'");

                kafka.admin().createPartitions(Map.of("bulk-7", NewPartitions.increaseTo(2))).all().get();
                kafka.createTopic("created-later", 1);
                Map<TopicPartition, PartitionClassification> c = classifier.classify(List.of(new TopicPartition("bulk-7", 0),
                        new TopicPartition("bulk-7", 1), new TopicPartition("created-later", 0)));
                assertFalse(c.get(new TopicPartition("bulk-7", 0)).isNew(), c.toString());
                assertTrue(c.get(new TopicPartition("bulk-7", 1)).isNew(), c.toString());
                assertTrue(c.get(new TopicPartition("created-later", 0)).isNew(), c.toString());
            }
        }
    }

    private static void createBulk(EmbeddedKafka kafka, int n) throws Exception {
        for (int from = 0; from < n; from += 500) {
            List<NewTopic> batch = IntStream.range(from, Math.min(n, from + 500))
                    .mapToObj(i -> new NewTopic("bulk-" + i, Optional.of(1), Optional.empty())).toList();
            kafka.admin().createTopics(batch).all().get();
        }
        // The broker creates the logs after the controller answered: wait until the last bulk topic's
        // leader serves it (a deadline that grows with the count, as a loaded 2-core machine needs).
        Map<TopicPartition, OffsetSpec> last = Map.of(new TopicPartition("bulk-" + (n - 1), 0), OffsetSpec.latest());
        Awaitility.await("the leader of bulk-" + (n - 1) + " to serve its log").atMost(Duration.ofSeconds(30 + n / 50))
                .ignoreExceptions().until(() -> kafka.admin().listOffsets(last).all().get() != null);
        kafka.createTopic("bulk-ready-marker", 1);
    }

    private static Properties props(EmbeddedKafka kafka, String group, boolean sdk) {
        Properties p = TestClients.consumerProps(kafka, group, "classic");
        p.put("auto.offset.reset", "latest");
        if (sdk) {
            p.put("auto.offset.reset.new.partitions", "earliest");
        }
        return p;
    }

    /** From subscribe to an assignment with every partition positioned. */
    private static long firstAssignmentMs(Consumer<String, String> consumer, String topic) {
        try (consumer) {
            long t0 = System.nanoTime();
            consumer.subscribe(List.of(topic));
            TestClients.pollUntil(consumer, Duration.ofSeconds(120), r -> {
                if (consumer.assignment().size() != 2) {
                    return false;
                }
                consumer.assignment().forEach(tp -> consumer.position(tp, Duration.ofSeconds(60)));
                return true;
            });
            return (System.nanoTime() - t0) / 1_000_000;
        }
    }

    private static long bytesOfGroup(EmbeddedKafka kafka, String group) {
        long bytes = 0;
        for (ConsumerRecord<byte[], byte[]> r : readAll(kafka, BaselineTopic.of(null, BaselineTopic.PREFIX_DEFAULT, group).name())) {
            BaselineRecord record = BaselineRecord.parse(r.value());
            if (record != null && record.group().equals(group)) {
                bytes += r.serializedKeySize() + r.serializedValueSize();
            }
        }
        assertEquals(true, bytes > 0, "the group's records were found");
        return bytes;
    }

    /** Everything a member's start reads: the whole of its group's baseline topic. */
    private static long bytesInTopic(EmbeddedKafka kafka, String topic) {
        return readAll(kafka, topic).stream().mapToLong(r -> r.serializedKeySize() + r.serializedValueSize()).sum();
    }

    private static List<ConsumerRecord<byte[], byte[]>> readAll(EmbeddedKafka kafka, String topic) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        try (KafkaConsumer<byte[], byte[]> reader = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> parts = IntStream.range(0, kafka.partitionCount(topic)).mapToObj(i -> new TopicPartition(topic, i)).toList();
            reader.assign(parts);
            Map<TopicPartition, Long> end = reader.endOffsets(parts);
            List<ConsumerRecord<byte[], byte[]>> all = new ArrayList<>();
            while (parts.stream().anyMatch(tp -> reader.position(tp) < end.get(tp))) {
                reader.poll(Duration.ofMillis(200)).forEach(all::add);
            }
            return all;
        }
    }
}
