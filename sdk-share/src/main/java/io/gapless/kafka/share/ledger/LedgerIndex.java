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

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Arrays;
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
 * everything below it. The ranges of a share-partition are held ordered by first offset
 * ({@link CommittedRuns}), so the redelivery lookup is a floor search, not a scan.
 *
 * @since 0.1.0
 */
public final class LedgerIndex {
    private static final Logger log = LoggerFactory.getLogger(LedgerIndex.class);
    /**
     * Compacted ranges one snapshot keeps, all share-partitions together. At 29 bytes a range,
     * 16,384 are about 475 KB: with the rest of the snapshot inside Kafka's default 1 MiB
     * {@code max.request.size}, which a group alternating ACCEPT and REJECT would otherwise pass
     * after about 36,000 records, and then never snapshot again (TransactionalShareSnapshotGrowthIT).
     */
    static final int MAX_COMPACTED_RANGES = 16_384;

    // The constructor and addEntry are public for the ledger benchmark, which builds an index by itself.
    // Per share-partition, ordered by first offset for floor lookups (CommittedRuns); ids interned once per index.
    private final Map<ShareKey, CommittedRuns> ranges = new HashMap<>();
    private final TransactionalIds transactionalIds = new TransactionalIds();
    private final Map<ShareKey, Watermark> watermarks = new HashMap<>();
    // Per share-partition: offsets below it count as handled without evidence (snapshots from before compaction).
    private final Map<ShareKey, Long> claimedBelow = new HashMap<>();
    // Per share-partition: ledger offsets of entries whose acknowledgements the group accepted.
    private final Map<ShareKey, Set<Long>> confirmed = new HashMap<>();
    // Read by the metrics gauge from other threads.
    private volatile long bytesSinceSnapshot;

    public void addEntry(LedgerEntry entry, int bytes) {
        entry.ranges().forEach(this::hold);
        addConfirmations(entry.confirmations());
        bytesSinceSnapshot += bytes;
    }

    private void hold(ShareKey key, List<LedgerRange> list) {
        CommittedRuns runs = ranges.computeIfAbsent(key, k -> new CommittedRuns());
        for (LedgerRange r : list) {
            runs.add(r, transactionalIds.intern(r.transactionalId()));
        }
    }

    void addConfirmations(List<LedgerConfirmation> confirmations) {
        for (LedgerConfirmation c : confirmations) {
            confirmed.computeIfAbsent(c.key(), k -> new HashSet<>()).add(c.ledgerOffset());
        }
    }

    /**
     * Replaces everything below the snapshot's position by the snapshot's content. Watermarks and
     * claims only grow; confirmations are facts and are merged (one read above the snapshot may
     * confirm an entry the snapshot holds).
     */
    void applySnapshot(LedgerSnapshot snapshot) {
        long coversBelow = snapshot.coversBelow();
        ranges.values().forEach(runs -> runs.removeIf(ledgerOffset -> ledgerOffset < coversBelow));
        snapshot.ranges().forEach(this::hold);
        snapshot.watermarks().forEach((key, wm) -> watermarks.merge(key, wm, Watermark::merge));
        snapshot.claimedBelow().forEach((key, claim) -> claimedBelow.merge(key, claim, Math::max));
        snapshot.confirmed().forEach((key, offsets) -> confirmed.computeIfAbsent(key, k -> new HashSet<>()).addAll(offsets));
        ranges.values().removeIf(CommittedRuns::isEmpty);
        // Confirmations of entries that are no longer held (pruned below a watermark) are dropped.
        confirmed.entrySet().removeIf(e -> {
            CommittedRuns held = ranges.get(e.getKey());
            if (held == null) {
                return true;
            }
            long[] entries = held.entries();
            e.getValue().removeIf(offset -> Arrays.binarySearch(entries, offset) < 0);
            return e.getValue().isEmpty();
        });
        forgetUnusedTransactionalIds();
        bytesSinceSnapshot = 0;
    }

    /** Ranges of entries below {@code belowLedgerOffset} that cover {@code offset} of {@code key}. */
    public List<LedgerRange> covering(ShareKey key, long offset, long belowLedgerOffset) {
        return overlapping(key, offset, offset, belowLedgerOffset);
    }

    /** Ranges of entries below {@code belowLedgerOffset} that overlap [{@code first}, {@code last}] of {@code key}. */
    public List<LedgerRange> overlapping(ShareKey key, long first, long last, long belowLedgerOffset) {
        CommittedRuns runs = ranges.get(key);
        if (runs == null) {
            return List.of();
        }
        List<LedgerRange> result = new ArrayList<>(1);
        runs.overlapping(first, last, belowLedgerOffset, transactionalIds, result);
        return result;
    }

    // Ids of members gone from every held range are dropped with the ranges a snapshot replaced.
    private void forgetUnusedTransactionalIds() {
        boolean[] live = new boolean[transactionalIds.size()];
        ranges.values().forEach(runs -> runs.markIds(live));
        for (boolean l : live) {
            if (!l) {
                int[] renumbered = transactionalIds.retain(live);
                ranges.values().forEach(runs -> runs.renumber(renumbered));
                return;
            }
        }
    }

    /** Whether the group accepted the acknowledgements that the entry at {@code ledgerOffset} recorded for {@code key}. */
    public boolean confirmed(ShareKey key, long ledgerOffset) {
        Set<Long> offsets = confirmed.get(key);
        return offsets != null && offsets.contains(ledgerOffset);
    }

    /**
     * Offsets of {@code key} below this were terminal in the share group when a snapshot read its
     * start offset, and their committed ranges are held compacted; -1 for none. Terminal is not
     * processed: a group initialized at {@code latest}, or reset forwards, starts above records
     * nobody processed, so a record below it is handled only if a range holds it (issue 22, the
     * backlog after a reset) or it lies below {@link #claimedBelow(ShareKey)}.
     */
    public long watermark(ShareKey key) {
        Watermark w = watermarks.get(key);
        return w == null ? -1L : w.offset();
    }

    /**
     * Offsets of {@code key} below this count as handled without a range holding them: every
     * offset when the topic id no longer exists ({@link Long#MAX_VALUE}), or the watermark of a
     * snapshot written before snapshots compacted the ranges below their watermark (such a
     * snapshot dropped them, so its watermark is all that is left of their evidence); -1 for none.
     */
    public long claimedBelow(ShareKey key) {
        Watermark w = watermarks.get(key);
        if (Watermark.DEAD.equals(w)) {
            return Long.MAX_VALUE;
        }
        return claimedBelow.getOrDefault(key, -1L);
    }

    /**
     * The highest delivery count of the committed ranges pruned below {@link #watermark(ShareKey)}:
     * it undercounts real deliveries (deliveries after an unconfirmed entry leave no entry), so no
     * decision may rest on it (issue 22, finding 3); kept for the format and the inspection tools.
     */
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
        transactionalIds.clear();
        watermarks.clear();
        claimedBelow.clear();
        confirmed.clear();
        bytesSinceSnapshot = 0;
    }

    LedgerSnapshot snapshot(long coversBelow, Map<ShareKey, Long> startOffsets) {
        return snapshot(coversBelow, startOffsets, Set.of());
    }

    /**
     * A snapshot of this (committed, complete below {@code coversBelow}) index, compacted below
     * the given share-partition start offsets: the ranges wholly below a start are merged into as
     * few {@link LedgerRange#COMPACTED} ranges as their offsets and types allow (one per run of
     * processed offsets), so that they stay evidence of what was processed; share-partitions of
     * topic ids that no longer exist ({@code dead}) keep only a {@link Watermark#DEAD} watermark.
     * The delivery counts of compacted ranges go into their watermark (kept for the format).
     */
    LedgerSnapshot snapshot(long coversBelow, Map<ShareKey, Long> startOffsets, Set<ShareKey> dead) {
        Map<ShareKey, Watermark> newWatermarks = new LinkedHashMap<>(watermarks);
        startOffsets.forEach((k, v) -> newWatermarks.merge(k, new Watermark(v, (short) 0), Watermark::merge));
        dead.forEach(k -> newWatermarks.put(k, Watermark.DEAD));
        Map<ShareKey, List<LedgerRange>> kept = new LinkedHashMap<>();
        Map<ShareKey, Set<Long>> keptConfirmed = new LinkedHashMap<>();
        Map<ShareKey, List<LedgerRange>> compactedByKey = new LinkedHashMap<>();
        ranges.forEach((key, runs) -> {
            if (dead.contains(key)) {
                return;
            }
            Watermark wm = newWatermarks.get(key);
            List<LedgerRange> keep = new ArrayList<>();
            List<LedgerRange> below = new ArrayList<>();
            short pruned = 0;
            for (LedgerRange r : runs.inLedgerOrder(transactionalIds)) {
                if (r.ledgerOffset() >= coversBelow) {
                    continue;
                }
                if (wm != null && r.last() < wm.offset()) {
                    pruned = (short) Math.max(pruned, r.deliveryCount());
                    below.add(r);
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
            List<LedgerRange> compacted = compact(below);
            compactedByKey.put(key, compacted);
            keep.addAll(0, compacted);
            if (!keep.isEmpty()) {
                kept.put(key, keep);
            }
        });
        Map<ShareKey, Long> claims = new LinkedHashMap<>(claimedBelow);
        claims.keySet().removeAll(dead);
        foldOldest(compactedByKey, kept, claims, MAX_COMPACTED_RANGES);
        return new LedgerSnapshot(coversBelow, newWatermarks, kept, keptConfirmed, claims);
    }

    /**
     * Keeps at most {@code budget} compacted ranges in all: a share-partition over its share of the
     * budget (in proportion to its ranges) folds its oldest ones into a claim, below which records
     * count as handled without evidence, as below the watermark of a snapshot from before
     * compaction. Only a reset backwards below the claim sees the difference (its backlog there is
     * taken for processed); a WARN says where.
     */
    static void foldOldest(Map<ShareKey, List<LedgerRange>> compactedByKey, Map<ShareKey, List<LedgerRange>> kept,
                           Map<ShareKey, Long> claims, int budget) {
        long total = compactedByKey.values().stream().mapToLong(List::size).sum();
        if (total <= budget) {
            return;
        }
        compactedByKey.forEach((key, compacted) -> {
            int allowed = (int) Math.max(1, (long) budget * compacted.size() / total);
            if (compacted.size() <= allowed) {
                return;
            }
            List<LedgerRange> folded = compacted.subList(0, compacted.size() - allowed);
            long claim = folded.get(folded.size() - 1).last() + 1;
            claims.merge(key, claim, Math::max);
            List<LedgerRange> rest = kept.get(key);
            rest.removeAll(new HashSet<>(folded));
            if (rest.isEmpty()) {
                kept.remove(key);
            }
            log.warn("Ack-ledger snapshot: share-partition {} keeps {} compacted ranges; the {} oldest, below offset {}, are folded into "
                    + "a claim: after a reset of the group below that offset, its records there count as processed", key, allowed,
                    folded.size(), claim);
        });
    }

    /**
     * Merges committed ranges into {@link LedgerRange#COMPACTED} ones: overlapping or adjacent
     * ranges of one acknowledge type become one, with the highest ledger offset and delivery count
     * of those merged. Gaps (offsets no committed entry holds: skipped at {@code latest}, archived
     * by the delivery limit) stay gaps, so a record in one is not taken for processed.
     */
    static List<LedgerRange> compact(List<LedgerRange> committed) {
        List<LedgerRange> byFirst = new ArrayList<>(committed);
        byFirst.sort((a, b) -> Long.compare(a.first(), b.first()));
        List<LedgerRange> out = new ArrayList<>();
        LedgerRange run = null;
        for (LedgerRange r : byFirst) {
            if (run != null && r.ackType() == run.ackType() && r.first() <= run.last() + 1) {
                run = new LedgerRange(Math.max(run.ledgerOffset(), r.ledgerOffset()), LedgerRange.COMPACTED, run.first(),
                        Math.max(run.last(), r.last()), run.ackType(), (short) Math.max(run.deliveryCount(), r.deliveryCount()));
                continue;
            }
            if (run != null) {
                out.add(run);
            }
            run = new LedgerRange(r.ledgerOffset(), LedgerRange.COMPACTED, r.first(), r.last(), r.ackType(), r.deliveryCount());
        }
        if (run != null) {
            out.add(run);
        }
        return out;
    }
}
