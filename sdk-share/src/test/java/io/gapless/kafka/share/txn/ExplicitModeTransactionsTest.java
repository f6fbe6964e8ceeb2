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
import io.gapless.kafka.share.TestShareConsumers;
import io.gapless.kafka.share.txn.ShareRecords.RecordingShareConsumer;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.InvalidRecordStateException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * KIP-1289 as upstream Kafka ships it: a share consumer in {@code share.acknowledgement.mode=explicit}
 * whose acknowledgements a producer stages in its transaction. Pure logic on Kafka's mocks; the
 * broker scenarios are {@code UpstreamShapeTransactionsIT}.
 */
class ExplicitModeTransactionsTest {
    private static final Uuid TOPIC_ID = Uuid.randomUuid();
    private static final TopicPartition TP = new TopicPartition("in", 0);

    private final RecordingShareConsumer mockConsumer = new RecordingShareConsumer();
    private final MockProducer<byte[], byte[]> mockProducer = new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
    private final List<AutoCloseable> closeables = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : closeables) {
            c.close();
        }
    }

    private final AtomicInteger topicIdLookups = new AtomicInteger();

    private GaplessShareConsumer<String, String> explicitConsumer() {
        return consumer("explicit", NativeSupport.unsupported());
    }

    private GaplessShareConsumer<String, String> consumer(String mode, NativeSupport nativeSupport) {
        return consumer(mode, nativeSupport, (group, client, cfg, modes, ledger, fallback) -> new NativeHandOver.Decision(AckPath.NATIVE, false));
    }

    private GaplessShareConsumer<String, String> consumer(String mode, NativeSupport nativeSupport, NativeHandOver.Decider handOver) {
        Map<String, Object> config = new HashMap<>();
        config.put("group.id", "g");
        config.put(GaplessShareConfig.ACKNOWLEDGEMENT_MODE_CONFIG, mode);
        config.put(GaplessShareConfig.FALLBACK_CONFIG, GaplessShareConfig.FALLBACK_AT_LEAST_ONCE);
        GaplessShareConsumer<String, String> c = TestShareConsumers.wrapping(mockConsumer, config, topic -> {
            topicIdLookups.incrementAndGet();
            return TOPIC_ID;
        }, nativeSupport, handOver);
        closeables.add(c);
        c.subscribe(List.of(TP.topic()));
        return c;
    }

    private TransactionalShareProducer<String, String> producer() {
        return producer(NativeSupport.unsupported());
    }

    private TransactionalShareProducer<String, String> producer(NativeSupport nativeSupport) {
        Map<String, Object> config = new HashMap<>();
        config.put("transactional.id", "txn");
        config.put(GaplessShareConfig.FALLBACK_CONFIG, GaplessShareConfig.FALLBACK_AT_LEAST_ONCE);
        TransactionalShareProducer<String, String> p = new TransactionalShareProducer<>(mockProducer, config, new StringSerializer(),
                new StringSerializer(), nativeSupport);
        closeables.add(p);
        p.initTransactions();
        return p;
    }

    private ConsumerRecords<String, String> poll(GaplessShareConsumer<String, String> c, long... offsets) {
        ShareRecords.records(TP, offsets).forEach(mockConsumer::addRecord);
        return c.poll(Duration.ZERO);
    }

    @Test
    void anExplicitConsumersRecordsCanBeCommittedWithATransaction() {
        GaplessShareConsumer<String, String> c = explicitConsumer();
        TransactionalShareProducer<String, String> p = producer();
        ConsumerRecords<String, String> records = poll(c, 0, 1);
        assertEquals(2, records.count());
        p.beginTransaction();
        p.sendShareAcknowledgementsToTransaction(ShareAcknowledgements.fromRecords(records, AcknowledgeType.ACCEPT), c.shareGroupMetadata());
        assertTrue(mockConsumer.acks.isEmpty(), "nothing is acknowledged before the commit: " + mockConsumer.acks);
        p.commitTransaction();
        assertEquals(List.of("0:ACCEPT", "1:ACCEPT"), mockConsumer.acks);
        assertEquals(1, mockConsumer.commits);
    }

    private static List<ConsumerRecord<String, String>> list(ConsumerRecords<String, String> records) {
        List<ConsumerRecord<String, String>> l = new ArrayList<>();
        records.forEach(l::add);
        return l;
    }

    @Test
    void acknowledgementsTakenForATransactionAreSettledByItInKafkasShape() {
        GaplessShareConsumer<String, String> c = explicitConsumer();
        TransactionalShareProducer<String, String> p = producer();
        List<ConsumerRecord<String, String>> records = list(poll(c, 10, 11, 12));
        c.acknowledge(records.get(0), AcknowledgeType.ACCEPT);
        c.acknowledge(records.get(1), AcknowledgeType.REJECT);
        ShareAcknowledgements acks = c.acknowledgementsForTransaction();
        TopicIdPartition tip = new TopicIdPartition(TOPIC_ID, TP);
        assertEquals(Map.of(tip, List.of(new ShareAcknowledgementBatch(10, 11, List.of(AcknowledgeType.ACCEPT.id, AcknowledgeType.REJECT.id)))),
                acks.acknowledgements(), "with the topic id, consecutive offsets in one batch");
        assertTrue(c.acknowledgementsForTransaction().isEmpty(), "taken once");
        p.beginTransaction();
        p.sendShareAcknowledgementsToTransaction(acks, c.shareGroupMetadata());
        assertTrue(mockConsumer.acks.isEmpty(), "Kafka's consumer does not see them before the commit: " + mockConsumer.acks);
        p.commitTransaction();
        assertEquals(List.of("10:ACCEPT", "11:REJECT"), mockConsumer.acks);
        // Record 12 was never acknowledged: it stays in flight, and the application acknowledges it as usual.
        c.acknowledge(records.get(2), AcknowledgeType.ACCEPT);
        assertEquals(List.of("10:ACCEPT", "11:REJECT"), mockConsumer.acks, "an explicit acknowledgement waits for commit or poll");
        int commits = mockConsumer.commits;
        c.commitSync();
        assertEquals(List.of("10:ACCEPT", "11:REJECT", "12:ACCEPT"), mockConsumer.acks);
        assertEquals(commits + 1, mockConsumer.commits);
    }

    @Test
    void withoutATransactionExplicitAcknowledgementsReachKafkaAtPollCommitOrClose() {
        GaplessShareConsumer<String, String> c = explicitConsumer();
        List<ConsumerRecord<String, String>> records = list(poll(c, 0, 1, 2));
        c.acknowledge(records.get(0), AcknowledgeType.ACCEPT);
        c.acknowledge(records.get(0), AcknowledgeType.RELEASE);   // the last type given before Kafka sees it wins
        c.acknowledge(records.get(1));
        assertTrue(mockConsumer.acks.isEmpty());
        c.commitAsync();
        assertEquals(List.of("0:RELEASE", "1:ACCEPT"), mockConsumer.acks);
        c.acknowledge(records.get(2), AcknowledgeType.REJECT);
        poll(c);
        assertEquals(List.of("0:RELEASE", "1:ACCEPT", "2:REJECT"), mockConsumer.acks);
        List<ConsumerRecord<String, String>> more = list(poll(c, 3));
        c.acknowledge(more.get(0), AcknowledgeType.ACCEPT);
        c.close();
        assertEquals(List.of("0:RELEASE", "1:ACCEPT", "2:REJECT", "3:ACCEPT"), mockConsumer.acks);
        assertEquals(0, topicIdLookups.get(), "a consumer that never takes part in a transaction looks nothing up");
    }

    @Test
    void abortKeepsWhatWasStagedAndTakenButUnstagedComesBackAtTheNextPoll() {
        GaplessShareConsumer<String, String> c = explicitConsumer();
        TransactionalShareProducer<String, String> p = producer();
        List<ConsumerRecord<String, String>> records = list(poll(c, 0, 1));
        c.acknowledge(records.get(0), AcknowledgeType.ACCEPT);
        p.beginTransaction();
        p.sendShareAcknowledgementsToTransaction(c.acknowledgementsForTransaction(), c.shareGroupMetadata());
        p.abortTransaction();
        // KIP-1289: an aborted transaction returns its records to their holder (RENEW keeps the lock; no delivery is lost).
        assertEquals(List.of("0:RENEW"), mockConsumer.acks);
        c.acknowledge(records.get(1), AcknowledgeType.ACCEPT);
        assertFalse(c.acknowledgementsForTransaction().isEmpty());
        IllegalStateException again = assertThrows(IllegalStateException.class, () -> c.acknowledge(records.get(1), AcknowledgeType.REJECT));
        assertTrue(again.getMessage().contains("acknowledgementsForTransaction"), again.getMessage());
        poll(c);
        assertEquals(List.of("0:RENEW", "1:RELEASE"), mockConsumer.acks, "taken, never staged: released for redelivery");
    }

    @Test
    void aHandBuiltSubsetCommitsOnlyThatOffset() {
        GaplessShareConsumer<String, String> c = explicitConsumer();
        TransactionalShareProducer<String, String> p = producer();
        poll(c, 0, 1, 2);
        ShareAcknowledgements subset = new ShareAcknowledgements(Map.of(new TopicIdPartition(TOPIC_ID, TP),
                List.of(new ShareAcknowledgementBatch(1, 1, List.of(AcknowledgeType.ACCEPT.id)))));
        p.beginTransaction();
        p.sendShareAcknowledgementsToTransaction(subset, c.shareGroupMetadata());
        p.commitTransaction();
        assertEquals(List.of("1:ACCEPT"), mockConsumer.acks);
    }

    @Test
    void misuseFailsClearly() {
        GaplessShareConsumer<String, String> c = explicitConsumer();
        TransactionalShareProducer<String, String> p = producer();
        List<ConsumerRecord<String, String>> records = list(poll(c, 0, 1));
        c.acknowledge(records.get(0), AcknowledgeType.ACCEPT);
        p.beginTransaction();
        InvalidRecordStateException outside = assertThrows(InvalidRecordStateException.class,
                () -> p.sendShareAcknowledgementsToTransaction(ShareAcknowledgements.fromRecords(poll0(records), AcknowledgeType.ACCEPT),
                        c.shareGroupMetadata()));
        assertTrue(outside.getMessage().contains("in-0@0") && outside.getMessage().contains("acknowledgementsForTransaction()"),
                outside.getMessage());
        p.sendShareAcknowledgementsToTransaction(new ShareAcknowledgements().add(new TopicIdPartition(TOPIC_ID, TP), 1, AcknowledgeType.ACCEPT),
                c.shareGroupMetadata());
        IllegalStateException staged = assertThrows(IllegalStateException.class, () -> c.acknowledge(records.get(1), AcknowledgeType.ACCEPT));
        assertTrue(staged.getMessage().contains("staged in an open transaction"), staged.getMessage());
        assertThrows(IllegalStateException.class, () -> c.poll(Duration.ZERO), "one transaction per poll, as in transactional mode");
        p.commitTransaction();

        GaplessShareConsumer<String, String> seed = consumer(GaplessShareConfig.ACKNOWLEDGEMENT_MODE_TRANSACTIONAL, NativeSupport.unsupported());
        IllegalStateException seedMode = assertThrows(IllegalStateException.class, seed::acknowledgementsForTransaction);
        assertTrue(seedMode.getMessage().contains("fromRecords"), seedMode.getMessage());
        GaplessShareConsumer<String, String> implicit = consumer("implicit", NativeSupport.unsupported());
        assertThrows(IllegalStateException.class, implicit::acknowledgementsForTransaction);
    }

    private static ConsumerRecords<String, String> poll0(List<ConsumerRecord<String, String>> records) {
        return new ConsumerRecords<>(Map.of(TP, List.of(records.get(0))), Map.of());
    }

    @Test
    void theNativePathHandsEverythingToKafka() {
        NativeSupport nativeSupport = NativeSupport.supported();
        TopicIdPartition tip = new TopicIdPartition(TOPIC_ID, TP);
        nativeSupport.toTake = new ShareAcknowledgements(Map.of(tip, List.of(new ShareAcknowledgementBatch(0, 0, List.of(AcknowledgeType.ACCEPT.id)))));
        GaplessShareConsumer<String, String> c = consumer("explicit", nativeSupport);
        assertEquals("native", c.transactionalAcknowledgementsMode());
        TransactionalShareProducer<String, String> p = producer(nativeSupport);
        List<ConsumerRecord<String, String>> records = list(poll(c, 0));
        c.acknowledge(records.get(0), AcknowledgeType.ACCEPT);
        assertEquals(List.of("0:ACCEPT"), mockConsumer.acks, "natively Kafka's consumer keeps the acknowledgement itself");
        ShareAcknowledgements acks = c.acknowledgementsForTransaction();
        assertSame(nativeSupport.toTake, acks);
        assertEquals(ShareGroupMetadata.fromKafka("g", "kafka-member", 5), c.shareGroupMetadata(), "Kafka's member id and epoch");
        p.beginTransaction();
        p.sendShareAcknowledgementsToTransaction(acks, c.shareGroupMetadata());
        p.commitTransaction();
        assertEquals(List.of(Map.of(tip, List.of(new AcknowledgementBatch(0, 0, AcknowledgeType.ACCEPT)))), nativeSupport.calls);
        assertEquals(0, topicIdLookups.get());
    }

    @Test
    void aNativeCapableMemberOfAGroupThatCannotMoveKeepsEmulatingAndItsProducerFollows() {
        NativeSupport nativeSupport = NativeSupport.supported();
        GaplessShareConsumer<String, String> c = consumer("explicit", nativeSupport,
                (group, client, cfg, modes, ledger, fallback) -> new NativeHandOver.Decision(AckPath.AT_LEAST_ONCE, true));
        assertEquals("at-least-once", c.transactionalAcknowledgementsMode());
        TransactionalShareProducer<String, String> p = producer(nativeSupport);
        List<ConsumerRecord<String, String>> records = list(poll(c, 0));
        c.acknowledge(records.get(0), AcknowledgeType.ACCEPT);
        p.beginTransaction();
        p.sendShareAcknowledgementsToTransaction(c.acknowledgementsForTransaction(), c.shareGroupMetadata());
        p.commitTransaction();
        assertEquals(List.of(), nativeSupport.calls, "nothing went to Kafka's native API");
        assertEquals(List.of("0:ACCEPT"), mockConsumer.acks, "settled by the SDK after the commit, as the consumer's path says");
    }

    @Test
    void theSeedKipsTransactionalModeOnTheNativePathHandsKafkaWhatKafkasConsumerTook() {
        NativeSupport nativeSupport = NativeSupport.supported();
        TopicIdPartition tip = new TopicIdPartition(TOPIC_ID, TP);
        nativeSupport.toTake = new ShareAcknowledgements(Map.of(tip, List.of(new ShareAcknowledgementBatch(0, 1, List.of(AcknowledgeType.ACCEPT.id)))));
        GaplessShareConsumer<String, String> c = consumer(GaplessShareConfig.ACKNOWLEDGEMENT_MODE_TRANSACTIONAL, nativeSupport);
        assertEquals("native", c.transactionalAcknowledgementsMode());
        TransactionalShareProducer<String, String> p = producer(nativeSupport);
        ConsumerRecords<String, String> records = poll(c, 0, 1, 2);
        ShareAcknowledgements staged = new ShareAcknowledgements();
        list(records).subList(0, 2).forEach(r -> staged.add(r, AcknowledgeType.ACCEPT));
        p.beginTransaction();
        p.sendShareAcknowledgementsToTransaction(staged, c.shareGroupMetadata());
        assertEquals(List.of("0:ACCEPT", "1:ACCEPT"), mockConsumer.acks, "acknowledged on Kafka's consumer, so that it hands them over");
        assertEquals(List.of(nativeSupport.toTake.batches()), nativeSupport.calls, "what Kafka's consumer took goes to Kafka's producer");
        p.commitTransaction();
        assertThrows(IllegalStateException.class, c::acknowledgementsForTransaction);
        poll(c);
        assertEquals(List.of("0:ACCEPT", "1:ACCEPT", "2:RELEASE"), mockConsumer.acks, "the record no transaction staged comes back");
        p.beginTransaction();
        InvalidRecordStateException notHeld = assertThrows(InvalidRecordStateException.class, () -> p.sendShareAcknowledgementsToTransaction(
                new ShareAcknowledgements().add(tip, 7, AcknowledgeType.ACCEPT), c.shareGroupMetadata()));
        assertTrue(notHeld.getMessage().contains("in-0@7"), notHeld.getMessage());
    }
}
