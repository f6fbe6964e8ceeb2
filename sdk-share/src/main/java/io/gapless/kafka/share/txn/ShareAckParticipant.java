package io.gapless.kafka.share.txn;

import io.gapless.kafka.share.ledger.LedgerRange;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicIdPartition;

import java.util.List;
import java.util.Map;

/**
 * The consumer side of a transactional acknowledgement, as the producer sees it: the records a
 * share consumer holds, their delivery counts, and the acknowledgements that settle them. Reached
 * through the {@link ShareGroupMetadata} the consumer handed out. Called on the thread that uses
 * the consumer.
 */
interface ShareAckParticipant {

    ShareGroupMetadata metadata();

    /** How this consumer's acknowledgements are delivered ({@link AckPath#LEDGER} or {@link AckPath#AT_LEAST_ONCE}); the producer follows it. */
    AckPath path();

    /** The group cannot be served this way any more (it moved to native KIP-1289): the consumer fails from now on with {@code fatal}. */
    void refuse(KafkaException fatal);

    /** Whether the consumer is still open (a closed one cannot settle anything). */
    boolean open();

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

    /**
     * The participant {@code metadata} was handed out by, if it is open.
     *
     * @throws IllegalArgumentException if no open transactional GaplessShareConsumer handed out {@code metadata}
     */
    static ShareAckParticipant of(ShareGroupMetadata metadata) {
        ShareAckParticipant p = metadata.participant();
        if (p == null || !p.open()) {
            throw new IllegalArgumentException(metadata + " does not belong to an open GaplessShareConsumer with a group.id and "
                    + "share.acknowledgement.mode=explicit or transactional; pass shareGroupMetadata() of the consumer that polled the records");
        }
        return p;
    }
}
