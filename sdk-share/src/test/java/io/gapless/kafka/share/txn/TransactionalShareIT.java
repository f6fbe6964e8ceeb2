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
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.InvalidRecordStateException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;

import static io.gapless.kafka.share.txn.ShareTestSupport.committedValues;
import static io.gapless.kafka.share.txn.ShareTestSupport.configureGroup;
import static io.gapless.kafka.share.txn.ShareTestSupport.consumerConfig;
import static io.gapless.kafka.share.txn.ShareTestSupport.produce;
import static io.gapless.kafka.share.txn.ShareTestSupport.producerConfig;
import static io.gapless.kafka.share.txn.ShareTestSupport.allAcknowledged;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@EmbeddedKafkaTest
class TransactionalShareIT {
    private static final int RECORDS = 10;

    private final EmbeddedKafka kafka;
    private final String input = TestTopics.unique("tx-in");
    private final String output = TestTopics.unique("tx-out");
    private final String group = TestTopics.unique("tx-group");
    private final String ledger = TestTopics.unique("tx-ledger");
    private final List<AutoCloseable> closeables = new ArrayList<>();
    /** What every producer of this test does at a commit phase (a simulated crash, or nothing). */
    private final AtomicReference<TransactionPhase.Listener> phases = new AtomicReference<>(TransactionPhase.Listener.NONE);

    TransactionalShareIT(EmbeddedKafka kafka) throws Exception {
        this.kafka = kafka;
        kafka.createTopic(input, 1);
        kafka.createTopic(output, 1);
        configureGroup(kafka, group, 2000);
        produce(kafka, input, RECORDS);
    }

    @AfterEach
    void close() throws Exception {
        phases.set(TransactionPhase.Listener.NONE);
        for (AutoCloseable c : closeables) {
            c.close();
        }
    }

    private GaplessShareConsumer<String, String> consumer() {
        GaplessShareConsumer<String, String> c = new GaplessShareConsumer<>(consumerConfig(kafka, group, ledger));
        c.subscribe(List.of(input));
        closeables.add(c);
        return c;
    }

    private TransactionalShareProducer<String, String> producer(String txnId) {
        Map<String, Object> config = producerConfig(kafka, txnId, ledger);
        config.put(TransactionPhase.LISTENER_CONFIG, (TransactionPhase.Listener) phase -> phases.get().reached(phase));
        TransactionalShareProducer<String, String> p = new TransactionalShareProducer<>(config);
        closeables.add(p);
        p.initTransactions();
        return p;
    }

    private static ConsumerRecords<String, String> pollUntil(GaplessShareConsumer<String, String> c, int atLeast) {
        AtomicReference<ConsumerRecords<String, String>> got = new AtomicReference<>(ConsumerRecords.empty());
        await().pollInSameThread().atMost(Duration.ofSeconds(20)).until(() -> {
            ConsumerRecords<String, String> r = c.poll(Duration.ofMillis(200));
            got.set(r);
            return r.count() >= atLeast;
        });
        return got.get();
    }

    private static List<Long> offsets(ConsumerRecords<String, String> records) {
        List<Long> offsets = new ArrayList<>();
        records.forEach(r -> offsets.add(r.offset()));
        return offsets;
    }

    private List<String> pollAll(GaplessShareConsumer<String, String> c, int expected) {
        List<ConsumerRecord<String, String>> all = new ArrayList<>();
        while (all.size() < expected) {
            ConsumerRecords<String, String> r = pollUntil(c, 1);
            r.forEach(all::add);
        }
        return all.stream().map(ConsumerRecord::value).toList();
    }

    /** One transaction: transform every record and acknowledge the batch. */
    private static void process(TransactionalShareProducer<String, String> p, GaplessShareConsumer<String, String> c,
                                ConsumerRecords<String, String> records, String output) {
        p.beginTransaction();
        for (ConsumerRecord<String, String> r : records) {
            p.send(new ProducerRecord<>(output, r.key(), r.value()));
        }
        p.sendShareAcknowledgementsToTransaction(ShareAcknowledgements.fromRecords(records, AcknowledgeType.ACCEPT), c.shareGroupMetadata());
        p.commitTransaction();
    }

    private void drainAndCommit(TransactionalShareProducer<String, String> p, GaplessShareConsumer<String, String> c) throws Exception {
        await().pollInSameThread().atMost(Duration.ofSeconds(20)).until(() -> {
            ConsumerRecords<String, String> r = c.poll(Duration.ofMillis(200));
            if (!r.isEmpty()) {
                process(p, c, r, output);
            }
            return allAcknowledged(kafka, group, input);
        });
    }

    private void assertExactlyOnce() throws Exception {
        List<String> out = new ArrayList<>(committedValues(kafka, output));
        out.sort(null);
        List<String> expected = new ArrayList<>(IntStream.range(0, RECORDS).mapToObj(i -> "v" + i).toList());
        expected.sort(null);
        assertEquals(expected, out, "every input exactly once in the committed output");
        await().pollInSameThread().atMost(Duration.ofSeconds(20)).until(() -> allAcknowledged(kafka, group, input));
    }

    @Test
    void commitPublishesOutputAndAcknowledgesTheRecords() throws Exception {
        GaplessShareConsumer<String, String> c = consumer();
        TransactionalShareProducer<String, String> p = producer(TestTopics.unique("txn"));
        drainAndCommit(p, c);
        assertExactlyOnce();
    }

    @Test
    void rejectedRecordsAreArchivedWithTheCommitAndNeverComeBack() throws Exception {
        GaplessShareConsumer<String, String> c = consumer();
        TransactionalShareProducer<String, String> p = producer(TestTopics.unique("txn"));
        List<String> handedOut = new ArrayList<>();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!allAcknowledged(kafka, group, input) && System.nanoTime() < deadline) {
            ConsumerRecords<String, String> records = c.poll(Duration.ofMillis(200));
            if (records.isEmpty()) {
                continue;
            }
            p.beginTransaction();
            ShareAcknowledgements acks = new ShareAcknowledgements();
            for (ConsumerRecord<String, String> r : records) {
                handedOut.add(r.value());
                boolean reject = r.offset() % 2 == 1;
                if (!reject) {
                    p.send(new ProducerRecord<>(output, r.key(), r.value()));
                }
                acks.add(r, reject ? AcknowledgeType.REJECT : AcknowledgeType.ACCEPT);
            }
            p.sendShareAcknowledgementsToTransaction(acks, c.shareGroupMetadata());
            p.commitTransaction();
        }
        assertTrue(allAcknowledged(kafka, group, input), "every record accepted or archived");
        assertEquals(RECORDS, handedOut.size(), "no record handed out twice: " + handedOut);
        List<String> out = new ArrayList<>(committedValues(kafka, output));
        out.sort(null);
        assertEquals(List.of("v0", "v2", "v4", "v6", "v8"), out);
    }

    @Test
    void abortHidesOutputAndRedeliversTheRecords() throws Exception {
        GaplessShareConsumer<String, String> c = consumer();
        TransactionalShareProducer<String, String> p = producer(TestTopics.unique("txn"));
        ConsumerRecords<String, String> first = pollUntil(c, 1);
        p.beginTransaction();
        first.forEach(r -> p.send(new ProducerRecord<>(output, r.key(), r.value())));
        p.sendShareAcknowledgementsToTransaction(ShareAcknowledgements.fromRecords(first, AcknowledgeType.ACCEPT), c.shareGroupMetadata());
        p.abortTransaction();
        assertEquals(List.of(), committedValues(kafka, output));

        // KIP-1289: the aborted records return to their holder, their lock renewed: the next poll hands them out again,
        // in the same delivery (an abort costs no delivery).
        ConsumerRecords<String, String> again = pollUntil(c, 1);
        assertEquals(offsets(first), offsets(again), "the aborted records come back to their holder");
        assertEquals(first.iterator().next().deliveryCount(), again.iterator().next().deliveryCount(), "in the same delivery");
        process(p, c, again, output);
        drainAndCommit(p, c);
        assertExactlyOnce();
    }

    @Test
    void rejectsTypesOtherThanAcceptAndRejectBeforeStagingAnything() throws Exception {
        GaplessShareConsumer<String, String> c = consumer();
        TransactionalShareProducer<String, String> p = producer(TestTopics.unique("txn"));
        ConsumerRecords<String, String> records = pollUntil(c, 1);
        p.beginTransaction();
        for (AcknowledgeType bad : List.of(AcknowledgeType.RELEASE, AcknowledgeType.RENEW)) {
            InvalidRecordStateException e = assertThrows(InvalidRecordStateException.class, () -> p.sendShareAcknowledgementsToTransaction(
                    ShareAcknowledgements.fromRecords(records, bad), c.shareGroupMetadata()));
            assertTrue(e.getMessage().contains(bad.toString()), e.getMessage());
        }
        // Nothing was staged: the same records can still be acknowledged in this transaction.
        records.forEach(r -> p.send(new ProducerRecord<>(output, r.key(), r.value())));
        p.sendShareAcknowledgementsToTransaction(ShareAcknowledgements.fromRecords(records, AcknowledgeType.ACCEPT), c.shareGroupMetadata());
        p.commitTransaction();
        drainAndCommit(p, c);
        assertExactlyOnce();
    }

    @Test
    void outsideATransactionIsAnIllegalState() throws Exception {
        GaplessShareConsumer<String, String> c = consumer();
        TransactionalShareProducer<String, String> p = producer(TestTopics.unique("txn"));
        ConsumerRecords<String, String> records = pollUntil(c, 1);
        assertThrows(IllegalStateException.class, () -> p.sendShareAcknowledgementsToTransaction(
                ShareAcknowledgements.fromRecords(records, AcknowledgeType.ACCEPT), c.shareGroupMetadata()));
    }

    @Test
    void recordsTheConsumerDoesNotHoldAreRefusedByOffset() throws Exception {
        GaplessShareConsumer<String, String> c = consumer();
        TransactionalShareProducer<String, String> p = producer(TestTopics.unique("txn"));
        ConsumerRecords<String, String> records = pollUntil(c, 1);
        ConsumerRecord<String, String> r = records.iterator().next();
        p.beginTransaction();
        ShareAcknowledgements acks = new ShareAcknowledgements().add(r, AcknowledgeType.ACCEPT);
        acks.add(new org.apache.kafka.common.TopicIdPartition(kafka.topicId(input), 0, input), 999, AcknowledgeType.ACCEPT);
        InvalidRecordStateException e = assertThrows(InvalidRecordStateException.class,
                () -> p.sendShareAcknowledgementsToTransaction(acks, c.shareGroupMetadata()));
        assertTrue(e.getMessage().contains("@999 is not held"), e.getMessage());
        p.abortTransaction();
    }

    @Test
    void fencedProducerCannotCommitAndItsRecordsAreCommittedOnceByTheSuccessor() throws Exception {
        String txnId = TestTopics.unique("txn");
        GaplessShareConsumer<String, String> c = consumer();
        TransactionalShareProducer<String, String> zombie = producer(txnId);
        ConsumerRecords<String, String> records = pollUntil(c, 1);
        zombie.beginTransaction();
        records.forEach(r -> zombie.send(new ProducerRecord<>(output, r.key(), r.value())));
        zombie.sendShareAcknowledgementsToTransaction(ShareAcknowledgements.fromRecords(records, AcknowledgeType.ACCEPT), c.shareGroupMetadata());

        TransactionalShareProducer<String, String> successor = producer(txnId);
        assertThrows(ProducerFencedException.class, zombie::commitTransaction);
        assertThrows(ProducerFencedException.class, () -> zombie.sendShareAcknowledgementsToTransaction(
                new ShareAcknowledgements(), c.shareGroupMetadata()));
        drainAndCommit(successor, c);
        assertExactlyOnce();
    }

    @Test
    void redeliveryAfterCommitBeforeAcknowledgementIsSettledFromTheLedger() throws Exception {
        GaplessShareConsumer<String, String> crashed = new GaplessShareConsumer<>(consumerConfig(kafka, group, ledger));
        crashed.subscribe(List.of(input));
        TransactionalShareProducer<String, String> p = producer(TestTopics.unique("txn"));
        ConsumerRecords<String, String> records = pollUntil(crashed, 1);
        int firstBatch = records.count();
        // Crash point: the transaction committed, the acknowledgements never left the client.
        phases.set(phase -> {
            if (phase == TransactionPhase.COMMITTED) {
                throw new SimulatedCrash();
            }
        });
        assertThrows(SimulatedCrash.class, () -> process(p, crashed, records, output));
        phases.set(TransactionPhase.Listener.NONE);
        crashed.close(Duration.ZERO);

        GaplessShareConsumer<String, String> c = consumer();
        List<String> handedOut = new ArrayList<>();
        await().pollInSameThread().atMost(Duration.ofSeconds(20)).until(() -> {
            ConsumerRecords<String, String> r = c.poll(Duration.ofMillis(200));
            r.forEach(x -> handedOut.add(x.value()));
            if (!r.isEmpty()) {
                process(p, c, r, output);
            }
            return allAcknowledged(kafka, group, input);
        });
        // The committed batch came back (delivery 2) and was acknowledged without being handed out.
        assertEquals(RECORDS - firstBatch, handedOut.size(), "handed out again: " + handedOut);
        assertTrue(new HashSet<>(handedOut).size() == handedOut.size());
        assertExactlyOnce();
    }

    @Test
    void holderWhoseLockExpiredCannotCommitWhatTheNewHolderCommitted() throws Exception {
        GaplessShareConsumer<String, String> slow = consumer();
        TransactionalShareProducer<String, String> slowProducer = producer(TestTopics.unique("txn-slow"));
        ConsumerRecords<String, String> stale = pollUntil(slow, 1);
        slowProducer.beginTransaction();
        stale.forEach(r -> slowProducer.send(new ProducerRecord<>(output, r.key(), r.value())));
        slowProducer.sendShareAcknowledgementsToTransaction(ShareAcknowledgements.fromRecords(stale, AcknowledgeType.ACCEPT),
                slow.shareGroupMetadata());

        // While the slow holder stalls, its lock expires and another member takes the records.
        GaplessShareConsumer<String, String> fast = consumer();
        TransactionalShareProducer<String, String> fastProducer = producer(TestTopics.unique("txn-fast"));
        drainAndCommit(fastProducer, fast);

        InvalidRecordStateException e = assertThrows(InvalidRecordStateException.class, slowProducer::commitTransaction);
        assertTrue(e.getMessage().contains("aborted by the ack-ledger check"), e.getMessage());
        slowProducer.abortTransaction();
        assertExactlyOnce();
    }

    @Test
    void acknowledgerCommitsAcknowledgementsWithoutOutput() throws Exception {
        GaplessShareConsumer<String, String> c = consumer();
        Map<String, Object> config = producerConfig(kafka, TestTopics.unique("txn"), ledger);
        config.remove("key.serializer");
        config.remove("value.serializer");
        try (TransactionalShareAcknowledger acknowledger = new TransactionalShareAcknowledger(config)) {
            acknowledger.initTransactions();
            ConsumerRecords<String, String> first = pollUntil(c, 1);
            // A checkpoint that failed: abort, the records come back.
            assertThrows(InvalidRecordStateException.class, () -> acknowledger.commitAcknowledgements(
                    ShareAcknowledgements.fromRecords(first, AcknowledgeType.RELEASE), c.shareGroupMetadata()));
            int acknowledged = 0;
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (!allAcknowledged(kafka, group, input) && System.nanoTime() < deadline) {
                ConsumerRecords<String, String> r = c.poll(Duration.ofMillis(200));
                if (!r.isEmpty()) {
                    acknowledger.commitAcknowledgements(ShareAcknowledgements.fromRecords(r, AcknowledgeType.ACCEPT), c.shareGroupMetadata());
                    acknowledged += r.count();
                }
            }
            assertEquals(RECORDS, acknowledged);
            assertTrue(allAcknowledged(kafka, group, input));
        }
    }

    @Test
    void ledgerIsSnapshottedByBytesTruncatedAndMetered() throws Exception {
        Map<String, Object> config = producerConfig(kafka, TestTopics.unique("txn"), ledger);
        config.put(GaplessShareConfig.LEDGER_MAX_BYTES_BETWEEN_SNAPSHOTS_CONFIG, 1);
        TransactionalShareProducer<String, String> p = new TransactionalShareProducer<>(config);
        closeables.add(p);
        p.initTransactions();
        // Several transactions: the ledger check of each one reads the entries of the earlier ones,
        // whose bytes then trigger a snapshot after its commit.
        Map<String, Object> small = consumerConfig(kafka, group, ledger);
        small.put("max.poll.records", 3);
        small.put("share.acquire.mode", "record_limit");
        GaplessShareConsumer<String, String> c = new GaplessShareConsumer<>(small);
        closeables.add(c);
        c.subscribe(List.of(input));
        drainAndCommit(p, c);
        assertExactlyOnce();

        org.apache.kafka.common.MetricName name = p.metrics().keySet().stream()
                .filter(m -> m.name().equals("bytes-since-snapshot") && m.group().equals("gapless-share-ledger"))
                .findFirst().orElseThrow(() -> new AssertionError("no bytes-since-snapshot metric in " + p.metrics().keySet()));
        assertEquals(ledger, name.tags().get("topic"));
        org.apache.kafka.common.TopicPartition ledger0 = new org.apache.kafka.common.TopicPartition(ledger, 0);
        long logStart = kafka.admin().listOffsets(Map.of(ledger0, org.apache.kafka.clients.admin.OffsetSpec.earliest()))
                .partitionResult(ledger0).get().offset();
        assertTrue(logStart > 0, "records below the snapshot were deleted, log start " + logStart);

        // A fresh reader starts from the truncated log and still settles redeliveries from the snapshot.
        GaplessShareConsumer<String, String> late = consumer();
        assertEquals(0, late.poll(Duration.ofMillis(500)).count());
    }

    @Test
    void abortsAndRefusalsDoNotCostTheRecordsADelivery() throws Exception {
        // Hole 5: with share.delivery.count.limit=2, two releases archive a record; aborts keep the holder's lock instead.
        configureGroup(kafka, group, 2000, 2);
        GaplessShareConsumer<String, String> c = consumer();
        TransactionalShareProducer<String, String> p = producer(TestTopics.unique("txn"));
        List<Integer> handedOut = new ArrayList<>();
        for (int attempt = 0; attempt < 3; attempt++) {
            ConsumerRecords<String, String> records = ConsumerRecords.empty();
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (records.isEmpty() && System.nanoTime() < deadline) {
                records = c.poll(Duration.ofMillis(200));
            }
            handedOut.add(records.count());
            if (records.isEmpty()) {
                break;
            }
            ConsumerRecords<String, String> batch = records;
            p.beginTransaction();
            batch.forEach(r -> p.send(new ProducerRecord<>(output, r.key(), r.value())));
            p.sendShareAcknowledgementsToTransaction(ShareAcknowledgements.fromRecords(batch, AcknowledgeType.ACCEPT), c.shareGroupMetadata());
            p.abortTransaction();
        }
        assertEquals(3, handedOut.size(), "records handed out per attempt: " + handedOut);
        drainAndCommit(p, c);
        assertExactlyOnce();
    }

    @Test
    void aTransactionCannotSpanTheLedgersOfTwoShareGroups() throws Exception {
        // Hole 8: two ledger partitions in one transaction can wait on each other; each group has its own ledger topic.
        String otherGroup = TestTopics.unique("tx-other");
        configureGroup(kafka, otherGroup, 2000);
        Map<String, Object> first = consumerConfig(kafka, group, ledger);
        first.remove(GaplessShareConfig.LEDGER_TOPIC_CONFIG);
        Map<String, Object> second = consumerConfig(kafka, otherGroup, ledger);
        second.remove(GaplessShareConfig.LEDGER_TOPIC_CONFIG);
        GaplessShareConsumer<String, String> c1 = new GaplessShareConsumer<>(first);
        GaplessShareConsumer<String, String> c2 = new GaplessShareConsumer<>(second);
        closeables.add(c1);
        closeables.add(c2);
        c1.subscribe(List.of(input));
        c2.subscribe(List.of(input));
        Map<String, Object> config = producerConfig(kafka, TestTopics.unique("txn"), ledger);
        config.remove(GaplessShareConfig.LEDGER_TOPIC_CONFIG);
        TransactionalShareProducer<String, String> p = new TransactionalShareProducer<>(config);
        closeables.add(p);
        p.initTransactions();
        ConsumerRecords<String, String> r1 = pollUntil(c1, 1);
        ConsumerRecords<String, String> r2 = pollUntil(c2, 1);
        p.beginTransaction();
        p.sendShareAcknowledgementsToTransaction(ShareAcknowledgements.fromRecords(r1, AcknowledgeType.ACCEPT), c1.shareGroupMetadata());
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> p.sendShareAcknowledgementsToTransaction(
                ShareAcknowledgements.fromRecords(r2, AcknowledgeType.ACCEPT), c2.shareGroupMetadata()));
        assertTrue(e.getMessage().contains(group) && e.getMessage().contains(otherGroup), e.getMessage());
        p.commitTransaction();
    }

    private static final class SimulatedCrash extends RuntimeException {
        SimulatedCrash() {
            super("simulated crash");
        }
    }
}
