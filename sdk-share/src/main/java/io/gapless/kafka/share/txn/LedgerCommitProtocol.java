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

import io.gapless.kafka.core.spi.Authorization;
import io.gapless.kafka.share.ledger.AckLedger;
import io.gapless.kafka.share.ledger.LedgerHistoryLostException;
import io.gapless.kafka.share.ledger.LedgerConfirmation;
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
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.resource.ResourceType;
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
 * The emulated commit (see sdk-share/RATIONALE.md): write one ledger entry inside the open
 * transaction, read the ledger partition back up to it, and commit only if no entry before it
 * binds one of our records (a newer delivery, a committed acknowledgement, a start offset).
 * Entries before ours whose fate is still open are waited for; their holders are fenced when they
 * overlap our records (they hold an expired delivery), so a dead holder does not stall us.
 * The decisions are the static methods over a {@link LedgerIndex}, collected in a {@link Verdict};
 * the rest is ledger I/O.
 *
 * <p>A committed range binds every later delivery of its offsets under the same topic id: no
 * delivery count and no confirmation frees it (issue 22). Kafka 4.4 reports an acknowledgement of a
 * record below the share-partition start offset as success (ShareAcknowledgeFactsIT), and a stale
 * holder can hold a higher delivery count than the committed one, so neither can tell a later
 * incarnation of the group from a stale holder.
 */
final class LedgerCommitProtocol implements ShareTransaction.LedgerCheck {
    private static final Logger log = LoggerFactory.getLogger(LedgerCommitProtocol.class);

    private final AckLedger ledger;
    private final LedgerBindingCheck binding;
    private final Producer<byte[], byte[]> producer;
    private final String transactionalId;
    private final TransactionPhase.Listener phases;
    /** Confirmations no committed entry carries yet, per ledger partition. */
    private final Map<TopicPartition, List<LedgerConfirmation>> pending = new HashMap<>();
    /** The entry written by the last {@link #writeAndCheck}: its partition, its offset, the confirmations it carried. */
    private TopicPartition lastPartition;
    private long lastOffset = -1;
    private List<LedgerConfirmation> carried = List.of();
    // What the last entry holds, and whom, for a check that goes on after a timeout.
    private boolean written;
    private Map<ShareKey, List<LedgerRange>> lastOurs = Map.of();
    private Map<ShareAckParticipant, Map<TopicIdPartition, List<LedgerRange>>> lastStaged = Map.of();

    LedgerCommitProtocol(AckLedger ledger, Producer<byte[], byte[]> producer, String transactionalId, TransactionPhase.Listener phases) {
        this(ledger, producer, transactionalId, phases, null);
    }

    /** @param binding keeps each group on the ledger that holds its history; null for none (tests) */
    LedgerCommitProtocol(AckLedger ledger, Producer<byte[], byte[]> producer, String transactionalId, TransactionPhase.Listener phases,
                         LedgerBindingCheck binding) {
        this.binding = binding;
        this.ledger = ledger;
        this.producer = producer;
        this.transactionalId = transactionalId;
        this.phases = phases;
    }

    @Override
    public void admit(String group, Set<String> stagedGroups) {
        TopicPartition mine = ledger.partitionOf(group);
        for (String other : stagedGroups) {
            TopicPartition theirs = ledger.partitionOf(other);
            if (!theirs.equals(mine)) {
                // Two ledger partitions in one transaction can wait on each other (each entry waits
                // for the entries below it); one share group's records per ledger keeps commits live.
                throw new IllegalStateException("Records of share group " + group + " (ack ledger " + mine + ") cannot join a transaction "
                        + "that holds records of share group " + other + " (ack ledger " + theirs + "): a transaction acknowledges "
                        + "records of one ack ledger only; commit them in separate transactions, or give the groups one shared ledger "
                        + "topic (" + ShareTransactionConfigs.LEDGER_TOPIC_CONFIG + ")");
            }
        }
        if (binding != null) {
            binding.check(group);
        } else {
            ledger.ensureSafe(group);
        }
    }

    @Override
    public CommitCheck writeAndCheck(Map<ShareAckParticipant, Map<TopicIdPartition, List<LedgerRange>>> staged, long deadlineNanos) {
        // One entry: the transaction has one offset in its ledger partition, below which every
        // conflicting entry lies (see RATIONALE: the last stable offset can then pass them).
        written = false;
        String group = staged.keySet().iterator().next().metadata().groupId();
        TopicPartition p = ledger.partitionOf(group);
        Map<ShareKey, List<LedgerRange>> ours = new LinkedHashMap<>();
        staged.forEach((participant, ranges) -> ranges.forEach((tip, list) ->
                ours.computeIfAbsent(ShareKey.of(participant.metadata().groupId(), tip), k -> new ArrayList<>()).addAll(list)));
        carried = List.copyOf(pending.getOrDefault(p, List.of()));
        long own;
        try {
            Future<RecordMetadata> send = producer.send(ledger.entryRecord(p, group, new LedgerEntry(transactionalId, ours, carried)));
            producer.flush();
            own = await(send, deadlineNanos).offset();
        } catch (KafkaException e) {
            throw Authorization.explainOrRethrow(e, "Write on topic " + p.topic() + " (the ack ledger)", ResourceType.TOPIC, p.topic());
        }
        lastPartition = p;
        lastOffset = own;
        lastOurs = ours;
        lastStaged = staged;
        written = true;
        phases.reached(TransactionPhase.LEDGER_WRITTEN);
        return decideOrLost(group, () -> {
            appendedAfterWhatWasRead(p, own);
            return decide(staged, p, own, ours, deadlineNanos);
        });
    }

    /**
     * Our entry was appended after every record this producer's "all" view has read, so its offset
     * is at least the view's position, on a log that kept its records. An offset below it means the
     * ledger topic was deleted and created again (by the broker's auto-creation, when our entry
     * went to a topic that no longer existed) and the commits the view read are gone (issue 22,
     * finding 8); the check would otherwise answer from the old topic's index. Only before the
     * first read-back: afterwards the view may have read past our entry.
     */
    private void appendedAfterWhatWasRead(TopicPartition p, long own) {
        long read = ledger.uncommitted().position(p);
        if (own < read) {
            throw new LedgerHistoryLostException("Ack-ledger partition " + p + " gave this transaction's entry offset " + own
                    + ", below offset " + read + ", which this producer had already read: the ledger topic was deleted and created"
                    + " again (the broker auto-creates it for the entry), and the history of the commits it checked is gone");
        }
    }

    // A reader that found the ledger shorter than it had read: the binding is checked again before the next commit.
    private CommitCheck decideOrLost(String group, java.util.function.Supplier<CommitCheck> decision) {
        try {
            return decision.get();
        } catch (LedgerHistoryLostException e) {
            if (binding != null) {
                binding.recheck(group);
            }
            throw e;
        }
    }

    @Override
    public boolean entryWritten() {
        return written;
    }

    @Override
    public CommitCheck recheck(long deadlineNanos) {
        if (!written) {
            throw new IllegalStateException("No ledger entry to go on checking");
        }
        String group = lastStaged.keySet().iterator().next().metadata().groupId();
        return decideOrLost(group, () -> decide(lastStaged, lastPartition, lastOffset, lastOurs, deadlineNanos));
    }

    private CommitCheck decide(Map<ShareAckParticipant, Map<TopicIdPartition, List<LedgerRange>>> staged, TopicPartition p, long own,
                               Map<ShareKey, List<LedgerRange>> ours, long deadlineNanos) {
        Verdict verdict = check(p, own, ours, deadlineNanos);
        if (verdict.clear()) {
            return CommitCheck.clear();
        }
        keepWhereTopicsWereRecreated(staged, verdict);
        log.info("Ack-ledger check refused commit of transactional.id {}: {}", transactionalId, verdict.reasons);
        return new CommitCheck(true, String.join("; ", verdict.reasons), onAbort(staged, verdict));
    }

    private Verdict check(TopicPartition p, long own, Map<ShareKey, List<LedgerRange>> ours, long deadlineNanos) {
        Verdict verdict = new Verdict();
        // 1. Read back every entry up to our own, whatever its transaction's fate.
        // Up to our own offset (known from the send), not to a listed end: no ListOffsets on the commit path.
        LedgerView all = ledger.uncommitted();
        ledger.meter(p);
        all.catchUpTo(p, own + 1, deadlineNanos);
        List<LedgerRange> earlier = staleHolder(all.index(p), ours, own, verdict);
        if (!verdict.clear() || !fatesMatter(earlier, all.complete(p))) {
            return verdict;
        }
        // 2. Wait until every earlier entry's transaction is resolved.
        LedgerView committed = awaitFates(p, own, earlier, deadlineNanos);
        // 3. With every earlier fate known: a binding committed entry holding one of our records means it is done.
        committedElsewhere(committed.index(p), ours, own, verdict);
        return verdict;
    }

    /**
     * Step 2: the committed view's position is the last stable offset it passed; once it reaches our
     * own entry, every entry below it has a known fate. Meanwhile the holder of an overlapping entry
     * that holds the last stable offset is fenced: that entry is still open (each transaction writes
     * one entry, its first record on the ledger partition), and it holds a delivery older than ours,
     * so it could only commit a duplicate. Entries above the last stable offset may be resolved
     * already; their producers are never fenced (issue 22, finding 5: a healthy producer whose entry
     * committed long ago was fenced because this view's position was stale).
     */
    private LedgerView awaitFates(TopicPartition p, long own, List<LedgerRange> earlier, long deadlineNanos) {
        LedgerView committed = ledger.committed();
        Set<String> fenced = new HashSet<>();
        // An incomplete view (restarted after truncation, covering snapshot not read yet) must not answer.
        while (committed.position(p) < own || !committed.complete(p)) {
            if (System.nanoTime() > deadlineNanos) {
                throw new TimeoutException("Timed out waiting for earlier transactions on ack ledger " + p
                        + " to resolve (position " + committed.position(p) + ", own entry at " + own + ")");
            }
            // Read what is stable now: the position then sits at the last stable offset (below ours while an earlier entry is open).
            committed.catchUpToEnd(p, deadlineNanos);
            long stable = committed.position(p);
            if (stable >= own && committed.complete(p)) {
                break;
            }
            for (LedgerRange other : earlier) {
                if (other.ledgerOffset() == stable && !other.transactionalId().equals(transactionalId)
                        && fenced.add(other.transactionalId())) {
                    ledger.fence(other.transactionalId());
                }
            }
            committed.pollOnce(Duration.ofMillis(50));
        }
        return committed;
    }

    /**
     * Whether steps 3 and 4 (wait for the fates below our entry, decide on the committed ones) can
     * change the verdict, given the overlapping entries {@code earlier} the complete "all" view
     * showed below our own: only those can bind us (RATIONALE, "Why no record is committed twice":
     * every committed entry below ours is in the all view, read directly or through a snapshot
     * (compacted below its watermark, which the read-back already refused), or below a claim the
     * read-back already checked). An incomplete view proves nothing.
     */
    static boolean fatesMatter(List<LedgerRange> earlier, boolean viewComplete) {
        return !viewComplete || !earlier.isEmpty();
    }

    /**
     * Step 1's decision, over every entry read up to our own at {@code own}: where a range a
     * snapshot compacted holds an offset, its output is committed (snapshots hold committed ranges
     * only), so ours is refused and the offset settled as recorded, without waiting for fates. Our
     * delivery is over where an offset lies below a claim ({@link LedgerIndex#claimedBelow}), or an
     * earlier entry holds it with a higher delivery count (our lock expired; someone received it
     * after us): those offsets are released. Returns the earlier entries' ranges that overlap ours.
     */
    static List<LedgerRange> staleHolder(LedgerIndex seen, Map<ShareKey, List<LedgerRange>> ours, long own, Verdict verdict) {
        List<LedgerRange> earlier = new ArrayList<>();
        for (Map.Entry<ShareKey, List<LedgerRange>> e : ours.entrySet()) {
            for (LedgerRange mine : e.getValue()) {
                belowStart(seen, e.getKey(), mine, verdict);
                for (LedgerRange other : seen.overlapping(e.getKey(), mine.first(), mine.last(), own)) {
                    if (other.compacted()) {
                        // Committed, its fate known: decided here, nothing to wait for.
                        recordedElsewhere(e.getKey(), mine, other, verdict);
                        continue;
                    }
                    if (other.deliveryCount() > mine.deliveryCount()) {
                        verdict.release(e.getKey(), overlap(mine, other), describe(e.getKey(), mine) + " was redelivered (delivery "
                                + other.deliveryCount() + " staged by transactional.id " + other.transactionalId()
                                + "): this holder's lock had expired");
                    }
                    earlier.add(other);
                }
            }
        }
        return earlier;
    }

    /**
     * Step 3's decision, over the committed entries below our own at {@code own} (every fate known).
     * A committed range of the same share-partition (topic id included) holding one of our offsets
     * binds it, whatever its delivery count and whether or not a confirmation says the group
     * accepted it: the record's output is committed, so ours is refused and the record settled with
     * the type the committed entry recorded. A delivery count proves nothing about incarnations
     * (issue 22: a stale holder may hold a higher count than the committed one, and Kafka reports
     * an acknowledgement below the start offset as success). Offsets below a snapshot's start are
     * released.
     */
    static void committedElsewhere(LedgerIndex done, Map<ShareKey, List<LedgerRange>> ours, long own, Verdict verdict) {
        for (Map.Entry<ShareKey, List<LedgerRange>> e : ours.entrySet()) {
            ShareKey key = e.getKey();
            for (LedgerRange mine : e.getValue()) {
                belowStart(done, key, mine, verdict);
                for (LedgerRange other : done.overlapping(key, mine.first(), mine.last(), own)) {
                    recordedElsewhere(key, mine, other, verdict);
                }
            }
        }
    }

    // A committed range (as written, or compacted by a snapshot) holds offsets of ours: settled as it recorded.
    private static void recordedElsewhere(ShareKey key, LedgerRange mine, LedgerRange other, Verdict verdict) {
        long[] range = overlap(mine, other);
        verdict.recorded(key, range, AcknowledgeType.forId(other.ackType()), key.topic() + "-" + key.partition()
                + " offsets " + range[0] + ".." + range[1] + " were already committed by "
                + (other.compacted() ? "entries a snapshot compacted (up to ledger offset " + other.ledgerOffset() + ")"
                : "transactional.id " + other.transactionalId())
                + " (delivery " + other.deliveryCount() + "; this one " + mine.deliveryCount() + ")");
    }

    /**
     * Offsets below a claim ({@link LedgerIndex#claimedBelow}: the topic id is gone, or a snapshot
     * from before compaction dropped their ranges) count as handled: our delivery of them is over,
     * whatever its count. A watermark alone is no such claim: below the start offset a snapshot
     * read, only a (compacted) range is evidence of processing (issue 22: a group initialized at
     * {@code latest} and reset to the beginning gets a backlog nobody processed).
     */
    private static void belowStart(LedgerIndex index, ShareKey key, LedgerRange mine, Verdict verdict) {
        long claimed = index.claimedBelow(key);
        if (mine.first() < claimed) {
            long[] range = {mine.first(), Math.min(mine.last(), claimed - 1)};
            verdict.release(key, range, describe(key, mine) + " lies below "
                    + (claimed == Long.MAX_VALUE ? "every offset (its topic id no longer exists)"
                    : "offset " + claimed + ", which a snapshot written before compaction claims acknowledged"));
        }
    }

    /**
     * A refusal must not settle records "as recorded" by ranges of an old topic id: where a
     * participant's topic was re-created (a fresh lookup shows another id), its records are kept
     * (renewed) and come back under the new id.
     */
    private static void keepWhereTopicsWereRecreated(Map<ShareAckParticipant, Map<TopicIdPartition, List<LedgerRange>>> staged,
                                                     Verdict verdict) {
        staged.forEach((participant, ranges) -> ranges.keySet().forEach(tip -> {
            ShareKey key = ShareKey.of(participant.metadata().groupId(), tip);
            if (verdict.settle.containsKey(key) && !participant.topicIdCurrent(tip)) {
                verdict.settle.remove(key);
                verdict.reasons.add("topic " + tip.topic() + " was re-created (topic id " + tip.topicId()
                        + " is gone): its records are kept and come back under the new topic id");
            }
        }));
    }

    /** After a refusal: each staged offset settles as the verdict says, RENEW (kept for the holder) where it says nothing. */
    static Map<ShareAckParticipant, Map<TopicIdPartition, Map<Long, AcknowledgeType>>> onAbort(
            Map<ShareAckParticipant, Map<TopicIdPartition, List<LedgerRange>>> staged, Verdict verdict) {
        Map<ShareAckParticipant, Map<TopicIdPartition, Map<Long, AcknowledgeType>>> onAbort = new LinkedHashMap<>();
        staged.forEach((participant, ranges) -> {
            Map<TopicIdPartition, Map<Long, AcknowledgeType>> settle = new LinkedHashMap<>();
            ranges.forEach((tip, list) -> {
                Map<Long, AcknowledgeType> done = verdict.settle.getOrDefault(ShareKey.of(participant.metadata().groupId(), tip), Map.of());
                Map<Long, AcknowledgeType> byOffset = new LinkedHashMap<>();
                for (LedgerRange r : list) {
                    for (long o = r.first(); o <= r.last(); o++) {
                        byOffset.put(o, done.getOrDefault(o, AcknowledgeType.RENEW));
                    }
                }
                settle.put(tip, byOffset);
            });
            onAbort.put(participant, settle);
        });
        return onAbort;
    }

    @Override
    public void afterCommit(Map<ShareAckParticipant, Set<TopicIdPartition>> landed, long timeoutMs) {
        if (lastPartition == null) {
            return;
        }
        List<LedgerConfirmation> queue = pending.computeIfAbsent(lastPartition, p -> new ArrayList<>());
        queue.removeAll(carried);
        queue.addAll(confirmations(lastStaged, landed, lastOffset));
        try {
            ledger.maybeSnapshot(lastPartition, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs));
        } catch (KafkaException e) {
            log.warn("Ack-ledger snapshot of {} failed, will retry after a later commit: {}", lastPartition, e.toString());
        }
    }

    /**
     * The confirmations an entry at {@code entryOffset} earned: a share-partition is confirmed only
     * when every participant that staged records of it had its acknowledgements accepted (one
     * participant's success says nothing of another's records; issue 22, finding 1). Confirmations
     * are informative (inspection); no decision rests on them.
     */
    static List<LedgerConfirmation> confirmations(Map<ShareAckParticipant, Map<TopicIdPartition, List<LedgerRange>>> staged,
                                                  Map<ShareAckParticipant, Set<TopicIdPartition>> landed, long entryOffset) {
        Map<ShareKey, Boolean> all = new LinkedHashMap<>();
        staged.forEach((participant, ranges) -> ranges.keySet().forEach(tip -> all.merge(
                ShareKey.of(participant.metadata().groupId(), tip), landed.getOrDefault(participant, Set.of()).contains(tip),
                Boolean::logicalAnd)));
        List<LedgerConfirmation> out = new ArrayList<>();
        all.forEach((key, ok) -> {
            if (ok) {
                out.add(new LedgerConfirmation(key, entryOffset));
            }
        });
        return out;
    }

    @Override
    public void close() {
        // The last transactions' confirmations ride in no later entry: write them on their own.
        pending.forEach((p, list) -> ledger.writeConfirmations(p, list, Duration.ofSeconds(5)));
        pending.clear();
        Utils.closeQuietly(ledger, "ack ledger");
    }

    private static long[] overlap(LedgerRange mine, LedgerRange other) {
        return new long[]{Math.max(mine.first(), other.first()), Math.min(mine.last(), other.last())};
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

    /**
     * What the check decided: the reasons to refuse, and per share-partition offset how to settle
     * it (the type a committed entry recorded, or RELEASE where our delivery is over); offsets it
     * says nothing about are kept for their holder.
     */
    static final class Verdict {
        final Set<String> reasons = new TreeSet<>();
        final Map<ShareKey, Map<Long, AcknowledgeType>> settle = new HashMap<>();

        boolean clear() {
            return reasons.isEmpty();
        }

        /** Offsets another committed transaction holds: acknowledged as it recorded (wins over a release). */
        void recorded(ShareKey key, long[] range, AcknowledgeType type, String reason) {
            Map<Long, AcknowledgeType> m = settle.computeIfAbsent(key, k -> new HashMap<>());
            for (long o = range[0]; o <= range[1]; o++) {
                m.put(o, type);
            }
            reasons.add(reason);
        }

        /** Offsets whose delivery is over: released (their lock is gone, or a newer delivery has to tell). */
        void release(ShareKey key, long[] range, String reason) {
            Map<Long, AcknowledgeType> m = settle.computeIfAbsent(key, k -> new HashMap<>());
            for (long o = range[0]; o <= range[1]; o++) {
                m.putIfAbsent(o, AcknowledgeType.RELEASE);
            }
            reasons.add(reason);
        }

        /** The recorded types of offsets another committed transaction holds (for tests and logs). */
        Map<ShareKey, Map<Long, AcknowledgeType>> doneElsewhere() {
            Map<ShareKey, Map<Long, AcknowledgeType>> done = new HashMap<>();
            settle.forEach((key, m) -> m.forEach((o, t) -> {
                if (t != AcknowledgeType.RELEASE) {
                    done.computeIfAbsent(key, k -> new HashMap<>()).put(o, t);
                }
            }));
            return done;
        }
    }
}
