package io.gapless.kafka.share.txn;

import io.gapless.kafka.share.AcknowledgementBatch;
import io.gapless.kafka.share.ShareGroupMetadata;
import io.gapless.kafka.share.internal.ledger.LedgerRange;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.common.TopicIdPartition;

import java.util.List;
import java.util.Map;

/**
 * The consumer side of a transactional acknowledgement, as the producer sees it: the records a
 * share consumer holds, their delivery counts, and the acknowledgements that settle them. Called
 * on the thread that uses the consumer.
 */
public interface ShareAckParticipant {

    ShareGroupMetadata metadata();

    /** Whether the consumer runs with {@code share.acknowledgement.mode=transactional}. */
    boolean transactional();

    /**
     * Checks that the consumer holds every acknowledged offset and is not already committing it,
     * marks them pending, and returns them as ledger ranges (split by delivery count) under their
     * resolved topic ids.
     *
     * @throws org.apache.kafka.common.errors.InvalidRecordStateException naming offsets it does not hold
     */
    Map<TopicIdPartition, List<LedgerRange>> stage(Map<TopicIdPartition, List<AcknowledgementBatch>> acks, String transactionalId);

    /** Acknowledges the given offsets with the given types and commits; they are no longer held. */
    void settle(Map<TopicIdPartition, Map<Long, AcknowledgeType>> outcome);
}
