package io.gapless.kafka.share.txn;

import io.gapless.kafka.share.ledger.LedgerEntry;
import io.gapless.kafka.share.ledger.LedgerIndex;
import io.gapless.kafka.share.ledger.LedgerRange;
import io.gapless.kafka.share.ledger.LedgerSettings;
import io.gapless.kafka.share.ledger.ShareKey;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.MockShareConsumer;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

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
        Set<String> reasons = new TreeSet<>();
        List<LedgerRange> earlier = LedgerCommitProtocol.staleHolder(index(range(4, "newer", 5, 6, AcknowledgeType.ACCEPT, 2)),
                ours(0, 5, 1), OWN, reasons);
        assertEquals(1, reasons.size(), reasons.toString());
        assertTrue(reasons.iterator().next().contains("was redelivered (delivery 2 staged by transactional.id newer)"), reasons.toString());
        assertEquals(1, earlier.size());
    }

    @Test
    void anEarlierEntryWithAnOlderDeliveryIsOnlyWaitedFor() {
        Set<String> reasons = new TreeSet<>();
        List<LedgerRange> earlier = LedgerCommitProtocol.staleHolder(index(
                range(3, "older", 0, 2, AcknowledgeType.ACCEPT, 1),
                range(5, "elsewhere", 7, 9, AcknowledgeType.ACCEPT, 1),
                range(12, "later", 0, 5, AcknowledgeType.ACCEPT, 3)), ours(0, 5, 2), OWN, reasons);
        assertEquals(Set.of(), reasons, "no refusal before the fates are known");
        assertEquals(List.of("older"), earlier.stream().map(LedgerRange::transactionalId).toList(),
                "only overlapping entries below our own are waited for (and their holders fenced)");
    }

    @Test
    void aCommittedEntryHoldingOurRecordsRefusesAndRecordsItsTypes() {
        Set<String> reasons = new TreeSet<>();
        Map<ShareKey, Map<Long, AcknowledgeType>> done = new HashMap<>();
        LedgerCommitProtocol.committedElsewhere(index(range(3, "winner", 4, 8, AcknowledgeType.REJECT, 1)), ours(0, 5, 1), OWN,
                done, reasons);
        assertEquals(Map.of(KEY, Map.of(4L, AcknowledgeType.REJECT, 5L, AcknowledgeType.REJECT)), done);
        assertTrue(reasons.iterator().next().contains("in-0 offsets 4..5 were already committed by transactional.id winner"),
                reasons.toString());
    }

    @Test
    void nothingCommittedBelowOurEntryClearsTheCommit() {
        Set<String> reasons = new TreeSet<>();
        Map<ShareKey, Map<Long, AcknowledgeType>> done = new HashMap<>();
        LedgerCommitProtocol.committedElsewhere(index(range(OWN + 1, "after-us", 0, 5, AcknowledgeType.ACCEPT, 1)), ours(0, 5, 1),
                OWN, done, reasons);
        assertEquals(Set.of(), reasons);
        assertEquals(Map.of(), done);
    }

    @Test
    void onAbortOffsetsDoneElsewhereAreSettledAsRecordedTheOthersReleased() {
        try (ConsumerTransactionSupport<String, String> participant = new ConsumerTransactionSupport<>(AckPath.LEDGER,
                new MockShareConsumer<>(), "g", "c", Map.of(), new LedgerSettings("l", 1, (short) -1, 1), t -> TIP.topicId())) {
            Map<ShareAckParticipant, Map<TopicIdPartition, List<LedgerRange>>> staged = Map.of(participant,
                    Map.of(TIP, List.of(range(-1, "me", 0, 2, AcknowledgeType.ACCEPT, 1))));
            Map<ShareAckParticipant, Map<TopicIdPartition, Map<Long, AcknowledgeType>>> settle = LedgerCommitProtocol.onAbort(staged,
                    Map.of(KEY, Map.of(1L, AcknowledgeType.REJECT)));
            assertEquals(Map.of(0L, AcknowledgeType.RELEASE, 1L, AcknowledgeType.REJECT, 2L, AcknowledgeType.RELEASE),
                    settle.get(participant).get(TIP));
        }
    }
}
