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
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.MockShareConsumer;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.InvalidRecordStateException;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Validation and settlement logic on Kafka's MockProducer and MockShareConsumer (at-least-once and native paths). */
class TransactionalShareProducerTest {
    private static final Uuid TOPIC_ID = Uuid.randomUuid();
    private static final TopicIdPartition TIP = new TopicIdPartition(TOPIC_ID, 0, "in");

    /** Records what the decorator acknowledges on the Kafka consumer. */
    static final class RecordingShareConsumer extends MockShareConsumer<String, String> {
        final List<String> acks = new ArrayList<>();

        @Override
        public synchronized void acknowledge(ConsumerRecord<String, String> record, AcknowledgeType type) {
            acks.add(record.offset() + ":" + type.name());
        }
    }

    private final RecordingShareConsumer mockConsumer = new RecordingShareConsumer();
    private final MockProducer<byte[], byte[]> mockProducer = new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
    private final List<AutoCloseable> closeables = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : closeables) {
            c.close();
        }
    }

    private GaplessShareConsumer<String, String> consumer(String fallback) {
        Map<String, Object> config = new HashMap<>();
        config.put("group.id", "g");
        config.put(GaplessShareConfig.ACKNOWLEDGEMENT_MODE_CONFIG, GaplessShareConfig.ACKNOWLEDGEMENT_MODE_TRANSACTIONAL);
        config.put(GaplessShareConfig.FALLBACK_CONFIG, fallback);
        GaplessShareConsumer<String, String> c = TestShareConsumers.wrapping(mockConsumer, config, topic -> TOPIC_ID, NativeSupport.unsupported());
        closeables.add(c);
        return c;
    }

    private TransactionalShareProducer<String, String> producer(String fallback, NativeSupport nativeSupport) {
        Map<String, Object> config = new HashMap<>();
        config.put("transactional.id", "txn");
        config.put(GaplessShareConfig.FALLBACK_CONFIG, fallback);
        TransactionalShareProducer<String, String> p = new TransactionalShareProducer<>(mockProducer, config, new StringSerializer(),
                new StringSerializer(), nativeSupport);
        closeables.add(p);
        p.initTransactions();
        return p;
    }

    private ConsumerRecords<String, String> poll(GaplessShareConsumer<String, String> c, int count) {
        c.subscribe(List.of("in"));
        for (int i = 0; i < count; i++) {
            mockConsumer.addRecord(new ConsumerRecord<>("in", 0, i, 0L, TimestampType.CREATE_TIME, 0, 0, "k" + i, "v" + i,
                    new RecordHeaders(), Optional.empty(), Optional.of((short) 1)));
        }
        return c.poll(Duration.ZERO);
    }

    @Test
    void commitAcknowledgesAsStagedAndAbortKeepsTheRecords() {
        GaplessShareConsumer<String, String> c = consumer(GaplessShareConfig.FALLBACK_AT_LEAST_ONCE);
        TransactionalShareProducer<String, String> p = producer(GaplessShareConfig.FALLBACK_AT_LEAST_ONCE, NativeSupport.unsupported());
        ConsumerRecords<String, String> records = poll(c, 3);
        assertEquals(3, records.count());

        p.beginTransaction();
        ShareAcknowledgements acks = new ShareAcknowledgements();
        List<ConsumerRecord<String, String>> list = new ArrayList<>();
        records.forEach(list::add);
        acks.add(list.get(0), AcknowledgeType.ACCEPT).add(list.get(1), AcknowledgeType.REJECT);
        p.sendShareAcknowledgementsToTransaction(acks, c.shareGroupMetadata());
        p.abortTransaction();
        assertEquals(List.of("0:RENEW", "1:RENEW"), mockConsumer.acks);
        assertTrue(mockProducer.transactionAborted());

        // The third record was never staged: the next poll releases it.
        mockConsumer.acks.clear();
        ConsumerRecords<String, String> again = poll(c, 0);
        assertEquals(List.of("2:RELEASE"), mockConsumer.acks);
        assertEquals(0, again.count());
    }

    @Test
    void commitSettlesEachRecordWithItsType() {
        GaplessShareConsumer<String, String> c = consumer(GaplessShareConfig.FALLBACK_AT_LEAST_ONCE);
        TransactionalShareProducer<String, String> p = producer(GaplessShareConfig.FALLBACK_AT_LEAST_ONCE, NativeSupport.unsupported());
        ConsumerRecords<String, String> records = poll(c, 2);
        List<ConsumerRecord<String, String>> list = new ArrayList<>();
        records.forEach(list::add);
        p.beginTransaction();
        p.sendShareAcknowledgementsToTransaction(new ShareAcknowledgements().add(list.get(0), AcknowledgeType.ACCEPT)
                .add(list.get(1), AcknowledgeType.REJECT), c.shareGroupMetadata());
        p.commitTransaction();
        assertTrue(mockProducer.transactionCommitted());
        assertEquals(List.of("0:ACCEPT", "1:REJECT"), mockConsumer.acks);
    }

    @Test
    void onlyAcceptAndRejectAreAllowedAndNothingIsStagedOtherwise() {
        GaplessShareConsumer<String, String> c = consumer(GaplessShareConfig.FALLBACK_AT_LEAST_ONCE);
        TransactionalShareProducer<String, String> p = producer(GaplessShareConfig.FALLBACK_AT_LEAST_ONCE, NativeSupport.unsupported());
        ConsumerRecords<String, String> records = poll(c, 2);
        p.beginTransaction();
        for (AcknowledgeType bad : List.of(AcknowledgeType.RELEASE, AcknowledgeType.RENEW)) {
            InvalidRecordStateException e = assertThrows(InvalidRecordStateException.class,
                    () -> p.sendShareAcknowledgementsToTransaction(ShareAcknowledgements.fromRecords(records, bad), c.shareGroupMetadata()));
            assertTrue(e.getMessage().contains(bad.toString()), e.getMessage());
        }
        p.sendShareAcknowledgementsToTransaction(ShareAcknowledgements.fromRecords(records, AcknowledgeType.ACCEPT), c.shareGroupMetadata());
        InvalidRecordStateException twice = assertThrows(InvalidRecordStateException.class,
                () -> p.sendShareAcknowledgementsToTransaction(ShareAcknowledgements.fromRecords(records, AcknowledgeType.ACCEPT),
                        c.shareGroupMetadata()));
        assertTrue(twice.getMessage().contains("already staged"), twice.getMessage());
    }

    @Test
    void misuseFailsWithKafkasExceptions() {
        GaplessShareConsumer<String, String> c = consumer(GaplessShareConfig.FALLBACK_AT_LEAST_ONCE);
        TransactionalShareProducer<String, String> p = producer(GaplessShareConfig.FALLBACK_AT_LEAST_ONCE, NativeSupport.unsupported());
        ConsumerRecords<String, String> records = poll(c, 1);
        ShareAcknowledgements acks = ShareAcknowledgements.fromRecords(records, AcknowledgeType.ACCEPT);
        assertThrows(IllegalStateException.class, () -> p.sendShareAcknowledgementsToTransaction(acks, c.shareGroupMetadata()));
        p.beginTransaction();
        assertThrows(IllegalArgumentException.class,
                () -> p.sendShareAcknowledgementsToTransaction(acks, new ShareGroupMetadata("g", "someone-else", 0)));
        InvalidRecordStateException notHeld = assertThrows(InvalidRecordStateException.class, () -> p.sendShareAcknowledgementsToTransaction(
                new ShareAcknowledgements().add(TIP, 42, AcknowledgeType.ACCEPT), c.shareGroupMetadata()));
        assertTrue(notHeld.getMessage().contains("in-0@42 is not held"), notHeld.getMessage());
        // Polling while records are staged in an open transaction would lose track of them.
        p.sendShareAcknowledgementsToTransaction(acks, c.shareGroupMetadata());
        assertThrows(IllegalStateException.class, () -> c.poll(Duration.ZERO));
    }

    @Test
    void aNonTransactionalProducerCannotStageAcknowledgements() {
        GaplessShareConsumer<String, String> c = consumer(GaplessShareConfig.FALLBACK_AT_LEAST_ONCE);
        TransactionalShareProducer<String, String> p = new TransactionalShareProducer<>(mockProducer,
                Map.of(GaplessShareConfig.FALLBACK_CONFIG, GaplessShareConfig.FALLBACK_AT_LEAST_ONCE), new StringSerializer(),
                new StringSerializer(), NativeSupport.unsupported());
        closeables.add(p);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> p.sendShareAcknowledgementsToTransaction(new ShareAcknowledgements(), c.shareGroupMetadata()));
        assertTrue(e.getMessage().contains("transactional.id"), e.getMessage());
    }

    @Test
    void failFallbackFailsFastWithoutNativeSupport() {
        Map<String, Object> config = Map.of("transactional.id", "t", GaplessShareConfig.FALLBACK_CONFIG, GaplessShareConfig.FALLBACK_FAIL);
        assertThrows(UnsupportedVersionException.class, () -> new TransactionalShareProducer<>(mockProducer, config,
                new StringSerializer(), new StringSerializer(), NativeSupport.unsupported()));
        Map<String, Object> consumerConfig = Map.of("group.id", "g", GaplessShareConfig.FALLBACK_CONFIG, GaplessShareConfig.FALLBACK_FAIL,
                GaplessShareConfig.ACKNOWLEDGEMENT_MODE_CONFIG, GaplessShareConfig.ACKNOWLEDGEMENT_MODE_TRANSACTIONAL);
        assertThrows(UnsupportedVersionException.class, () -> TestShareConsumers.wrapping(mockConsumer, consumerConfig, t -> TOPIC_ID,
                NativeSupport.unsupported()));
    }

    @Test
    void nativePathDelegatesToKafkaAfterValidation() {
        NativeSupport nativeSupport = NativeSupport.supported();
        TransactionalShareProducer<String, String> p = producer(GaplessShareConfig.FALLBACK_FAIL, nativeSupport);
        ShareGroupMetadata metadata = new ShareGroupMetadata("g", "member", 7);
        p.beginTransaction();
        assertThrows(InvalidRecordStateException.class, () -> p.sendShareAcknowledgementsToTransaction(
                new ShareAcknowledgements().add(TIP, 1, AcknowledgeType.RELEASE), metadata));
        assertEquals(0, nativeSupport.calls.size());
        ShareAcknowledgements acks = new ShareAcknowledgements().add(TIP, 1, AcknowledgeType.ACCEPT).add(TIP, 2, AcknowledgeType.ACCEPT);
        p.sendShareAcknowledgementsToTransaction(acks, metadata);
        p.commitTransaction();
        assertEquals(List.of(Map.of(TIP, List.of(new AcknowledgementBatch(1, 2, AcknowledgeType.ACCEPT)))), nativeSupport.calls);
        assertTrue(mockProducer.transactionCommitted());
    }
}
