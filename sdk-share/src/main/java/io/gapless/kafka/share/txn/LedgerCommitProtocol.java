package io.gapless.kafka.share.txn;

import io.gapless.kafka.share.ledger.AckLedger;
import io.gapless.kafka.share.ledger.LedgerEntry;
import io.gapless.kafka.share.ledger.LedgerIndex;
import io.gapless.kafka.share.ledger.LedgerRange;
import io.gapless.kafka.share.ledger.LedgerView;
import io.gapless.kafka.share.ledger.ShareKey;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.utils.Utils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The emulated commit (see sdk-share/RATIONALE.md): write one ledger entry per ledger partition
 * inside the open transaction, read the partition back up to it, and commit only if no entry
 * before it holds one of our records with a newer delivery or a committed acknowledgement.
 * Entries before ours whose fate is still open are waited for; their holders are fenced when
 * they overlap our records (they hold an expired delivery), so a dead holder does not stall us.
 * The decisions are the static methods over a {@link LedgerIndex}; the rest is ledger I/O.
 */
final class LedgerCommitProtocol implements ShareTransaction.LedgerCheck {
    private static final Logger log = LoggerFactory.getLogger(LedgerCommitProtocol.class);

    private final AckLedger ledger;
    private final Producer<byte[], byte[]> producer;
    private final String transactionalId;
    private final TransactionPhase.Listener phases;
    /** Ledger partitions an entry was written to by the last {@link #writeAndCheck}. */
    private final Set<Integer> touched = new TreeSet<>();

    LedgerCommitProtocol(AckLedger ledger, Producer<byte[], byte[]> producer, String transactionalId, TransactionPhase.Listener phases) {
        this.ledger = ledger;
        this.producer = producer;
        this.transactionalId = transactionalId;
        this.phases = phases;
    }

    @Override
    public CommitCheck writeAndCheck(Map<ShareAckParticipant, Map<TopicIdPartition, List<LedgerRange>>> staged, long deadlineNanos) {
        touched.clear();
        // One entry per ledger partition: a transaction has one offset there, below which every
        // conflicting entry lies (see RATIONALE: the last stable offset can then pass them).
        Map<Integer, Map<ShareKey, List<LedgerRange>>> byPartition = new LinkedHashMap<>();
        Map<Integer, String> groupOf = new HashMap<>();
        staged.forEach((participant, ranges) -> {
            String group = participant.metadata().groupId();
            int p = ledger.partitionFor(group);
            groupOf.putIfAbsent(p, group);
            Map<ShareKey, List<LedgerRange>> entry = byPartition.computeIfAbsent(p, x -> new LinkedHashMap<>());
            ranges.forEach((tip, list) -> entry.computeIfAbsent(ShareKey.of(group, tip), k -> new ArrayList<>()).addAll(list));
        });
        Map<Integer, Future<RecordMetadata>> sends = new LinkedHashMap<>();
        byPartition.forEach((p, ranges) -> sends.put(p,
                producer.send(ledger.entryRecord(p, groupOf.get(p), new LedgerEntry(transactionalId, ranges)))));
        producer.flush();
        Map<Integer, Long> offsets = new LinkedHashMap<>();
        for (Map.Entry<Integer, Future<RecordMetadata>> e : sends.entrySet()) {
            offsets.put(e.getKey(), await(e.getValue(), deadlineNanos).offset());
            touched.add(e.getKey());
        }
        phases.reached(TransactionPhase.LEDGER_WRITTEN);

        Map<ShareKey, Map<Long, AcknowledgeType>> doneElsewhere = new HashMap<>();
        Set<String> reasons = new TreeSet<>();
        for (Map.Entry<Integer, Long> e : offsets.entrySet()) {
            check(e.getKey(), e.getValue(), byPartition.get(e.getKey()), deadlineNanos, doneElsewhere, reasons);
        }
        if (reasons.isEmpty()) {
            return CommitCheck.clear();
        }
        return new CommitCheck(true, String.join("; ", reasons), onAbort(staged, doneElsewhere));
    }

    private void check(int p, long own, Map<ShareKey, List<LedgerRange>> ours, long deadlineNanos,
                       Map<ShareKey, Map<Long, AcknowledgeType>> doneElsewhere, Set<String> reasons) {
        // 1. Read back every entry up to our own, whatever its transaction's fate.
        LedgerView all = ledger.uncommitted();
        all.catchUpTo(p, own + 1, deadlineNanos);
        List<LedgerRange> earlier = staleHolder(all.index(p), ours, own, reasons);
        if (!reasons.isEmpty()) {
            return;
        }
        // 2. Wait until every earlier entry's transaction is resolved.
        LedgerView committed = awaitFates(p, own, earlier, deadlineNanos);
        // 3. With every earlier fate known: a committed entry holding one of our records means it is done.
        committedElsewhere(committed.index(p), ours, own, doneElsewhere, reasons);
        if (!reasons.isEmpty()) {
            log.info("Ack-ledger check refused commit of transactional.id {}: {}", transactionalId, reasons);
        }
    }

    /**
     * Step 2: the committed view's position is the last stable offset it passed; once it reaches our
     * own entry, every entry below it has a known fate. Meanwhile the holders of overlapping open
     * entries are fenced: they hold a delivery older than ours, so they could only commit a duplicate.
     */
    private LedgerView awaitFates(int p, long own, List<LedgerRange> earlier, long deadlineNanos) {
        LedgerView committed = ledger.committed();
        ledger.meter(p);
        Set<String> fenced = new HashSet<>();
        // An incomplete view (restarted after truncation, snapshot not read yet) must not answer.
        while (committed.position(p) < own || !committed.complete(p)) {
            if (System.nanoTime() > deadlineNanos) {
                throw new TimeoutException("Timed out waiting for earlier transactions on ack ledger " + ledger.topic() + "-" + p
                        + " to resolve (position " + committed.position(p) + ", own entry at " + own + ")");
            }
            long position = committed.position(p);
            for (LedgerRange other : earlier) {
                if (other.ledgerOffset() >= position && !other.transactionalId().equals(transactionalId)
                        && fenced.add(other.transactionalId())) {
                    ledger.fence(other.transactionalId());
                }
            }
            committed.pollOnce(Duration.ofMillis(50));
        }
        return committed;
    }

    /**
     * Step 1's decision, over every entry read up to our own at {@code own}: our delivery is over
     * where an offset lies below the share-partition start a snapshot recorded, or an earlier entry
     * holds it with a higher delivery count (our lock expired; someone received it after us).
     * Adds those reasons; returns the earlier entries' ranges that overlap ours.
     */
    static List<LedgerRange> staleHolder(LedgerIndex seen, Map<ShareKey, List<LedgerRange>> ours, long own, Set<String> reasons) {
        List<LedgerRange> earlier = new ArrayList<>();
        for (Map.Entry<ShareKey, List<LedgerRange>> e : ours.entrySet()) {
            for (LedgerRange mine : e.getValue()) {
                refuseBelowStart(seen, e.getKey(), mine, ": this holder's lock had expired", reasons);
                for (LedgerRange other : seen.overlapping(e.getKey(), mine.first(), mine.last(), own)) {
                    if (other.deliveryCount() > mine.deliveryCount()) {
                        reasons.add(describe(e.getKey(), mine) + " was redelivered (delivery " + other.deliveryCount()
                                + " staged by transactional.id " + other.transactionalId() + "): this holder's lock had expired");
                    }
                    earlier.add(other);
                }
            }
        }
        return earlier;
    }

    /**
     * Step 3's decision, over the committed entries below our own at {@code own} (every fate known):
     * offsets a committed entry holds are done elsewhere, with the type it recorded; offsets below a
     * snapshot's start are done too. Adds the reasons and the recorded types.
     */
    static void committedElsewhere(LedgerIndex done, Map<ShareKey, List<LedgerRange>> ours, long own,
                                   Map<ShareKey, Map<Long, AcknowledgeType>> doneElsewhere, Set<String> reasons) {
        for (Map.Entry<ShareKey, List<LedgerRange>> e : ours.entrySet()) {
            for (LedgerRange mine : e.getValue()) {
                refuseBelowStart(done, e.getKey(), mine, "", reasons);
                for (LedgerRange other : done.overlapping(e.getKey(), mine.first(), mine.last(), own)) {
                    long from = Math.max(mine.first(), other.first());
                    long to = Math.min(mine.last(), other.last());
                    Map<Long, AcknowledgeType> map = doneElsewhere.computeIfAbsent(e.getKey(), k -> new HashMap<>());
                    for (long o = from; o <= to; o++) {
                        map.put(o, AcknowledgeType.forId(other.ackType()));
                    }
                    reasons.add(e.getKey().topic() + "-" + e.getKey().partition() + " offsets " + from + ".." + to
                            + " were already committed by transactional.id " + other.transactionalId());
                }
            }
        }
    }

    /** Offsets below the share-partition start a snapshot recorded are acknowledged or archived for good. */
    private static void refuseBelowStart(LedgerIndex index, ShareKey key, LedgerRange mine, String consequence, Set<String> reasons) {
        long watermark = index.watermark(key);
        if (mine.first() < watermark) {
            reasons.add(describe(key, mine) + " lies below the share-partition start offset " + watermark + " (already acknowledged)"
                    + consequence);
        }
    }

    /** After a refusal: offsets done elsewhere are acknowledged as recorded, every other staged offset released. */
    static Map<ShareAckParticipant, Map<TopicIdPartition, Map<Long, AcknowledgeType>>> onAbort(
            Map<ShareAckParticipant, Map<TopicIdPartition, List<LedgerRange>>> staged, Map<ShareKey, Map<Long, AcknowledgeType>> doneElsewhere) {
        Map<ShareAckParticipant, Map<TopicIdPartition, Map<Long, AcknowledgeType>>> onAbort = new LinkedHashMap<>();
        staged.forEach((participant, ranges) -> {
            Map<TopicIdPartition, Map<Long, AcknowledgeType>> settle = new LinkedHashMap<>();
            ranges.forEach((tip, list) -> {
                Map<Long, AcknowledgeType> done = doneElsewhere.getOrDefault(ShareKey.of(participant.metadata().groupId(), tip), Map.of());
                Map<Long, AcknowledgeType> byOffset = new LinkedHashMap<>();
                for (LedgerRange r : list) {
                    for (long o = r.first(); o <= r.last(); o++) {
                        byOffset.put(o, done.getOrDefault(o, AcknowledgeType.RELEASE));
                    }
                }
                settle.put(tip, byOffset);
            });
            onAbort.put(participant, settle);
        });
        return onAbort;
    }

    @Override
    public void afterCommit(long timeoutMs) {
        for (int p : touched) {
            try {
                ledger.maybeSnapshot(p, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs));
            } catch (KafkaException e) {
                log.warn("Ack-ledger snapshot of partition {} failed, will retry after a later commit: {}", p, e.toString());
            }
        }
    }

    @Override
    public void close() {
        Utils.closeQuietly(ledger, "ack ledger");
    }

    private static String describe(ShareKey key, LedgerRange r) {
        return key.topic() + "-" + key.partition() + " offsets " + r.first() + ".." + r.last() + " (delivery " + r.deliveryCount() + ")";
    }

    private static RecordMetadata await(Future<RecordMetadata> future, long deadlineNanos) {
        try {
            return future.get(Math.max(1, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaException("Interrupted while writing the ack ledger", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof KafkaException ke) {
                throw ke;
            }
            throw new KafkaException("Writing the ack ledger failed", e.getCause());
        } catch (java.util.concurrent.TimeoutException e) {
            throw new TimeoutException("Timed out writing the ack ledger", e);
        }
    }
}
