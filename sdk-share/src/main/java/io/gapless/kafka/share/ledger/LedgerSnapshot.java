package io.gapless.kafka.share.ledger;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The committed ledger state of one ledger partition below {@code coversBelow} (every transaction
 * there was resolved when it was taken), pruned below the share-partition start offsets recorded
 * as {@code watermarks}, with the confirmed entries of the ranges it keeps. A reader that applies
 * it may forget every record below {@code coversBelow}.
 */
record LedgerSnapshot(long coversBelow, Map<ShareKey, Watermark> watermarks, Map<ShareKey, List<LedgerRange>> ranges,
                      Map<ShareKey, Set<Long>> confirmed) {

    LedgerSnapshot(long coversBelow, Map<ShareKey, Watermark> watermarks, Map<ShareKey, List<LedgerRange>> ranges) {
        this(coversBelow, watermarks, ranges, Map.of());
    }
}
