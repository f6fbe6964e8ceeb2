package io.gapless.kafka.share.ledger;

import java.util.List;
import java.util.Map;

/** Ledger indexes built by hand, for the decision tests of other packages (the snapshot and confirmation setters are package-private). */
public final class LedgerIndexes {
    private LedgerIndexes() {
    }

    /** Marks the entry at {@code ledgerOffset} confirmed for {@code key}: the group accepted its acknowledgements. */
    public static void confirm(LedgerIndex index, ShareKey key, long ledgerOffset) {
        index.addConfirmations(List.of(new LedgerConfirmation(key, ledgerOffset)));
    }

    /** Applies a snapshot below {@code coversBelow} taken from {@code index} itself with the start offsets given (pruning). */
    public static void snapshotAndApply(LedgerIndex index, long coversBelow, Map<ShareKey, Long> startOffsets) {
        index.applySnapshot(index.snapshot(coversBelow, startOffsets));
    }
}
