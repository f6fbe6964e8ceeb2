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

import io.gapless.kafka.share.ledger.LedgerEntry;
import io.gapless.kafka.share.ledger.LedgerIndex;
import io.gapless.kafka.share.ledger.LedgerIndexes;
import io.gapless.kafka.share.ledger.LedgerRange;
import io.gapless.kafka.share.ledger.LedgerSettings;
import io.gapless.kafka.share.ledger.ShareKey;
import io.gapless.kafka.share.txn.LedgerCommitProtocol.Verdict;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.MockShareConsumer;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The decisions of the ledger commit check (sdk-share/RATIONALE.md, steps 2 and 4), over ledger indexes built by hand. */
class LedgerCommitProtocolTest {
    private static final TopicIdPartition TIP = new TopicIdPartition(Uuid.randomUuid(), 0, "in");
    private static final ShareKey KEY = ShareKey.of("g", TIP);
    private static final long OWN = 10;

    private static LedgerRange range(long ledgerOffset, String txn, long first, long last, AcknowledgeType type, int delivery) {
        return new LedgerRange(ledgerOffset, txn, first, last, type.id, (short) delivery);
    }

    private static LedgerIndex index(LedgerRange... ranges) {
        LedgerIndex index = new LedgerIndex();
        for (LedgerRange r : ranges) {
            index.addEntry(new LedgerEntry(r.transactionalId(), Map.of(KEY, List.of(r))), 64);
        }
        return index;
    }

    private static Map<ShareKey, List<LedgerRange>> ours(long first, long last, int delivery) {
        return Map.of(KEY, List.of(range(OWN, "me", first, last, AcknowledgeType.ACCEPT, delivery)));
    }

    @Test
    void anEarlierEntryWithANewerDeliveryMeansOurLockExpired() {
        Verdict verdict = new Verdict();
        List<LedgerRange> earlier = LedgerCommitProtocol.staleHolder(index(range(4, "newer", 5, 6, AcknowledgeType.ACCEPT, 2)),
                ours(0, 5, 1), OWN, verdict);
        Set<String> reasons = verdict.reasons;
        assertEquals(1, reasons.size(), reasons.toString());
        assertTrue(reasons.iterator().next().contains("was redelivered (delivery 2 staged by transactional.id newer)"), reasons.toString());
        assertEquals(1, earlier.size());
        assertEquals(Map.of(KEY, Map.of(5L, AcknowledgeType.RELEASE)), verdict.settle, "our delivery of offset 5 is over: released");
    }

    @Test
    void anEarlierEntryWithAnOlderDeliveryIsOnlyWaitedFor() {
        Verdict verdict = new Verdict();
        List<LedgerRange> earlier = LedgerCommitProtocol.staleHolder(index(
                range(3, "older", 0, 2, AcknowledgeType.ACCEPT, 1),
                range(5, "elsewhere", 7, 9, AcknowledgeType.ACCEPT, 1),
                range(12, "later", 0, 5, AcknowledgeType.ACCEPT, 3)), ours(0, 5, 2), OWN, verdict);
        assertEquals(Set.of(), verdict.reasons, "no refusal before the fates are known");
        assertEquals(List.of("older"), earlier.stream().map(LedgerRange::transactionalId).toList(),
                "only overlapping entries below our own are waited for (and their holders fenced)");
    }

    @Test
    void aCommittedEntryHoldingOurRecordsRefusesAndRecordsItsTypes() {
        Verdict verdict = new Verdict();
        LedgerCommitProtocol.committedElsewhere(index(range(3, "winner", 4, 8, AcknowledgeType.REJECT, 1)), ours(0, 5, 1), OWN, verdict);
        assertEquals(Map.of(KEY, Map.of(4L, AcknowledgeType.REJECT, 5L, AcknowledgeType.REJECT)), verdict.doneElsewhere());
        assertTrue(verdict.reasons.iterator().next().contains("in-0 offsets 4..5 were already committed by transactional.id winner"),
                verdict.reasons.toString());
    }

    @Test
    void nothingCommittedBelowOurEntryClearsTheCommit() {
        Verdict verdict = new Verdict();
        LedgerCommitProtocol.committedElsewhere(index(range(OWN + 1, "after-us", 0, 5, AcknowledgeType.ACCEPT, 1)), ours(0, 5, 1),
                OWN, verdict);
        assertEquals(Set.of(), verdict.reasons);
        assertEquals(Map.of(), verdict.doneElsewhere());
    }

    @Test
    void aConfirmedCommittedEntryBindsADeliveryWithAHigherCount() {
        // Issue 22, finding 2 (replaces the old "later incarnation" test): H1 committed r at delivery 1 and its acknowledgement
        // was reported as success (Kafka skips acknowledgements below the start offset silently); H2 holds delivery 2 of the
        // same incarnation. A higher count is no evidence of a new incarnation: H2 is refused, r settled as recorded.
        LedgerIndex done = index(range(3, "h1", 0, 5, AcknowledgeType.ACCEPT, 1));
        LedgerIndexes.confirm(done, KEY, 3);
        Verdict verdict = new Verdict();
        LedgerCommitProtocol.committedElsewhere(done, ours(0, 5, 2), OWN, verdict);
        assertEquals(1, verdict.reasons.size(), verdict.reasons.toString());
        assertEquals(AcknowledgeType.ACCEPT, verdict.doneElsewhere().get(KEY).get(0L), "settled with the recorded type");
        assertEquals(6, verdict.doneElsewhere().get(KEY).size());
    }

    @Test
    void aRecordBelowAWatermarkIsRefusedWhateverItsDeliveryCount() {
        // Issue 22, finding 3 (replaces the old test that committed it again): the snapshot pruned the committed, unconfirmed
        // range E1 (delivery 1) below the start offset 10; a stale holder of delivery 2 (deliveries after E1 left no entry, so
        // the pruned maximum is 1) must not pass the watermark, on the read-back or at the decision.
        LedgerIndex done = index(range(3, "e1", 0, 5, AcknowledgeType.ACCEPT, 1));
        LedgerIndexes.snapshotAndApply(done, 5, Map.of(KEY, 10L));
        assertEquals(10, done.watermark(KEY));
        Verdict later = new Verdict();
        LedgerCommitProtocol.committedElsewhere(done, ours(2, 2, 2), OWN, later);
        // Since the backlog fix the snapshot keeps E1 compacted: settled as E1 recorded (before, released until archived).
        assertEquals(Map.of(KEY, Map.of(2L, AcknowledgeType.ACCEPT)), later.settle, later.reasons.toString());
        Verdict readBack = new Verdict();
        List<LedgerRange> earlier = LedgerCommitProtocol.staleHolder(done, ours(2, 2, 2), OWN, readBack);
        assertEquals(Map.of(KEY, Map.of(2L, AcknowledgeType.ACCEPT)), readBack.settle, "refused on the read-back, no wait");
        assertEquals(List.of(), earlier);
    }

    @Test
    void aRecordBelowAWatermarkThatNoEntryHoldsIsCommitted() {
        // Issue 22, the backlog after a reset: the group was initialized at latest (start 10), offsets 0..5 were never
        // processed; after a reset to the beginning they are delivered. The watermark says they were terminal, not processed.
        LedgerIndex done = index(range(3, "e1", 10, 12, AcknowledgeType.ACCEPT, 1));
        LedgerIndexes.snapshotAndApply(done, 5, Map.of(KEY, 13L));
        assertEquals(13, done.watermark(KEY));
        Verdict readBack = new Verdict();
        List<LedgerRange> earlier = LedgerCommitProtocol.staleHolder(done, ours(0, 5, 1), OWN, readBack);
        assertEquals(Set.of(), readBack.reasons);
        assertFalse(LedgerCommitProtocol.fatesMatter(earlier, true), "nothing holds 0..5: the shortcut commits");
        Verdict decided = new Verdict();
        LedgerCommitProtocol.committedElsewhere(done, ours(0, 5, 1), OWN, decided);
        assertEquals(Set.of(), decided.reasons);
        // The processed records, delivered again after the reset: refused, settled as recorded.
        Verdict again = new Verdict();
        LedgerCommitProtocol.staleHolder(done, ours(10, 12, 1), OWN, again);
        assertEquals(Map.of(KEY, Map.of(10L, AcknowledgeType.ACCEPT, 11L, AcknowledgeType.ACCEPT, 12L, AcknowledgeType.ACCEPT)),
                again.settle, again.reasons.toString());
    }

    @Test
    void aSnapshotWrittenBeforeCompactionStillClaimsEverythingBelowItsWatermark() {
        // It dropped the ranges below its watermark, so nothing tells processed from not: keep refusing (no duplicate).
        LedgerIndex done = new LedgerIndex();
        LedgerIndexes.applyOldFormat(done, 5, Map.of(KEY, 10L));
        assertEquals(10, done.claimedBelow(KEY));
        Verdict readBack = new Verdict();
        LedgerCommitProtocol.staleHolder(done, ours(2, 2, 2), OWN, readBack);
        assertEquals(Map.of(KEY, Map.of(2L, AcknowledgeType.RELEASE)), readBack.settle, readBack.reasons.toString());
        Verdict decided = new Verdict();
        LedgerCommitProtocol.committedElsewhere(done, ours(8, 11, 1), OWN, decided);
        assertEquals(Map.of(KEY, Map.of(8L, AcknowledgeType.RELEASE, 9L, AcknowledgeType.RELEASE)), decided.settle, decided.reasons.toString());
    }

    @Test
    void aShareItIsConfirmedOnlyWhenEveryParticipantsAcknowledgementsLanded() {
        // Issue 22, finding 1: C1's acknowledgements landed, C2's did not (its locks expired); the entry holds both.
        try (ConsumerTransactionSupport<String, String> c1 = participant("c1"); ConsumerTransactionSupport<String, String> c2 = participant("c2")) {
            Map<ShareAckParticipant, Map<TopicIdPartition, List<LedgerRange>>> staged = new java.util.LinkedHashMap<>();
            staged.put(c1, Map.of(TIP, List.of(range(-1, "me", 0, 4, AcknowledgeType.ACCEPT, 1))));
            staged.put(c2, Map.of(TIP, List.of(range(-1, "me", 5, 9, AcknowledgeType.ACCEPT, 1))));
            assertEquals(List.of(), LedgerCommitProtocol.confirmations(staged, Map.of(c1, Set.of(TIP), c2, Set.of()), OWN));
            assertEquals(List.of(new io.gapless.kafka.share.ledger.LedgerConfirmation(KEY, OWN)),
                    LedgerCommitProtocol.confirmations(staged, Map.of(c1, Set.of(TIP), c2, Set.of(TIP)), OWN));
        }
    }

    private static ConsumerTransactionSupport<String, String> participant(String clientId) {
        return new ConsumerTransactionSupport<>(AckPath.LEDGER, new MockShareConsumer<>(), "g", clientId, Map.of(),
                new LedgerSettings("l.", null, (short) -1, 1), t -> TIP.topicId());
    }

    @Test
    void onAbortOffsetsDoneElsewhereAreSettledAsRecordedTheOthersKept() {
        try (ConsumerTransactionSupport<String, String> participant = new ConsumerTransactionSupport<>(AckPath.LEDGER,
                new MockShareConsumer<>(), "g", "c", Map.of(), new LedgerSettings("l.", null, (short) -1, 1), t -> TIP.topicId())) {
            Map<ShareAckParticipant, Map<TopicIdPartition, List<LedgerRange>>> staged = Map.of(participant,
                    Map.of(TIP, List.of(range(-1, "me", 0, 3, AcknowledgeType.ACCEPT, 1))));
            Verdict verdict = new Verdict();
            verdict.recorded(KEY, new long[]{1, 1}, AcknowledgeType.REJECT, "committed elsewhere");
            verdict.release(KEY, new long[]{2, 2}, "redelivered");
            Map<ShareAckParticipant, Map<TopicIdPartition, Map<Long, AcknowledgeType>>> settle = LedgerCommitProtocol.onAbort(staged, verdict);
            assertEquals(Map.of(0L, AcknowledgeType.RENEW, 1L, AcknowledgeType.REJECT, 2L, AcknowledgeType.RELEASE, 3L, AcknowledgeType.RENEW),
                    settle.get(participant).get(TIP));
        }
    }

    @Test
    void anOpenOrCommittedOverlappingEntryBelowOursTakesTheSlowPathAndTheStaleHolderIsRefused() {
        // The "all" view up to our entry shows an entry below ours holding offsets 3..4 with the same delivery (its fate open, or committed).
        LedgerIndex all = index(range(4, "other", 3, 4, AcknowledgeType.ACCEPT, 1));
        Verdict verdict = new Verdict();
        List<LedgerRange> earlier = LedgerCommitProtocol.staleHolder(all, ours(0, 5, 1), OWN, verdict);
        assertEquals(Set.of(), verdict.reasons, "not newer: nothing to refuse before the fates are known");
        assertTrue(LedgerCommitProtocol.fatesMatter(earlier, true), "an overlapping entry below ours: wait for its fate and decide");
        // Its transaction committed: the decision (step 4) refuses us, the stale holder.
        Verdict decided = new Verdict();
        LedgerCommitProtocol.committedElsewhere(all, ours(0, 5, 1), OWN, decided);
        assertEquals(Map.of(KEY, Map.of(3L, AcknowledgeType.ACCEPT, 4L, AcknowledgeType.ACCEPT)), decided.doneElsewhere(),
                decided.reasons.toString());
    }

    @Test
    void noOverlappingEntryBelowOursInACompleteViewSkipsTheWaitForFates() {
        ShareKey otherPartition = ShareKey.of("g", new TopicIdPartition(TIP.topicId(), 1, "in"));
        ShareKey recreated = ShareKey.of("g", new TopicIdPartition(Uuid.randomUuid(), 0, "in"));
        LedgerIndex all = index(
                range(3, "elsewhere", 6, 9, AcknowledgeType.ACCEPT, 1),      // other offsets, same share-partition
                range(OWN + 1, "after-us", 0, 5, AcknowledgeType.ACCEPT, 3)); // above our own entry: it waits for us
        all.addEntry(new LedgerEntry("p1", Map.of(otherPartition, List.of(range(4, "p1", 0, 5, AcknowledgeType.ACCEPT, 1)))), 64);
        all.addEntry(new LedgerEntry("old-id", Map.of(recreated, List.of(range(5, "old-id", 0, 5, AcknowledgeType.ACCEPT, 1)))), 64);
        Verdict verdict = new Verdict();
        List<LedgerRange> earlier = LedgerCommitProtocol.staleHolder(all, ours(0, 5, 1), OWN, verdict);
        assertEquals(Set.of(), verdict.reasons);
        assertEquals(List.of(), earlier);
        assertFalse(LedgerCommitProtocol.fatesMatter(earlier, true), "nothing below ours can bind us, whatever its fate");
        assertTrue(LedgerCommitProtocol.fatesMatter(earlier, false), "an incomplete view (restarted, covering snapshot not read) proves nothing");
    }

    @Test
    void aWatermarkHitIsRefusedOnTheReadBackWithoutWaiting() {
        LedgerIndex all = index(range(3, "old", 0, 5, AcknowledgeType.ACCEPT, 1));
        LedgerIndexes.snapshotAndApply(all, 5, Map.of(KEY, 10L));
        Verdict verdict = new Verdict();
        LedgerCommitProtocol.staleHolder(all, ours(2, 2, 1), OWN, verdict);
        // The pruned range is kept compacted: settled as it recorded (before the backlog fix: released).
        assertEquals(Map.of(KEY, Map.of(2L, AcknowledgeType.ACCEPT)), verdict.settle, verdict.reasons.toString());
    }
}
