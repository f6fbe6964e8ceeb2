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
    void anAcknowledgedRecordDeliveredAgainWithAHigherCountBelongsToALaterIncarnation() {
        // Hole 4: the group's offsets were reset (or the group re-created) after a committed, acknowledged entry.
        LedgerIndex done = index(range(3, "old-era", 0, 5, AcknowledgeType.ACCEPT, 1));
        LedgerIndexes.confirm(done, KEY, 3);
        Verdict verdict = new Verdict();
        LedgerCommitProtocol.committedElsewhere(done, ours(0, 5, 2), OWN, verdict);
        assertEquals(Set.of(), verdict.reasons, "an acknowledged record is never delivered again in its incarnation");

        // The first delivery after the reset has no higher count: it cannot tell a stale holder from a reset, so it is released.
        Verdict first = new Verdict();
        LedgerCommitProtocol.committedElsewhere(done, ours(0, 5, 1), OWN, first);
        assertEquals(Map.of(), first.doneElsewhere(), "never acknowledged without output");
        assertEquals(AcknowledgeType.RELEASE, first.settle.get(KEY).get(0L));
    }

    @Test
    void aRecordBelowAnOldWatermarkDeliveredWithAHigherCountIsCommittedAgain() {
        // Hole 4: the snapshot pruned the committed range below the share-partition start offset 10 it read then.
        LedgerIndex done = index(range(3, "old-era", 0, 5, AcknowledgeType.ACCEPT, 1));
        LedgerIndexes.snapshotAndApply(done, 5, Map.of(KEY, 10L));
        assertEquals(10, done.watermark(KEY));
        Verdict later = new Verdict();
        LedgerCommitProtocol.committedElsewhere(done, ours(2, 2, 2), OWN, later);
        assertEquals(Set.of(), later.reasons, "delivery 2 of an offset below the old start offset: a later incarnation");
        Verdict stale = new Verdict();
        LedgerCommitProtocol.committedElsewhere(done, ours(2, 2, 1), OWN, stale);
        assertEquals(Map.of(KEY, Map.of(2L, AcknowledgeType.RELEASE)), stale.settle, stale.reasons.toString());
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
}
