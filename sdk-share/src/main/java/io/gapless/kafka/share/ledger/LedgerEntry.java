package io.gapless.kafka.share.ledger;

import java.util.List;
import java.util.Map;

/**
 * What one transaction acknowledges on one ledger partition. It is written inside the producer's
 * transaction, so it is committed exactly when the output is; each range carries the entry's
 * ledger offset once the entry has been read back (-1 before). It also carries the writer's
 * {@link LedgerConfirmation}s of earlier entries whose acknowledgements landed.
 *
 * @since 0.1.0
 */
public record LedgerEntry(String transactionalId, Map<ShareKey, List<LedgerRange>> ranges, List<LedgerConfirmation> confirmations) {

    /** An entry without confirmations. */
    public LedgerEntry(String transactionalId, Map<ShareKey, List<LedgerRange>> ranges) {
        this(transactionalId, ranges, List.of());
    }
}
