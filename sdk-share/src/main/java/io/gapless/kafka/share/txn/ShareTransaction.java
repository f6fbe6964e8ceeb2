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

import io.gapless.kafka.share.ledger.LedgerHistoryLostException;
import io.gapless.kafka.share.ledger.LedgerRange;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.errors.InvalidRecordStateException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The transaction state machine of one {@link TransactionalShareProducer}, on the path chosen at
 * its construction: staging share acknowledgements, committing (after the ledger check on
 * {@link AckPath#LEDGER}), aborting, and what a fenced producer may still do. Settles staged
 * records on their consumers once their fate is known. Used from the producer's thread.
 *
 * <p>States: no transaction, open ({@code inTransaction}), checked ({@code verified}: the ledger
 * check passed, so a {@code commitTransaction()} retried after a timeout commits without checking
 * again), commit pending ({@code commitPending}: Kafka's {@code commitTransaction()} timed out; by
 * Kafka's producer contract only a retry may follow, the transaction's fate is open and nothing can
 * be staged), check pending ({@code checkPending}: the ledger check timed out after the entry was
 * written; a retried {@code commitTransaction()} continues it, an abort is allowed, nothing can be
 * staged), fenced (final). A {@code TimeoutException} from {@code commitTransaction()} therefore
 * always means what it means for Kafka's producer: call it again.
 *
 * <p>A transaction that does not commit keeps its records with their consumer (RENEW: KIP-1289
 * returns aborted records to their holder, and a release would cost each a delivery); only the
 * ledger check's verdict releases a record whose delivery is over, or settles one another
 * transaction committed.
 */
final class ShareTransaction {
    private static final Logger log = LoggerFactory.getLogger(ShareTransaction.class);
    private final Producer<byte[], byte[]> producer;
    private final String transactionalId;
    private final long maxBlockMs;
    private final AckPath path;
    private final NativeShareTransactions nativeSupport;
    private final LedgerCheck ledgerCheck;
    private final TransactionPhase.Listener phases;
    private final ModeGuard modeGuard;
    private final StagedAcks staged = new StagedAcks();
    // The path of the open transaction: the producer's, or, for a producer that could go native, its consumers'.
    private AckPath txPath;
    private boolean inTransaction;
    private boolean verified;
    private boolean commitPending;
    // The ledger check timed out after the entry was written: a retried commit continues that check.
    private boolean checkPending;
    private boolean fenced;

    /** @param ledgerCheck the ledger check, on {@link AckPath#LEDGER} only (else null) */
    ShareTransaction(Producer<byte[], byte[]> producer, String transactionalId, long maxBlockMs, AckPath path,
                     NativeShareTransactions nativeSupport, LedgerCheck ledgerCheck, TransactionPhase.Listener phases) {
        this(producer, transactionalId, maxBlockMs, path, nativeSupport, ledgerCheck, phases, groups -> { });
    }

    /**
     * @param ledgerCheck the ledger check, on {@link AckPath#LEDGER} (and on {@link AckPath#NATIVE},
     *                    for consumers that still emulate), else null
     * @param modeGuard   refuses emulated commits into groups that moved to native KIP-1289
     */
    ShareTransaction(Producer<byte[], byte[]> producer, String transactionalId, long maxBlockMs, AckPath path,
                     NativeShareTransactions nativeSupport, LedgerCheck ledgerCheck, TransactionPhase.Listener phases,
                     ModeGuard modeGuard) {
        this.modeGuard = modeGuard;
        this.txPath = path;
        this.producer = producer;
        this.transactionalId = transactionalId;
        this.maxBlockMs = maxBlockMs;
        this.path = path;
        this.nativeSupport = nativeSupport;
        this.ledgerCheck = ledgerCheck;
        this.phases = phases;
    }

    void begin() {
        guardFenced(producer::beginTransaction);
        inTransaction = true;
        verified = false;
        txPath = path;
    }

    /** See {@link TransactionalShareProducer#sendShareAcknowledgementsToTransaction(ShareAcknowledgements, ShareGroupMetadata)}. */
    void stage(ShareAcknowledgements acknowledgements, ShareGroupMetadata metadata) {
        Objects.requireNonNull(acknowledgements, "acknowledgements");
        stage(acknowledgements.batches(), metadata, acknowledgements);
    }

    /** See {@link TransactionalShareProducer#sendShareAcknowledgementsToTransaction(Map, ShareGroupMetadata)}. */
    void stage(Map<TopicIdPartition, List<AcknowledgementBatch>> acknowledgements, ShareGroupMetadata metadata) {
        stage(acknowledgements, metadata, null);
    }

    // asGiven: the acknowledgements in Kafka's shape, handed to Kafka as they are on the native path.
    private void stage(Map<TopicIdPartition, List<AcknowledgementBatch>> acknowledgements, ShareGroupMetadata metadata,
                       ShareAcknowledgements asGiven) {
        Objects.requireNonNull(acknowledgements, "acknowledgements");
        Objects.requireNonNull(metadata, "metadata");
        if (transactionalId == null) {
            throw new IllegalStateException("Share acknowledgements need a transactional producer: set transactional.id");
        }
        if (fenced) {
            throw Fencing.alreadyFenced(transactionalId);
        }
        if (commitPending || checkPending) {
            throw new IllegalStateException("The previous commitTransaction() of transactional.id " + transactionalId
                    + " timed out and must be retried: its transaction's fate is open, so nothing can be staged in it "
                    + "(Kafka's producer contract); call commitTransaction() again");
        }
        if (!inTransaction) {
            throw new IllegalStateException("No transaction in progress: call beginTransaction() before "
                    + "sendShareAcknowledgementsToTransaction()");
        }
        acknowledgements.forEach((tip, batches) -> {
            for (AcknowledgementBatch b : batches) {
                if (b.acknowledgeType() != AcknowledgeType.ACCEPT && b.acknowledgeType() != AcknowledgeType.REJECT) {
                    throw new InvalidRecordStateException("Acknowledge type " + b.acknowledgeType() + " for " + tip.topicPartition()
                            + " offsets " + b.firstOffset() + ".." + b.lastOffset()
                            + " is not allowed in a transaction: only ACCEPT and REJECT are");
                }
            }
        });
        if (path == AckPath.NATIVE && metadata.participant() == null) {
            // Transactional mode's records are still in flight on Kafka's consumer: it hands them over itself.
            ShareAcknowledgements kafkaShaped = metadata.nativeDrain() != null ? metadata.nativeDrain().drain(acknowledgements)
                    : asGiven != null ? asGiven : ShareAcknowledgements.ofBatches(acknowledgements);
            nativeSupport.sendShareAcknowledgementsToTransaction(producer, kafkaShaped, metadata);
            return;
        }
        ShareAckParticipant participant = ShareAckParticipant.of(metadata);
        // A producer that could go native serves consumers that still emulate (their group has not moved) their way.
        AckPath wanted = path == AckPath.NATIVE ? participant.path() : path;
        if (!staged.isEmpty() && wanted != txPath) {
            throw new IllegalArgumentException("One transaction cannot stage acknowledgements delivered " + txPath + " and " + wanted
                    + " (" + metadata + ")");
        }
        if (wanted == AckPath.LEDGER) {
            try {
                ledgerCheck.admit(participant.metadata().groupId(), staged.groups());
            } catch (LedgerHistoryLostException e) {
                // Nothing of this group commits until an operator acts: its consumer stops too (it would only spend deliveries).
                participant.refuse(e);
                throw e;
            }
        }
        Map<TopicIdPartition, List<LedgerRange>> ranges = participant.stage(acknowledgements, transactionalId);
        List<String> clashes = staged.heldByOthers(participant, ranges);
        if (!clashes.isEmpty()) {
            participant.unstage(ranges);
            throw new InvalidRecordStateException("Cannot acknowledge in this transaction: "
                    + String.join("; ", clashes.subList(0, Math.min(10, clashes.size())))
                    + (clashes.size() > 10 ? " (and " + (clashes.size() - 10) + " more)" : "")
                    + ". The lock of one of the two deliveries expired; nothing of this call was staged.");
        }
        txPath = wanted;
        staged.add(participant, ranges);
    }

    /** See {@link TransactionalShareProducer#commitTransaction()}. */
    void commit() {
        if (staged.isEmpty() || txPath == AckPath.NATIVE) {
            guardFenced(this::commitKafka);
            inTransaction = false;
            return;
        }
        if (txPath == AckPath.LEDGER && !verified) {
            commitChecked();
            return;
        }
        Map<ShareAckParticipant, Set<TopicIdPartition>> landed = commitAndSettle();
        if (txPath == AckPath.LEDGER) {
            ledgerCheck.afterCommit(landed, maxBlockMs);
        }
    }

    // Ledger commits never go into a group that moved to native; read after our entry is written (see AckModeRegistry).
    private void guardMode() {
        List<String> groups = staged.view().keySet().stream().map(p -> p.metadata().groupId()).distinct().toList();
        try {
            modeGuard.check(groups);
        } catch (UnsupportedVersionException e) {
            staged.view().keySet().forEach(p -> p.refuse(e));
            throw e;
        }
    }

    private void commitChecked() {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(maxBlockMs);
        CommitCheck check;
        try {
            check = checkPending ? ledgerCheck.recheck(deadline) : ledgerCheck.writeAndCheck(staged.view(), deadline);
            checkPending = false;
            if (!check.conflict()) {
                guardMode();
                verified = true;
                phases.reached(TransactionPhase.CHECKED);
                Map<ShareAckParticipant, Set<TopicIdPartition>> landed = commitAndSettle();
                // The transaction is committed; a snapshot problem must not look like a commit failure.
                ledgerCheck.afterCommit(landed, maxBlockMs);
                return;
            }
        } catch (ProducerFencedException e) {
            onFenced();
            throw e;
        } catch (KafkaException e) {
            if (Fencing.isFatal(e)) {
                throw fenced(e);
            }
            if (commitPending) {
                throw e;
            }
            if (e instanceof TimeoutException && ledgerCheck.entryWritten()) {
                // Kafka's contract for a commit that timed out holds here too: retry it (the check goes on) or abort.
                checkPending = true;
                throw e;
            }
            checkPending = false;
            if (e instanceof LedgerHistoryLostException) {
                staged.view().keySet().forEach(p -> p.refuse(e));
            }
            abortQuietly(e);
            throw e;
        }
        refuse(check);
    }

    // The ledger found a record committed elsewhere or redelivered: abort ourselves, settle what it says.
    private void refuse(CommitCheck check) {
        producer.abortTransaction();
        inTransaction = false;
        staged.settleRefused(check.onAbort());
        throw new InvalidRecordStateException("Transaction of transactional.id " + transactionalId
                + " was aborted by the ack-ledger check: " + check.reason()
                + ". Records committed elsewhere were acknowledged as recorded, records whose delivery is over released, "
                + "the others kept for this consumer's next poll.");
    }

    // Kafka's commit; a timeout leaves the transaction's fate open and the retry mandatory.
    private void commitKafka() {
        try {
            producer.commitTransaction();
            commitPending = false;
        } catch (TimeoutException e) {
            commitPending = true;
            throw e;
        }
    }

    private Map<ShareAckParticipant, Set<TopicIdPartition>> commitAndSettle() {
        try {
            commitKafka();
        } catch (ProducerFencedException e) {
            onFenced();
            throw e;
        } catch (TimeoutException e) {
            // Kafka allows retrying commitTransaction() after a timeout; keep the staged records.
            throw e;
        } catch (KafkaException e) {
            if (Fencing.isFatal(e)) {
                throw fenced(e);
            }
            renewStaged();
            throw e;
        }
        inTransaction = false;
        phases.reached(TransactionPhase.COMMITTED);
        Map<ShareAckParticipant, Set<TopicIdPartition>> landed = staged.settleCommitted();
        phases.reached(TransactionPhase.ACKNOWLEDGED);
        return landed;
    }

    /** See {@link TransactionalShareProducer#abortTransaction()}. */
    void abort() {
        if (commitPending) {
            // Kafka refuses this (the timed-out commit must be retried); should it ever allow it, the transaction is aborted.
            guardFenced(producer::abortTransaction);
            commitPending = false;
            inTransaction = false;
            renewStaged();
            return;
        }
        if (!inTransaction) {
            // Already aborted (by the ledger check or a failed commit): nothing left to undo.
            return;
        }
        checkPending = false;
        try {
            guardFenced(producer::abortTransaction);
        } finally {
            inTransaction = false;
            renewStaged();
        }
    }

    /**
     * The producer is closing. A transaction still open, or a commit that timed out and was not
     * retried (Kafka refuses its abort), leaves records staged on consumers that would otherwise
     * refuse every later poll: they are renewed and unstaged (issue 22, finding 6). Whatever the
     * transaction's fate, the ledger decides their redelivery: a committed entry acknowledges them
     * as recorded, an aborted one lets them be processed again.
     */
    void close() {
        if (inTransaction || commitPending) {
            log.info("Producer of transactional.id {} closed with a transaction {}; its staged records are renewed for their consumers",
                    transactionalId, commitPending ? "whose commit timed out" : "open");
            inTransaction = false;
            commitPending = false;
            checkPending = false;
            renewStaged();
        }
    }

    private void abortQuietly(KafkaException cause) {
        try {
            producer.abortTransaction();
        } catch (KafkaException e) {
            cause.addSuppressed(e);
        }
        inTransaction = false;
        renewStaged();
    }

    private void renewStaged() {
        staged.renewAll();
        verified = false;
    }

    private void onFenced() {
        fenced = true;
        inTransaction = false;
        commitPending = false;
        checkPending = false;
        // The consumer goes on with a new producer: its records stay with it.
        renewStaged();
    }

    private void guardFenced(Runnable call) {
        try {
            call.run();
        } catch (ProducerFencedException e) {
            onFenced();
            throw e;
        } catch (KafkaException e) {
            if (Fencing.isFatal(e)) {
                throw fenced(e);
            }
            throw e;
        }
    }

    // The producer's epoch was bumped: its transaction is gone (the coordinator aborted it) and it cannot continue.
    private ProducerFencedException fenced(KafkaException cause) {
        if (!(cause instanceof ProducerFencedException)) {
            try {
                producer.abortTransaction();
            } catch (KafkaException | IllegalStateException ignored) {
                // Fenced producers cannot abort; the coordinator already aborted the transaction.
            }
        }
        onFenced();
        return Fencing.epochBumped(transactionalId, cause);
    }

    /** Refuses emulated commits into share groups that moved to native KIP-1289. */
    @FunctionalInterface
    interface ModeGuard {
        /**
         * @throws UnsupportedVersionException naming a group that moved (its consumers are refused from then on)
         * @throws KafkaException               when it cannot tell (the transaction aborts, nothing is refused)
         */
        void check(List<String> groups);
    }

    /** The ledger side of {@link AckPath#LEDGER}: {@link LedgerCommitProtocol}, or a test's fake. */
    interface LedgerCheck extends AutoCloseable {
        /**
         * Lets records of {@code group} join a transaction that holds records of {@code stagedGroups}:
         * they must share one ledger partition, whose topic must be safe.
         *
         * @throws IllegalStateException when they do not, or the ledger topic is unsafe (naming it and the setting)
         */
        void admit(String group, Set<String> stagedGroups);

        /**
         * Writes the ledger entries of {@code staged} into the open transaction and checks them.
         *
         * @throws KafkaException (incl. ProducerFencedException, TimeoutException) when it cannot decide
         */
        CommitCheck writeAndCheck(Map<ShareAckParticipant, Map<TopicIdPartition, List<LedgerRange>>> staged, long deadlineNanos);

        /** Whether the last {@link #writeAndCheck} wrote its entry (a timeout after that leaves the transaction checkable). */
        boolean entryWritten();

        /** Goes on with the check of the entry the last {@link #writeAndCheck} wrote, which timed out. */
        CommitCheck recheck(long deadlineNanos);

        /**
         * After the commit: records which acknowledgements landed ({@code landed}, per consumer) and
         * snapshots what the last check touched, where due, within {@code timeoutMs}; logs failures.
         */
        void afterCommit(Map<ShareAckParticipant, Set<TopicIdPartition>> landed, long timeoutMs);

        @Override
        void close();
    }
}
