package io.gapless.kafka.share.ledger;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The ledger state of one ledger partition as one reader has read it so far: the ranges of every
 * entry it saw (committed ones only for a read_committed reader), plus the prune watermarks of the
 * latest snapshot. Memory stays bounded because each snapshot replaces everything below it.
 */
public final class LedgerIndex {
    // The constructor and addEntry are public for the ledger benchmark, which builds an index by itself.
    private final Map<ShareKey, List<LedgerRange>> ranges = new HashMap<>();
    private final Map<ShareKey, Long> watermarks = new HashMap<>();
    // Read by the metrics gauge from other threads.
    private volatile long bytesSinceSnapshot;

    public void addEntry(LedgerEntry entry, int bytes) {
        entry.ranges().forEach((key, list) -> ranges.computeIfAbsent(key, k -> new ArrayList<>()).addAll(list));
        bytesSinceSnapshot += bytes;
    }

    /** Replaces everything below the snapshot's position by the snapshot's content. */
    void applySnapshot(LedgerSnapshot snapshot) {
        ranges.values().forEach(list -> list.removeIf(r -> r.ledgerOffset() < snapshot.coversBelow()));
        snapshot.ranges().forEach((key, list) -> ranges.computeIfAbsent(key, k -> new ArrayList<>()).addAll(list));
        snapshot.watermarks().forEach((key, wm) -> watermarks.merge(key, wm, Math::max));
        watermarks.forEach((key, wm) -> {
            List<LedgerRange> list = ranges.get(key);
            if (list != null) {
                list.removeIf(r -> r.last() < wm);
            }
        });
        ranges.values().removeIf(List::isEmpty);
        bytesSinceSnapshot = 0;
    }

    /** Ranges of entries below {@code belowLedgerOffset} that cover {@code offset} of {@code key}. */
    public List<LedgerRange> covering(ShareKey key, long offset, long belowLedgerOffset) {
        List<LedgerRange> list = ranges.get(key);
        if (list == null) {
            return List.of();
        }
        List<LedgerRange> result = new ArrayList<>(1);
        for (LedgerRange r : list) {
            if (r.ledgerOffset() < belowLedgerOffset && r.contains(offset)) {
                result.add(r);
            }
        }
        return result;
    }

    /** Ranges of entries below {@code belowLedgerOffset} that overlap [{@code first}, {@code last}] of {@code key}. */
    public List<LedgerRange> overlapping(ShareKey key, long first, long last, long belowLedgerOffset) {
        List<LedgerRange> list = ranges.get(key);
        if (list == null) {
            return List.of();
        }
        List<LedgerRange> result = new ArrayList<>(1);
        for (LedgerRange r : list) {
            if (r.ledgerOffset() < belowLedgerOffset && r.first() <= last && r.last() >= first) {
                result.add(r);
            }
        }
        return result;
    }

    /** Offsets of {@code key} below this are terminal in the share group (pruned by a snapshot). */
    public long watermark(ShareKey key) {
        return watermarks.getOrDefault(key, -1L);
    }

    long bytesSinceSnapshot() {
        return bytesSinceSnapshot;
    }

    Set<ShareKey> keys() {
        return ranges.keySet();
    }

    /** Clears everything (the reader lost its place and reads from the log start again). */
    void clear() {
        ranges.clear();
        watermarks.clear();
        bytesSinceSnapshot = 0;
    }

    /**
     * A snapshot of this (committed, complete below {@code coversBelow}) index, pruned below the
     * given share-partition start offsets.
     */
    LedgerSnapshot snapshot(long coversBelow, Map<ShareKey, Long> startOffsets) {
        Map<ShareKey, Long> newWatermarks = new LinkedHashMap<>(watermarks);
        startOffsets.forEach((k, v) -> newWatermarks.merge(k, v, Math::max));
        Map<ShareKey, List<LedgerRange>> kept = new LinkedHashMap<>();
        ranges.forEach((key, list) -> {
            long wm = newWatermarks.getOrDefault(key, -1L);
            List<LedgerRange> keep = new ArrayList<>();
            for (LedgerRange r : list) {
                if (r.ledgerOffset() < coversBelow && r.last() >= wm) {
                    keep.add(r);
                }
            }
            if (!keep.isEmpty()) {
                kept.put(key, keep);
            }
        });
        return new LedgerSnapshot(coversBelow, newWatermarks, kept);
    }
}
