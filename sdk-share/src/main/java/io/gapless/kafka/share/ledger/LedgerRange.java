package io.gapless.kafka.share.ledger;

/**
 * Offsets [first, last] of a share-partition acknowledged with one type, all held at the same
 * delivery count, as recorded by one ledger entry at {@code ledgerOffset}.
 */
public record LedgerRange(long ledgerOffset, String transactionalId, long first, long last, byte ackType, short deliveryCount) {

    public boolean contains(long offset) {
        return offset >= first && offset <= last;
    }
}
