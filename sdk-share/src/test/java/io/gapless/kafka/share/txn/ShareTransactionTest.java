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

import io.gapless.kafka.share.ledger.LedgerRange;
import io.gapless.kafka.share.ledger.LedgerSettings;
import io.gapless.kafka.share.txn.ShareRecords.RecordingShareConsumer;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.InvalidRecordStateException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import static io.gapless.kafka.share.txn.ShareRecords.batch;
import static io.gapless.kafka.share.txn.ShareRecords.records;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The commit protocol of a transactional share producer (its transaction state machine) on Kafka's
 * MockProducer and MockShareConsumer: what is acknowledged on the consumer after a commit, an
 * abort, a ledger refusal, a timeout, a fencing; the ledger itself is a scripted fake here.
 */
class ShareTransactionTest {
    private static final TopicPartition TP = new TopicPartition("in", 0);
    private static final TopicIdPartition TIP = new TopicIdPartition(Uuid.randomUuid(), TP);

    private final RecordingShareConsumer kafkaConsumer = new RecordingShareConsumer();
    private final MockProducer<byte[], byte[]> producer = new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
    private final List<TransactionPhase> phases = new ArrayList<>();
    private final FakeLedger ledger = new FakeLedger();
    private ConsumerTransactionSupport<String, String> consumer;

    /** The ledger check's verdicts, in order; records what it was asked. */
    private static final class FakeLedger implements ShareTransaction.LedgerCheck {
        final List<Function<Map<ShareAckParticipant, Map<TopicIdPartition, List<LedgerRange>>>, CommitCheck>> verdicts = new ArrayList<>();
        final List<Map<TopicIdPartition, List<LedgerRange>>> checked = new ArrayList<>();
        int afterCommits;
        int rechecks;
        boolean written = true;

        @Override
        public CommitCheck writeAndCheck(Map<ShareAckParticipant, Map<TopicIdPartition, List<LedgerRange>>> staged, long deadlineNanos) {
            // A copy: what was staged when the check ran, not what is staged later.
            staged.values().forEach(m -> {
                Map<TopicIdPartition, List<LedgerRange>> copy = new LinkedHashMap<>();
                m.forEach((tip, list) -> copy.put(tip, List.copyOf(list)));
                checked.add(copy);
            });
            return verdicts.isEmpty() ? CommitCheck.clear() : verdicts.remove(0).apply(staged);
        }

        @Override
        public void admit(String group, java.util.Set<String> stagedGroups) {
        }

        @Override
        public boolean entryWritten() {
            return written;
        }

        @Override
        public CommitCheck recheck(long deadlineNanos) {
            rechecks++;
            return verdicts.isEmpty() ? CommitCheck.clear() : verdicts.remove(0).apply(Map.of());
        }

        @Override
        public void afterCommit(Map<ShareAckParticipant, java.util.Set<TopicIdPartition>> landed, long timeoutMs) {
            afterCommits++;
        }

        @Override
        public void close() {
        }
    }

    @AfterEach
    void close() {
        if (consumer != null) {
            consumer.close();
        }
    }

    private ShareTransaction transaction(AckPath path) {
        consumer = new ConsumerTransactionSupport<>(path, kafkaConsumer, "g", "c", Map.of(),
                new LedgerSettings("ledger.", null, (short) -1, 1024), topic -> TIP.topicId());
        consumer.hold(records(TP, 0, 1, 2));
        producer.initTransactions();
        return new ShareTransaction(producer, "txn", 1_000, path, NativeSupport.unsupported(),
                path == AckPath.LEDGER ? ledger : null, phases::add);
    }

    private static Map<TopicIdPartition, List<AcknowledgementBatch>> acceptTwoRejectOne() {
        Map<TopicIdPartition, List<AcknowledgementBatch>> acks = new LinkedHashMap<>();
        acks.put(TIP, List.of(new AcknowledgementBatch(0, 1, AcknowledgeType.ACCEPT), new AcknowledgementBatch(2, 2, AcknowledgeType.REJECT)));
        return acks;
    }

    @Test
    void aCommitAcknowledgesEveryRecordAsStagedAndCommitsTheAcknowledgements() {
        ShareTransaction tx = transaction(AckPath.AT_LEAST_ONCE);
        tx.begin();
        tx.stage(acceptTwoRejectOne(), consumer.metadata());
        assertEquals(List.of(), kafkaConsumer.acks, "nothing is acknowledged before the commit");
        tx.commit();
        assertTrue(producer.transactionCommitted());
        assertEquals(List.of("0:ACCEPT", "1:ACCEPT", "2:REJECT"), kafkaConsumer.acks);
        assertEquals(1, kafkaConsumer.commits);
        assertEquals(List.of(TransactionPhase.COMMITTED, TransactionPhase.ACKNOWLEDGED), phases);
    }

    @Test
    void theLedgerPathChecksBeforeTheCommitAndSnapshotsAfterIt() {
        ShareTransaction tx = transaction(AckPath.LEDGER);
        tx.begin();
        tx.stage(acceptTwoRejectOne(), consumer.metadata());
        tx.commit();
        assertEquals(List.of(Map.of(TIP, List.of(new LedgerRange(-1, "txn", 0, 1, AcknowledgeType.ACCEPT.id, (short) 1),
                new LedgerRange(-1, "txn", 2, 2, AcknowledgeType.REJECT.id, (short) 1)))), ledger.checked);
        assertEquals(List.of(TransactionPhase.CHECKED, TransactionPhase.COMMITTED, TransactionPhase.ACKNOWLEDGED), phases);
        assertEquals(1, ledger.afterCommits);
        assertEquals(List.of("0:ACCEPT", "1:ACCEPT", "2:REJECT"), kafkaConsumer.acks);
    }

    @Test
    void aRefusalAbortsSettlesWhatIsCommittedElsewhereAndReleasesTheRest() {
        ShareTransaction tx = transaction(AckPath.LEDGER);
        ledger.verdicts.add(staged -> {
            Map<ShareAckParticipant, Map<TopicIdPartition, Map<Long, AcknowledgeType>>> onAbort = new LinkedHashMap<>();
            Map<Long, AcknowledgeType> offsets = new LinkedHashMap<>();
            offsets.put(0L, AcknowledgeType.ACCEPT); // recorded by another transaction
            offsets.put(1L, AcknowledgeType.RELEASE);
            staged.keySet().forEach(p -> onAbort.put(p, Map.of(TIP, offsets)));
            return new CommitCheck(true, "in-0 offsets 0..0 were already committed by transactional.id other", onAbort);
        });
        tx.begin();
        tx.stage(batch(TIP, 0, 1, AcknowledgeType.ACCEPT), consumer.metadata());
        InvalidRecordStateException e = assertThrows(InvalidRecordStateException.class, tx::commit);
        assertTrue(e.getMessage().contains("aborted by the ack-ledger check") && e.getMessage().contains("transactional.id other"),
                e.getMessage());
        assertTrue(producer.transactionAborted());
        assertFalse(producer.transactionCommitted());
        assertEquals(List.of("0:ACCEPT", "1:RELEASE"), kafkaConsumer.acks);
        tx.abort(); // the application's abort after the exception: nothing left to undo
        assertEquals(List.of("0:ACCEPT", "1:RELEASE"), kafkaConsumer.acks);
        assertEquals(List.of(), phases);
        tx.begin(); // the producer goes on
    }

    @Test
    void aCommitTimeoutKeepsTheStagedRecordsAndTheRetryCommitsWithoutCheckingAgain() {
        ShareTransaction tx = transaction(AckPath.LEDGER);
        tx.begin();
        tx.stage(batch(TIP, 0, 2, AcknowledgeType.ACCEPT), consumer.metadata());
        producer.commitTransactionException = new TimeoutException("commit timed out");
        assertThrows(TimeoutException.class, tx::commit);
        assertEquals(List.of(), kafkaConsumer.acks, "the transaction's fate is open: nothing settled, nothing released");
        producer.commitTransactionException = null;
        tx.commit();
        assertEquals(1, ledger.checked.size(), "the ledger check passed once; Kafka's retried commit is not checked again");
        assertEquals(List.of("0:ACCEPT", "1:ACCEPT", "2:ACCEPT"), kafkaConsumer.acks);
    }

    @Test
    void aLedgerCheckThatCannotWriteItsEntryAbortsAndKeepsTheRecords() {
        ShareTransaction tx = transaction(AckPath.LEDGER);
        ledger.written = false;
        ledger.verdicts.add(staged -> {
            throw new TimeoutException("the ledger entry was not acknowledged in time");
        });
        tx.begin();
        tx.stage(batch(TIP, 0, 1, AcknowledgeType.ACCEPT), consumer.metadata());
        assertThrows(TimeoutException.class, tx::commit);
        assertTrue(producer.transactionAborted());
        assertEquals(List.of("0:RENEW", "1:RENEW"), kafkaConsumer.acks);
    }

    @Test
    void aLedgerCheckThatTimesOutAfterItsEntryIsRetriedLikeKafkasCommit() {
        ShareTransaction tx = transaction(AckPath.LEDGER);
        ledger.verdicts.add(staged -> {
            throw new TimeoutException("earlier transactions did not resolve");
        });
        tx.begin();
        tx.stage(batch(TIP, 0, 1, AcknowledgeType.ACCEPT), consumer.metadata());
        assertThrows(TimeoutException.class, tx::commit);
        assertFalse(producer.transactionAborted(), "the entry is written: the transaction stays open for the retry");
        assertEquals(List.of(), kafkaConsumer.acks);
        assertThrows(IllegalStateException.class, () -> tx.stage(batch(TIP, 2, 2, AcknowledgeType.ACCEPT), consumer.metadata()));
        tx.commit();
        assertEquals(1, ledger.rechecks, "the retry goes on checking the entry already written");
        assertEquals(1, ledger.checked.size(), "no second entry in the same transaction");
        assertTrue(producer.transactionCommitted());
        assertEquals(List.of("0:ACCEPT", "1:ACCEPT"), kafkaConsumer.acks);
    }

    @Test
    void aFencedProducerLeavesItsRecordsWithTheConsumerAndStagesNothingMore() {
        ShareTransaction tx = transaction(AckPath.AT_LEAST_ONCE);
        tx.begin();
        tx.stage(batch(TIP, 0, 1, AcknowledgeType.ACCEPT), consumer.metadata());
        producer.commitTransactionException = new ProducerFencedException("a newer instance took over");
        assertThrows(ProducerFencedException.class, tx::commit);
        assertEquals(List.of("0:RENEW", "1:RENEW"), kafkaConsumer.acks);
        ProducerFencedException again = assertThrows(ProducerFencedException.class,
                () -> tx.stage(batch(TIP, 2, 2, AcknowledgeType.ACCEPT), consumer.metadata()));
        assertTrue(again.getMessage().contains("was fenced"), again.getMessage());
    }

    @Test
    void anEpochBumpedByTheCoordinatorIsReportedAsFencing() {
        ShareTransaction tx = transaction(AckPath.AT_LEAST_ONCE);
        tx.begin();
        tx.stage(batch(TIP, 0, 0, AcknowledgeType.ACCEPT), consumer.metadata());
        producer.commitTransactionException = new KafkaException("The producer is in an error state",
                new InvalidProducerEpochException("epoch bumped"));
        ProducerFencedException e = assertThrows(ProducerFencedException.class, tx::commit);
        assertInstanceOf(KafkaException.class, e.getCause());
        assertEquals(List.of("0:RENEW"), kafkaConsumer.acks);
    }

    @Test
    void anyOtherCommitFailureKeepsTheRecords() {
        ShareTransaction tx = transaction(AckPath.AT_LEAST_ONCE);
        tx.begin();
        tx.stage(batch(TIP, 0, 1, AcknowledgeType.ACCEPT), consumer.metadata());
        producer.commitTransactionException = new KafkaException("broker said no");
        assertThrows(KafkaException.class, tx::commit);
        assertEquals(List.of("0:RENEW", "1:RENEW"), kafkaConsumer.acks);
    }

    @Test
    void anAbortKeepsEveryStagedRecord() {
        ShareTransaction tx = transaction(AckPath.LEDGER);
        tx.begin();
        tx.stage(acceptTwoRejectOne(), consumer.metadata());
        tx.abort();
        assertTrue(producer.transactionAborted());
        assertEquals(List.of("0:RENEW", "1:RENEW", "2:RENEW"), kafkaConsumer.acks);
        assertEquals(List.of(), ledger.checked, "no ledger entry for an aborted transaction");
    }

    @Test
    void aTransactionWithoutAcknowledgementsIsAPlainCommit() {
        ShareTransaction tx = transaction(AckPath.LEDGER);
        tx.begin();
        tx.commit();
        assertTrue(producer.transactionCommitted());
        assertEquals(List.of(), ledger.checked);
        assertEquals(0, kafkaConsumer.commits);
    }

    @Test
    void aClosedConsumerCannotTakePartAnyMore() {
        ShareTransaction tx = transaction(AckPath.AT_LEAST_ONCE);
        ShareGroupMetadata metadata = consumer.metadata();
        consumer.close();
        tx.begin();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> tx.stage(batch(TIP, 0, 0, AcknowledgeType.ACCEPT), metadata));
        assertTrue(e.getMessage().contains("does not belong to an open GaplessShareConsumer"), e.getMessage());
    }

    /** A second member of the same group, holding {@code offsets} of TP in delivery {@code delivery}. */
    private ConsumerTransactionSupport<String, String> secondMember(RecordingShareConsumer kafka, int delivery, long... offsets) {
        ConsumerTransactionSupport<String, String> other = new ConsumerTransactionSupport<>(AckPath.LEDGER, kafka, "g", "c2", Map.of(),
                new LedgerSettings("ledger.", null, (short) -1, 1024), topic -> TIP.topicId());
        List<org.apache.kafka.clients.consumer.ConsumerRecord<String, String>> list = new ArrayList<>();
        for (long o : offsets) {
            list.add(ShareRecords.record(TP, o, delivery));
        }
        other.hold(new org.apache.kafka.clients.consumer.ConsumerRecords<>(Map.of(TP, list), Map.of()));
        return other;
    }

    @Test
    void oneRecordFromTwoConsumersOfTheGroupCannotJoinOneTransaction() {
        // Hole 2: C1 holds r in delivery 1 (its lock expired), C2 of the same group got r in delivery 2.
        ShareTransaction tx = transaction(AckPath.LEDGER);
        RecordingShareConsumer kafka2 = new RecordingShareConsumer();
        try (ConsumerTransactionSupport<String, String> c2 = secondMember(kafka2, 2, 1)) {
            tx.begin();
            tx.stage(batch(TIP, 1, 1, AcknowledgeType.ACCEPT), consumer.metadata());
            InvalidRecordStateException refused = null;
            try {
                tx.stage(batch(TIP, 1, 1, AcknowledgeType.ACCEPT), c2.metadata());
            } catch (InvalidRecordStateException e) {
                refused = e;
            }
            tx.commit();
            List<String> acks = new ArrayList<>(kafkaConsumer.acks);
            acks.addAll(kafka2.acks);
            assertEquals(List.of("1:ACCEPT"), acks, "in-0@1 committed in one transaction for two consumers of group g");
            assertTrue(refused != null && refused.getMessage().contains("in-0@1"), String.valueOf(refused));
            assertEquals(List.of(), kafka2.acks, "the second member's staging was refused as a whole: nothing of it settled");
        }
    }

    @Test
    void anAbortKeepsTheHoldersLocksWithRenew() {
        // Hole 5: KIP-1289 returns aborted records to ACQUIRED with their holder; a release burns a delivery.
        ShareTransaction tx = transaction(AckPath.LEDGER);
        tx.begin();
        tx.stage(batch(TIP, 0, 1, AcknowledgeType.ACCEPT), consumer.metadata());
        tx.abort();
        assertEquals(List.of("0:RENEW", "1:RENEW"), kafkaConsumer.acks, "an aborted transaction must not cost its records a delivery");
    }

    @Test
    void nothingCanBeStagedWhileATimedOutCommitMustBeRetried() {
        // Hole 7: Kafka's contract: a commitTransaction() that timed out must be retried (or aborted).
        ShareTransaction tx = transaction(AckPath.LEDGER);
        tx.begin();
        tx.stage(batch(TIP, 0, 1, AcknowledgeType.ACCEPT), consumer.metadata());
        producer.commitTransactionException = new TimeoutException("commit timed out");
        assertThrows(TimeoutException.class, tx::commit);
        producer.commitTransactionException = null;
        IllegalStateException refused = null;
        try {
            tx.stage(batch(TIP, 2, 2, AcknowledgeType.ACCEPT), consumer.metadata());
        } catch (IllegalStateException e) {
            refused = e;
        }
        tx.commit();
        boolean inLedger = ledger.checked.stream().flatMap(m -> m.values().stream()).flatMap(List::stream).anyMatch(r -> r.contains(2));
        assertTrue(refused != null || inLedger, "in-0@2 was committed (acknowledged: " + kafkaConsumer.acks
                + ") without a ledger entry; the ledger saw only " + ledger.checked);
        assertTrue(refused != null && refused.getMessage().contains("must be retried"), String.valueOf(refused));
        assertEquals(List.of("0:ACCEPT", "1:ACCEPT"), kafkaConsumer.acks);
    }

    @Test
    void aProducerClosedAfterATimedOutCommitLeavesItsConsumerAbleToPoll() {
        // Issue 22, finding 6: Kafka refuses abortTransaction() after a commit timed out; an application that gives up and
        // closes the producer must not leave the consumer refusing every poll because its records stay staged.
        ShareTransaction tx = transaction(AckPath.LEDGER);
        tx.begin();
        tx.stage(batch(TIP, 0, 1, AcknowledgeType.ACCEPT), consumer.metadata());
        producer.commitTransactionException = new TimeoutException("commit timed out");
        assertThrows(TimeoutException.class, tx::commit);
        assertThrows(IllegalStateException.class, consumer::beforePoll, "staged: the consumer waits for the retried commit");
        tx.close();
        consumer.beforePoll();
        assertEquals(List.of("0:RENEW", "1:RENEW", "2:RELEASE"), kafkaConsumer.acks,
                "the staged records renewed (the ledger decides their redelivery), the one no transaction took released");
    }
}
