package io.gapless.kafka.share.ledger;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The ledger state of one ledger partition as one reader has read it so far: the ranges of every
 * entry it saw (committed ones only for a read_committed reader), the confirmed entries, plus the
 * prune watermarks of the latest snapshots. Memory stays bounded because each snapshot replaces
 * everything below it.
 */
public final class LedgerIndex {
    // The constructor and addEntry are public for the ledger benchmark, which builds an index by itself.
    private final Map<ShareKey, List<LedgerRange>> ranges = new HashMap<>();
    private final Map<ShareKey, Watermark> watermarks = new HashMap<>();
    // Per share-partition: ledger offsets of entries whose acknowledgements the group accepted.
    private final Map<ShareKey, Set<Long>> confirmed = new HashMap<>();
    // Read by the metrics gauge from other threads.
    private volatile long bytesSinceSnapshot;

    public void addEntry(LedgerEntry entry, int bytes) {
        entry.ranges().forEach((key, list) -> ranges.computeIfAbsent(key, k -> new ArrayList<>()).addAll(list));
        addConfirmations(entry.confirmations());
        bytesSinceSnapshot += bytes;
    }

    void addConfirmations(List<LedgerConfirmation> confirmations) {
        for (LedgerConfirmation c : confirmations) {
            confirmed.computeIfAbsent(c.key(), k -> new HashSet<>()).add(c.ledgerOffset());
        }
    }

    /**
     * Replaces everything below the snapshot's position by the snapshot's content. Watermarks only
     * grow; confirmations are facts and are merged (one read above the snapshot may confirm an
     * entry the snapshot holds).
     */
    void applySnapshot(LedgerSnapshot snapshot) {
        ranges.values().forEach(list -> list.removeIf(r -> r.ledgerOffset() < snapshot.coversBelow()));
        snapshot.ranges().forEach((key, list) -> ranges.computeIfAbsent(key, k -> new ArrayList<>()).addAll(list));
        snapshot.watermarks().forEach((key, wm) -> watermarks.merge(key, wm, Watermark::merge));
        snapshot.confirmed().forEach((key, offsets) -> confirmed.computeIfAbsent(key, k -> new HashSet<>()).addAll(offsets));
        ranges.values().removeIf(List::isEmpty);
        // Confirmations of entries that are no longer held (pruned below a watermark) are dropped.
        confirmed.entrySet().removeIf(e -> {
            List<LedgerRange> held = ranges.get(e.getKey());
            if (held == null) {
                return true;
            }
            Set<Long> live = new HashSet<>();
            held.forEach(r -> live.add(r.ledgerOffset()));
            e.getValue().retainAll(live);
            return e.getValue().isEmpty();
        });
        bytesSinceSnapshot = 0;
    }

    /** Ranges of entries below {@code belowLedgerOffset} that cover {@code offset} of {@code key}. */
    public List<LedgerRange> covering(ShareKey key, long offset, long belowLedgerOffset) {
        return overlapping(key, offset, offset, belowLedgerOffset);
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

    /** Whether the group accepted the acknowledgements that the entry at {@code ledgerOffset} recorded for {@code key}. */
    public boolean confirmed(ShareKey key, long ledgerOffset) {
        Set<Long> offsets = confirmed.get(key);
        return offsets != null && offsets.contains(ledgerOffset);
    }

    /** Offsets of {@code key} below this were terminal in the share group when a snapshot pruned them; -1 for none. */
    public long watermark(ShareKey key) {
        Watermark w = watermarks.get(key);
        return w == null ? -1L : w.offset();
    }

    /** The highest delivery count of the committed ranges pruned below {@link #watermark(ShareKey)}. */
    public short watermarkDelivery(ShareKey key) {
        Watermark w = watermarks.get(key);
        return w == null ? 0 : w.maxDelivery();
    }

    long bytesSinceSnapshot() {
        return bytesSinceSnapshot;
    }

    /** Share-partitions this index holds ranges or a watermark of. */
    Set<ShareKey> keys() {
        Set<ShareKey> keys = new HashSet<>(ranges.keySet());
        keys.addAll(watermarks.keySet());
        return keys;
    }

    /** Clears everything (the reader lost its place and reads from the log start again). */
    void clear() {
        ranges.clear();
        watermarks.clear();
        confirmed.clear();
        bytesSinceSnapshot = 0;
    }

    LedgerSnapshot snapshot(long coversBelow, Map<ShareKey, Long> startOffsets) {
        return snapshot(coversBelow, startOffsets, Set.of());
    }

    /**
     * A snapshot of this (committed, complete below {@code coversBelow}) index, pruned below the
     * given share-partition start offsets; share-partitions of topic ids that no longer exist
     * ({@code dead}) keep only a {@link Watermark#DEAD} watermark. The delivery counts of pruned
     * ranges go into their watermark.
     */
    LedgerSnapshot snapshot(long coversBelow, Map<ShareKey, Long> startOffsets, Set<ShareKey> dead) {
        Map<ShareKey, Watermark> newWatermarks = new LinkedHashMap<>(watermarks);
        startOffsets.forEach((k, v) -> newWatermarks.merge(k, new Watermark(v, (short) 0), Watermark::merge));
        dead.forEach(k -> newWatermarks.put(k, Watermark.DEAD));
        Map<ShareKey, List<LedgerRange>> kept = new LinkedHashMap<>();
        Map<ShareKey, Set<Long>> keptConfirmed = new LinkedHashMap<>();
        ranges.forEach((key, list) -> {
            Watermark wm = newWatermarks.get(key);
            List<LedgerRange> keep = new ArrayList<>();
            short pruned = 0;
            for (LedgerRange r : list) {
                if (r.ledgerOffset() >= coversBelow) {
                    continue;
                }
                if (wm != null && r.last() < wm.offset()) {
                    pruned = (short) Math.max(pruned, r.deliveryCount());
                } else {
                    keep.add(r);
                    if (confirmed(key, r.ledgerOffset())) {
                        keptConfirmed.computeIfAbsent(key, k -> new HashSet<>()).add(r.ledgerOffset());
                    }
                }
            }
            if (pruned > 0) {
                newWatermarks.put(key, wm.merge(new Watermark(wm.offset(), pruned)));
            }
            if (!keep.isEmpty()) {
                kept.put(key, keep);
            }
        });
        return new LedgerSnapshot(coversBelow, newWatermarks, kept, keptConfirmed);
    }
}
