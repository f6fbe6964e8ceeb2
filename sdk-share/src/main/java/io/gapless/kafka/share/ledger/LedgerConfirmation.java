package io.gapless.kafka.share.ledger;

/**
 * A fact a holder learned after its commit: the share group accepted the acknowledgements of the
 * ranges of {@code key} that the ledger entry at {@code ledgerOffset} recorded (the consumer's
 * {@code commitSync} reported no error for that share-partition). It is true whatever transaction
 * carries it, so it may ride in a later entry or stand alone.
 *
 * @since 0.1.0
 */
public record LedgerConfirmation(ShareKey key, long ledgerOffset) {
}
