package io.gapless.kafka.share.txn;

import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.common.TopicIdPartition;

import java.util.Map;

/**
 * The verdict of the ledger check for one transaction: clear to commit, or the records someone
 * else committed (settled as recorded) and the reason to abort.
 *
 * @param conflict  whether the transaction must abort
 * @param reason    why, for the exception message
 * @param onAbort   per participant, how to settle each staged offset after the abort
 */
record CommitCheck(boolean conflict, String reason, Map<ShareAckParticipant, Map<TopicIdPartition, Map<Long, AcknowledgeType>>> onAbort) {

    static CommitCheck clear() {
        return new CommitCheck(false, "", Map.of());
    }
}
