/*
 * Copyright 2026 The Gapless authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package io.gapless.kafka.share.ledger;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

/** Ledger indexes built by hand, for the decision tests of other packages (the snapshot and confirmation setters are package-private). */
public final class LedgerIndexes {
    private LedgerIndexes() {
    }

    /** Marks the entry at {@code ledgerOffset} confirmed for {@code key}: the group accepted its acknowledgements. */
    public static void confirm(LedgerIndex index, ShareKey key, long ledgerOffset) {
        index.addConfirmations(List.of(new LedgerConfirmation(key, ledgerOffset)));
    }

    /** Adds confirmations read from the ledger (stand-alone or carried by an entry). */
    public static void confirmAll(LedgerIndex index, List<LedgerConfirmation> confirmations) {
        index.addConfirmations(confirmations);
    }

    /** A snapshot record of {@code index} below {@code coversBelow}, pruned below the start offsets given (opaque to other packages). */
    public static Object snapshot(LedgerIndex index, long coversBelow, Map<ShareKey, Long> startOffsets) {
        return index.snapshot(coversBelow, startOffsets);
    }

    /** Applies a snapshot record made by {@link #snapshot} as a reader meeting it in the log does. */
    public static void apply(LedgerIndex index, Object snapshot) {
        index.applySnapshot((LedgerSnapshot) snapshot);
    }

    /**
     * Applies, as a reader meeting it does, a snapshot in the format written before compaction (no
     * claims section: it had dropped the ranges below its watermarks) with the watermarks given.
     */
    public static void applyOldFormat(LedgerIndex index, long coversBelow, Map<ShareKey, Long> watermarks) {
        index.applySnapshot((LedgerSnapshot) LedgerCodec.decode(oldFormatSnapshot(coversBelow, watermarks, Map.of()), coversBelow));
    }

    /**
     * The bytes the encoder before compaction wrote for a snapshot: the same version-2 layout up to
     * and including the confirmations, without the claims section that follows them now.
     */
    static byte[] oldFormatSnapshot(long coversBelow, Map<ShareKey, Long> watermarks, Map<ShareKey, List<LedgerRange>> ranges) {
        Map<ShareKey, Watermark> w = new java.util.LinkedHashMap<>();
        watermarks.forEach((k, v) -> w.put(k, new Watermark(v, (short) 1)));
        byte[] current = LedgerCodec.encodeSnapshot(new LedgerSnapshot(coversBelow, w, ranges));
        // No claims: the section is its count alone, an int 0.
        return java.util.Arrays.copyOf(current, current.length - Integer.BYTES);
    }

    /** Applies a snapshot below {@code coversBelow} taken from {@code index} itself with the start offsets given (pruning). */
    public static void snapshotAndApply(LedgerIndex index, long coversBelow, Map<ShareKey, Long> startOffsets) {
        index.applySnapshot(index.snapshot(coversBelow, startOffsets));
    }

    /**
     * A snapshot of {@code index} below {@code coversBelow} taken as {@code AckLedger} takes one: the
     * share-partitions the index holds, those {@code dead} says no longer exist kept as dead
     * watermarks, the others pruned below the start offset {@code startOffset} reports (null: none
     * reported, not pruned).
     */
    public static Object snapshotOfKeys(LedgerIndex index, long coversBelow, Function<ShareKey, Long> startOffset, Predicate<ShareKey> dead) {
        Set<ShareKey> deadKeys = new HashSet<>();
        Map<ShareKey, Long> starts = new HashMap<>();
        for (ShareKey key : index.keys()) {
            if (dead.test(key)) {
                deadKeys.add(key);
            } else {
                Long start = startOffset.apply(key);
                if (start != null) {
                    starts.put(key, start);
                }
            }
        }
        return index.snapshot(coversBelow, starts, deadKeys);
    }
}
