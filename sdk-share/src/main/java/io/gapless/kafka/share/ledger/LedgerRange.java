package io.gapless.kafka.share.ledger;

import org.apache.kafka.clients.consumer.AcknowledgeType;

/**
 * Offsets [first, last] of a share-partition acknowledged with one type, all held at the same
 * delivery count, as recorded by one ledger entry at {@code ledgerOffset}.
 *
 * @since 0.1.0
 */
public record LedgerRange(long ledgerOffset, String transactionalId, long first, long last, byte ackType, short deliveryCount) {

    public boolean contains(long offset) {
        return offset >= first && offset <= last;
    }

    /** The acknowledge type {@link #ackType()} stands for (Kafka's own ids). */
    public AcknowledgeType acknowledgeType() {
        for (AcknowledgeType t : AcknowledgeType.values()) {
            if (t.id == ackType) {
                return t;
            }
        }
        throw new IllegalStateException("Unknown acknowledge type id " + ackType + " in the ledger entry at offset " + ledgerOffset);
    }
}
