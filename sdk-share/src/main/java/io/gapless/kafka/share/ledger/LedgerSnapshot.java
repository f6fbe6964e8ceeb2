package io.gapless.kafka.share.ledger;

import java.util.List;
import java.util.Map;

/**
 * The committed ledger state of one ledger partition below {@code coversBelow} (every transaction
 * there was resolved when it was taken), pruned below the share-partition start offsets recorded
 * as {@code watermarks}. A reader that applies it may forget every record below {@code coversBelow}.
 */
record LedgerSnapshot(long coversBelow, Map<ShareKey, Long> watermarks, Map<ShareKey, List<LedgerRange>> ranges) {
}
