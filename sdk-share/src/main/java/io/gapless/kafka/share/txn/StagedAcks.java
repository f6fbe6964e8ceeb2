package io.gapless.kafka.share.txn;

import io.gapless.kafka.share.ledger.LedgerRange;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.common.TopicIdPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The acknowledgements staged in one producer transaction, per consumer, as ledger ranges; and
 * settling them on their consumers when the transaction's fate is known.
 */
final class StagedAcks {
    private static final Logger log = LoggerFactory.getLogger(StagedAcks.class);

    private final Map<ShareAckParticipant, Map<TopicIdPartition, List<LedgerRange>>> staged = new LinkedHashMap<>();

    void add(ShareAckParticipant participant, Map<TopicIdPartition, List<LedgerRange>> ranges) {
        Map<TopicIdPartition, List<LedgerRange>> mine = staged.computeIfAbsent(participant, p -> new LinkedHashMap<>());
        ranges.forEach((tip, list) -> mine.computeIfAbsent(tip, t -> new ArrayList<>()).addAll(list));
    }

    boolean isEmpty() {
        return staged.isEmpty();
    }

    /** What is staged, for the ledger check. */
    Map<ShareAckParticipant, Map<TopicIdPartition, List<LedgerRange>>> view() {
        return Collections.unmodifiableMap(staged);
    }

    /** The transaction committed: every record is acknowledged with its staged type. */
    void settleCommitted() {
        staged.forEach((participant, ranges) -> participant.settle(outcome(ranges)));
        staged.clear();
    }

    /** The ledger check refused the transaction: each consumer settles its records as the check says. */
    void settleRefused(Map<ShareAckParticipant, Map<TopicIdPartition, Map<Long, AcknowledgeType>>> onAbort) {
        onAbort.forEach(ShareAckParticipant::settle);
        staged.clear();
    }

    /** The transaction aborted (or cannot commit): every record comes back for redelivery. */
    void releaseAll() {
        staged.forEach((participant, ranges) -> {
            Map<TopicIdPartition, Map<Long, AcknowledgeType>> release = outcome(ranges);
            release.values().forEach(m -> m.replaceAll((o, t) -> AcknowledgeType.RELEASE));
            try {
                participant.settle(release);
            } catch (RuntimeException e) {
                log.warn("Could not release staged records of {}: {}", participant.metadata(), e.toString());
            }
        });
        staged.clear();
    }

    private static Map<TopicIdPartition, Map<Long, AcknowledgeType>> outcome(Map<TopicIdPartition, List<LedgerRange>> ranges) {
        Map<TopicIdPartition, Map<Long, AcknowledgeType>> result = new LinkedHashMap<>();
        ranges.forEach((tip, list) -> {
            Map<Long, AcknowledgeType> byOffset = new LinkedHashMap<>();
            for (LedgerRange r : list) {
                for (long o = r.first(); o <= r.last(); o++) {
                    byOffset.put(o, AcknowledgeType.forId(r.ackType()));
                }
            }
            result.put(tip, byOffset);
        });
        return result;
    }
}
