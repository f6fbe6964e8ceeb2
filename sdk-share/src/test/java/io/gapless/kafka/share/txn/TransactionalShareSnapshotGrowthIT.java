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

import io.gapless.kafka.share.GaplessShareConfig;
import io.gapless.kafka.share.GaplessShareConsumer;
import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.EmbeddedKafkaTest;
import io.gapless.kafka.testkit.TestTopics;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.gapless.kafka.share.txn.ShareTestSupport.allAcknowledged;
import static io.gapless.kafka.share.txn.ShareTestSupport.configureGroup;
import static io.gapless.kafka.share.txn.ShareTestSupport.consumerConfig;
import static io.gapless.kafka.share.txn.ShareTestSupport.produce;
import static io.gapless.kafka.share.txn.ShareTestSupport.producerConfig;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Snapshots keep one compacted range per run of one acknowledge type below the share-partition
 * start offset, for the group's whole life. An application that rejects every other record (a
 * poison-record filter) leaves one range per record: the snapshot record grows with every record
 * the group ever processed, and once it passes the producer's {@code max.request.size} (1 MiB,
 * about 36,000 compacted ranges of 29 bytes) every snapshot fails, so the ledger is never pruned
 * again. Plain Kafka keeps nothing per record.
 */
@EmbeddedKafkaTest
class TransactionalShareSnapshotGrowthIT {
    private static final int RECORDS = 45_000;

    private final EmbeddedKafka kafka;
    private final String input = TestTopics.unique("growth-in");
    private final String output = TestTopics.unique("growth-out");
    private final String ledger = TestTopics.unique("growth-ledger");
    private final List<AutoCloseable> closeables = new ArrayList<>();

    TransactionalShareSnapshotGrowthIT(EmbeddedKafka kafka) {
        this.kafka = kafka;
        kafka.createTopic(input, 1);
        kafka.createTopic(output, 1);
    }

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : closeables) {
            try {
                c.close();
            } catch (RuntimeException e) {
                // already closed
            }
        }
    }

    private static AcknowledgeType alternate(ConsumerRecord<?, ?> r) {
        return r.offset() % 2 == 0 ? AcknowledgeType.ACCEPT : AcknowledgeType.REJECT;
    }

    /** Records between each ledger partition's log start and end: what snapshots have not pruned. */
    private long unprunedLedgerRecords() throws Exception {
        int partitions = kafka.admin().describeTopics(List.of(ledger)).allTopicNames().get(30, TimeUnit.SECONDS)
                .get(ledger).partitions().size();
        Map<TopicPartition, OffsetSpec> earliest = new HashMap<>();
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        for (int p = 0; p < partitions; p++) {
            earliest.put(new TopicPartition(ledger, p), OffsetSpec.earliest());
            latest.put(new TopicPartition(ledger, p), OffsetSpec.latest());
        }
        Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> start = kafka.admin().listOffsets(earliest).all().get(30, TimeUnit.SECONDS);
        Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> end = kafka.admin().listOffsets(latest).all().get(30, TimeUnit.SECONDS);
        long sum = 0;
        for (TopicPartition tp : start.keySet()) {
            sum += end.get(tp).offset() - start.get(tp).offset();
        }
        return sum;
    }

    @Test
    // Failed before the range budget: 45,000 alternating ACCEPT/REJECT records left 45,000 compacted ranges, every snapshot
    // failed with RecordTooLargeException (1,305,372 bytes > max.request.size) and the ledger was never pruned again.
    void snapshotsStayWithinOneRecordWhenEveryOtherRecordIsRejected() throws Exception {
        produce(kafka, input, RECORDS, "v");

        // Plain Kafka: the same alternation, nothing kept per record.
        String plainGroup = TestTopics.unique("growth-plain");
        configureGroup(kafka, plainGroup, 30_000);
        Map<String, Object> pc = new HashMap<>();
        pc.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        pc.put(ConsumerConfig.GROUP_ID_CONFIG, plainGroup);
        pc.put(ConsumerConfig.SHARE_ACKNOWLEDGEMENT_MODE_CONFIG, "explicit");
        KafkaShareConsumer<String, String> plain = new KafkaShareConsumer<>(pc, new StringDeserializer(), new StringDeserializer());
        closeables.add(plain);
        plain.subscribe(List.of(input));
        long[] plainSeen = {0};
        await().pollInSameThread().atMost(Duration.ofSeconds(180)).until(() -> {
            for (ConsumerRecord<String, String> r : plain.poll(Duration.ofMillis(200))) {
                plainSeen[0]++;
                plain.acknowledge(r, alternate(r));
            }
            plain.commitSync();
            return allAcknowledged(kafka, plainGroup, input);
        });

        // The SDK, same steps, a snapshot after every commit.
        String group = TestTopics.unique("growth-sdk");
        configureGroup(kafka, group, 30_000);
        GaplessShareConsumer<String, String> c = new GaplessShareConsumer<>(consumerConfig(kafka, group, ledger));
        closeables.add(c);
        c.subscribe(List.of(input));
        Map<String, Object> config = producerConfig(kafka, TestTopics.unique("txn"), ledger);
        config.put(GaplessShareConfig.LEDGER_MAX_BYTES_BETWEEN_SNAPSHOTS_CONFIG, 1);
        TransactionalShareProducer<String, String> p = new TransactionalShareProducer<>(config);
        closeables.add(p);
        p.initTransactions();
        long[] sdkSeen = {0};
        Runnable round = () -> {
            ConsumerRecords<String, String> records = c.poll(Duration.ofMillis(200));
            if (records.isEmpty()) {
                return;
            }
            p.beginTransaction();
            ShareAcknowledgements acks = new ShareAcknowledgements();
            for (ConsumerRecord<String, String> r : records) {
                p.send(new ProducerRecord<>(output, r.key(), r.value()));
                acks.add(r, alternate(r));
            }
            p.sendShareAcknowledgementsToTransaction(acks, c.shareGroupMetadata());
            p.commitTransaction();
            sdkSeen[0] += records.count();
        };
        await().pollInSameThread().atMost(Duration.ofSeconds(300)).until(() -> {
            round.run();
            return allAcknowledged(kafka, group, input);
        });
        assertEquals(RECORDS, plainSeen[0], "plain deliveries");
        assertEquals(RECORDS, sdkSeen[0], "SDK deliveries");

        // A few more commits: each snapshots and prunes the ledger below itself.
        for (int i = 0; i < 5; i++) {
            produce(kafka, input, 2, "more" + i + "-");
            await().pollInSameThread().atMost(Duration.ofSeconds(60)).until(() -> {
                round.run();
                return allAcknowledged(kafka, group, input);
            });
        }
        long unpruned = unprunedLedgerRecords();
        assertTrue(unpruned <= 10, "ledger records not pruned by snapshots after " + RECORDS + " alternating ACCEPT/REJECT records: " + unpruned);
    }
}
