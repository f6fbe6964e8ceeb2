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
package io.gapless.kafka.share.txn;

import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.EmbeddedKafkaTest;
import io.gapless.kafka.testkit.TestTopics;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.admin.ShareGroupDescription;
import org.apache.kafka.clients.admin.SharePartitionOffsetInfo;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static io.gapless.kafka.share.txn.ShareTestSupport.allAcknowledged;
import static io.gapless.kafka.share.txn.ShareTestSupport.configureGroup;
import static io.gapless.kafka.share.txn.ShareTestSupport.produce;
import static io.gapless.kafka.share.txn.ShareTestSupport.startOffset;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What Kafka 4.4's share partition reports to a plain {@link KafkaShareConsumer} in explicit mode
 * (no SDK involved), on which the ack ledger's rules rest (sdk-share/RATIONALE.md, "Facts"):
 * <ul>
 *   <li>an acknowledgement of a record whose lock expired is refused for the holder while the
 *       record lies at or above the share-partition start offset (SPSO);</li>
 *   <li>an acknowledgement of a record below the SPSO (archived by the delivery limit, or below a
 *       {@code deleteRecords}) is reported as success: {@code commitSync} cannot tell "accepted"
 *       from "skipped";</li>
 *   <li>REJECT by the holder archives the record; RENEW keeps it with its holder at the same
 *       delivery; RELEASE makes it available at the next delivery, and archives it at the limit;</li>
 *   <li>each share-partition has its own state (lag, start offset);</li>
 *   <li>what the group's description and offsets show across an offset reset;</li>
 *   <li>a share-partition initialized at {@code latest} starts above records it never delivered,
 *       and a reset to 0 delivers them, at delivery 1 (the start offset says nothing of processing).</li>
 * </ul>
 */
@EmbeddedKafkaTest
class ShareAcknowledgeFactsIT {
    private static final Logger log = LoggerFactory.getLogger(ShareAcknowledgeFactsIT.class);
    private static final int LOCK_MS = 1500;

    private final EmbeddedKafka kafka;
    private final String input = TestTopics.unique("facts-in");
    private final String group = TestTopics.unique("facts-group");
    private final List<AutoCloseable> closeables = new ArrayList<>();

    ShareAcknowledgeFactsIT(EmbeddedKafka kafka) {
        this.kafka = kafka;
        kafka.createTopic(input, 1);
    }

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : closeables) {
            c.close();
        }
    }

    private KafkaShareConsumer<String, String> consumer() {
        Map<String, Object> c = new HashMap<>();
        c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        c.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        c.put("share.acknowledgement.mode", "explicit");
        KafkaShareConsumer<String, String> consumer = new KafkaShareConsumer<>(c, new StringDeserializer(), new StringDeserializer());
        consumer.subscribe(List.of(input));
        closeables.add(consumer::close);
        return consumer;
    }

    private static ConsumerRecords<String, String> pollUntilSome(KafkaShareConsumer<String, String> consumer) {
        List<ConsumerRecords<String, String>> got = new ArrayList<>();
        await().pollInSameThread().atMost(Duration.ofSeconds(30)).until(() -> {
            ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(200));
            if (!records.isEmpty()) {
                got.add(records);
            }
            return !got.isEmpty();
        });
        return got.get(0);
    }

    private static Optional<KafkaException> acknowledgeAndCommit(KafkaShareConsumer<String, String> consumer,
                                                                 ConsumerRecords<String, String> records) {
        return acknowledgeAndCommit(consumer, records, AcknowledgeType.ACCEPT);
    }

    private static Optional<KafkaException> acknowledgeAndCommit(KafkaShareConsumer<String, String> consumer,
                                                                 ConsumerRecords<String, String> records, AcknowledgeType type) {
        for (ConsumerRecord<String, String> r : records) {
            consumer.acknowledge(r, type);
        }
        Map<TopicIdPartition, Optional<KafkaException>> result = consumer.commitSync(Duration.ofSeconds(30));
        assertEquals(1, result.size(), result.toString());
        return result.values().iterator().next();
    }

    /** Holder H1 at delivery 1 and H2 at delivery 2 both outlive their locks at limit 2: the record is archived, SPSO passes it. */
    @Test
    void anAcknowledgementOfARecordArchivedBelowTheStartOffsetIsReportedAsSuccess() throws Exception {
        configureGroup(kafka, group, LOCK_MS, 2);
        produce(kafka, input, 1);
        KafkaShareConsumer<String, String> h1 = consumer();
        ConsumerRecords<String, String> first = pollUntilSome(h1);
        assertEquals((short) 1, first.iterator().next().deliveryCount().orElseThrow());

        KafkaShareConsumer<String, String> h2 = consumer();
        ConsumerRecords<String, String> second = pollUntilSome(h2);
        assertEquals((short) 2, second.iterator().next().deliveryCount().orElseThrow(), "H1's lock expired: delivery 2 to H2");

        // H2's lock expires too: at the delivery limit the record is archived. A later record acknowledged by H3 moves the
        // start offset past both; the group's lag reaches 0 only once the first is archived (the reported SPSO trails).
        produce(kafka, input, 1, "next");
        KafkaShareConsumer<String, String> h3 = consumer();
        ConsumerRecords<String, String> next = pollUntilSome(h3);
        assertEquals(1, next.iterator().next().offset(), "the archived record is not delivered again");
        assertEquals(Optional.empty(), acknowledgeAndCommit(h3, next));
        await().atMost(Duration.ofSeconds(30)).until(() -> allAcknowledged(kafka, group, input));

        Optional<KafkaException> h1Result = acknowledgeAndCommit(h1, first);
        Optional<KafkaException> h2Result = acknowledgeAndCommit(h2, second);
        log.info("Fact: acknowledgement of an archived record below the SPSO: H1 {}, H2 {}", h1Result, h2Result);
        assertEquals(Optional.empty(), h1Result, "Kafka 4.4 reports an acknowledgement below the start offset as success (H1)");
        assertEquals(Optional.empty(), h2Result, "... for every stale holder (H2)");
    }

    @Test
    void anAcknowledgementOfARecordRedeliveredToAnotherHolderIsRefused() throws Exception {
        configureGroup(kafka, group, LOCK_MS, 5);
        produce(kafka, input, 1);
        KafkaShareConsumer<String, String> h1 = consumer();
        ConsumerRecords<String, String> first = pollUntilSome(h1);
        KafkaShareConsumer<String, String> h2 = consumer();
        ConsumerRecords<String, String> second = pollUntilSome(h2);
        assertEquals((short) 2, second.iterator().next().deliveryCount().orElseThrow());

        Optional<KafkaException> h1Result = acknowledgeAndCommit(h1, first);
        log.info("Fact: acknowledgement by a holder whose lock expired, record acquired by another: {}", h1Result);
        assertTrue(h1Result.isPresent(), "a stale holder's acknowledgement above the start offset is refused");
        assertEquals(Optional.empty(), acknowledgeAndCommit(h2, second), "the current holder's is accepted");
    }

    @Test
    void anAcknowledgementBelowADeleteRecordsIsReportedAsSuccess() throws Exception {
        configureGroup(kafka, group, 30_000, 5);
        produce(kafka, input, 3);
        KafkaShareConsumer<String, String> h1 = consumer();
        ConsumerRecords<String, String> held = pollUntilSome(h1);
        kafka.admin().deleteRecords(Map.of(new TopicPartition(input, 0), RecordsToDelete.beforeOffset(3))).all().get(30, TimeUnit.SECONDS);
        // The share partition learns the new log start on its next fetch or state write; a second member's fetch drives it.
        KafkaShareConsumer<String, String> other = consumer();
        produce(kafka, input, 1, "after");
        ConsumerRecords<String, String> after = pollUntilSome(other);
        assertEquals(3, after.iterator().next().offset(), "the next record handed out is the one above the deleted ones");
        Optional<KafkaException> result = acknowledgeAndCommit(h1, held);
        log.info("Fact: acknowledgement of {} record(s) held below a deleteRecords: {}; SPSO now {}", held.count(), result,
                startOffset(kafka, group, input));
        assertEquals(Optional.empty(), result, "records below the start offset moved by deleteRecords: reported as success");
    }

    /** REJECT by the holder archives the record: nothing is left to deliver (lag 0) after one delivery. */
    @Test
    void aRejectByTheHolderArchivesTheRecord() throws Exception {
        configureGroup(kafka, group, 30_000, 5);
        produce(kafka, input, 1);
        KafkaShareConsumer<String, String> h1 = consumer();
        ConsumerRecords<String, String> got = pollUntilSome(h1);
        assertEquals(Optional.empty(), acknowledgeAndCommit(h1, got, AcknowledgeType.REJECT), "the holder's REJECT is accepted");
        await().atMost(Duration.ofSeconds(30)).until(() -> allAcknowledged(kafka, group, input));
        log.info("Fact: REJECT by the holder: archived, lag 0, start offset {}", startOffset(kafka, group, input));
    }

    /**
     * RENEW by the holder keeps the record acquired by it at the same delivery: the holder's next poll
     * returns it again with its delivery count unchanged, and its ACCEPT of that delivery is accepted.
     */
    @Test
    void aRenewByTheHolderKeepsTheRecordWithItAtTheSameDelivery() throws Exception {
        configureGroup(kafka, group, 30_000, 5);
        produce(kafka, input, 1);
        KafkaShareConsumer<String, String> h1 = consumer();
        ConsumerRecords<String, String> got = pollUntilSome(h1);
        assertEquals(Optional.empty(), acknowledgeAndCommit(h1, got, AcknowledgeType.RENEW), "the holder's RENEW is accepted");
        ConsumerRecords<String, String> again = pollUntilSome(h1);
        ConsumerRecord<String, String> r = again.iterator().next();
        assertEquals(0, r.offset());
        assertEquals((short) 1, r.deliveryCount().orElseThrow(), "renewed: back with its holder, the same delivery");
        Optional<KafkaException> accept = acknowledgeAndCommit(h1, again, AcknowledgeType.ACCEPT);
        log.info("Fact: a renewed record comes back to its holder at delivery {}; its ACCEPT: {}", r.deliveryCount().orElseThrow(), accept);
        assertEquals(Optional.empty(), accept, "the renewed delivery is still the holder's");
        await().atMost(Duration.ofSeconds(30)).until(() -> allAcknowledged(kafka, group, input));
    }

    /** RELEASE by the holder makes the record available again at the next delivery; at the delivery limit it archives it. */
    @Test
    void aReleaseRedeliversTheRecordAndAtTheDeliveryLimitArchivesIt() throws Exception {
        configureGroup(kafka, group, 30_000, 2);
        produce(kafka, input, 1);
        KafkaShareConsumer<String, String> h1 = consumer();
        ConsumerRecords<String, String> first = pollUntilSome(h1);
        assertEquals(Optional.empty(), acknowledgeAndCommit(h1, first, AcknowledgeType.RELEASE));
        ConsumerRecords<String, String> second = pollUntilSome(h1);
        ConsumerRecord<String, String> again = second.iterator().next();
        assertEquals(0, again.offset());
        assertEquals((short) 2, again.deliveryCount().orElseThrow(), "released: delivered again, count + 1");
        assertEquals(Optional.empty(), acknowledgeAndCommit(h1, second, AcknowledgeType.RELEASE));
        await().atMost(Duration.ofSeconds(30)).until(() -> allAcknowledged(kafka, group, input));
        log.info("Fact: RELEASE at the delivery limit 2: archived (lag 0), start offset {}", startOffset(kafka, group, input));
    }

    /** Each share-partition has its own state: accepting partition 0's record leaves partition 1's to deliver (lag 0 and 1). */
    @Test
    void eachSharePartitionHasItsOwnState() throws Exception {
        String two = TestTopics.unique("facts-two");
        kafka.createTopic(two, 2);
        configureGroup(kafka, group, 30_000, 5);
        Map<String, Object> props = new HashMap<>();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        try (KafkaProducer<String, String> p = new KafkaProducer<>(props,
                new StringSerializer(), new StringSerializer())) {
            p.send(new ProducerRecord<>(two, 0, "k", "p0"));
            p.send(new ProducerRecord<>(two, 1, "k", "p1"));
        }
        Map<String, Object> c = new HashMap<>();
        c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        c.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        c.put("share.acknowledgement.mode", "explicit");
        KafkaShareConsumer<String, String> consumer = new KafkaShareConsumer<>(c, new StringDeserializer(), new StringDeserializer());
        consumer.subscribe(List.of(two));
        closeables.add(consumer::close);
        int[] settled = {0};
        await().pollInSameThread().atMost(Duration.ofSeconds(30)).until(() -> {
            ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(200));
            for (ConsumerRecord<String, String> r : records) {
                // Partition 0's record is accepted; partition 1's released (it stays at or above its start).
                consumer.acknowledge(r, r.partition() == 0 ? AcknowledgeType.ACCEPT : AcknowledgeType.RELEASE);
                settled[0] |= 1 << r.partition();
            }
            if (!records.isEmpty()) {
                consumer.commitSync(Duration.ofSeconds(30));
            }
            return settled[0] == 3;
        });
        TopicPartition p0 = new TopicPartition(two, 0);
        TopicPartition p1 = new TopicPartition(two, 1);
        // The reported start offsets trail (see anOffsetResetMovesTheStartOffsetBackwards); the lag is per share-partition too.
        long[] lags = {-1, -1};
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            Map<TopicPartition, SharePartitionOffsetInfo> info = kafka.admin()
                    .listShareGroupOffsets(Map.of(group, new ListShareGroupOffsetsSpec().topicPartitions(List.of(p0, p1))))
                    .partitionsToOffsetInfo(group).get(30, TimeUnit.SECONDS);
            lags[0] = info.get(p0) == null ? -1 : info.get(p0).lag().orElse(-1L);
            lags[1] = info.get(p1) == null ? -1 : info.get(p1).lag().orElse(-1L);
            return lags[0] == 0 && lags[1] == 1;
        });
        log.info("Fact: per share-partition state: partition 0 lag {} (accepted), partition 1 lag {} (released)", lags[0], lags[1]);
    }

    /** What the cluster exposes about a group across an offset reset (logged for RATIONALE; the SPSO moving back is asserted). */
    @Test
    void anOffsetResetMovesTheStartOffsetBackwards() throws Exception {
        configureGroup(kafka, group, 30_000, 5);
        produce(kafka, input, 3);
        KafkaShareConsumer<String, String> c = consumer();
        int[] acked = {0};
        await().pollInSameThread().atMost(Duration.ofSeconds(30)).until(() -> {
            ConsumerRecords<String, String> records = c.poll(Duration.ofMillis(200));
            if (!records.isEmpty()) {
                acknowledgeAndCommit(c, records);
                acked[0] += records.count();
            }
            return acked[0] == 3 && allAcknowledged(kafka, group, input);
        });
        String before = describe();
        c.close();
        closeables.remove(closeables.size() - 1);
        TopicPartition tp = new TopicPartition(input, 0);
        await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> {
            kafka.admin().alterShareGroupOffsets(group, Map.of(tp, 0L)).all().get(10, TimeUnit.SECONDS);
            return true;
        });
        String after = describe();
        log.info("Fact: group before the reset {}; after {}", before, after);
        assertEquals(0, startOffset(kafka, group, input), "the reset moved the start offset back to 0");
    }

    /** The start offset of a group initialized at latest lies above records it never delivered; a reset to 0 delivers them. */
    @Test
    void aGroupInitializedAtLatestStartsAboveRecordsItNeverDeliveredAndAResetDeliversThem() throws Exception {
        kafka.admin().incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.GROUP, group), List.of(
                new AlterConfigOp(new ConfigEntry("share.auto.offset.reset", "latest"), AlterConfigOp.OpType.SET))))
                .all().get(30, TimeUnit.SECONDS);
        produce(kafka, input, 3, "old");
        KafkaShareConsumer<String, String> c = consumer();
        List<Long> firstDelivered = new ArrayList<>();
        int[] probes = {0};
        // One probe at a time until one arrives: the share-partition is then initialized at the end of the log.
        await().pollInSameThread().atMost(Duration.ofSeconds(60)).until(() -> {
            produce(kafka, input, 1, "probe" + probes[0]++ + "-");
            for (int i = 0; i < 3 && firstDelivered.isEmpty(); i++) {
                ConsumerRecords<String, String> records = c.poll(Duration.ofMillis(200));
                records.forEach(r -> firstDelivered.add(r.offset()));
                if (!records.isEmpty()) {
                    acknowledgeAndCommit(c, records);
                }
            }
            return !firstDelivered.isEmpty();
        });
        long start = startOffset(kafka, group, input);
        assertTrue(firstDelivered.stream().allMatch(o -> o >= 3), "records below the latest start are not delivered: " + firstDelivered);
        assertTrue(start >= 3, "the start offset lies above the 3 records never delivered: " + start);
        c.close();
        closeables.remove(closeables.size() - 1);

        TopicPartition tp = new TopicPartition(input, 0);
        await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> {
            kafka.admin().alterShareGroupOffsets(group, Map.of(tp, 0L)).all().get(10, TimeUnit.SECONDS);
            return true;
        });
        KafkaShareConsumer<String, String> again = consumer();
        Map<Long, Short> backlog = new java.util.TreeMap<>();
        await().pollInSameThread().atMost(Duration.ofSeconds(30)).until(() -> {
            ConsumerRecords<String, String> records = again.poll(Duration.ofMillis(200));
            for (ConsumerRecord<String, String> r : records) {
                if (r.offset() < 3) {
                    backlog.put(r.offset(), r.deliveryCount().orElse((short) -1));
                }
            }
            if (!records.isEmpty()) {
                acknowledgeAndCommit(again, records);
            }
            return backlog.size() == 3;
        });
        log.info("Fact: initialized at latest, start offset {} (first delivery {}); after a reset to 0 the backlog came at {}", start,
                firstDelivered, backlog);
        assertEquals(Map.of(0L, (short) 1, 1L, (short) 1, 2L, (short) 1), backlog, "the backlog below the old start, each at delivery 1");
    }

    private String describe() throws Exception {
        ShareGroupDescription d = kafka.admin().describeShareGroups(List.of(group)).all().get(30, TimeUnit.SECONDS).get(group);
        TopicPartition tp = new TopicPartition(input, 0);
        SharePartitionOffsetInfo info = kafka.admin()
                .listShareGroupOffsets(Map.of(group, new ListShareGroupOffsetsSpec().topicPartitions(List.of(tp))))
                .partitionsToOffsetInfo(group).get(30, TimeUnit.SECONDS).get(tp);
        return "state=" + d.groupState() + " groupEpoch=" + d.groupEpoch() + " targetAssignmentEpoch=" + d.targetAssignmentEpoch()
                + " offsets=" + info;
    }
}
