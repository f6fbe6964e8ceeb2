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

import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LedgerIndexTest {
    private static final ShareKey KEY = new ShareKey("g", Uuid.randomUuid(), "t", 0);

    private static LedgerEntry entry(String txn, long first, long last, short delivery) {
        return new LedgerEntry(txn, Map.of(KEY, List.of(new LedgerRange(-1, txn, first, last, (byte) 1, delivery))));
    }

    private static LedgerEntry read(LedgerEntry e, long offset) {
        return (LedgerEntry) LedgerCodec.decode(LedgerCodec.encodeEntry(e), offset);
    }

    @Test
    void entriesRoundTripAndCarryTheirLedgerOffset() {
        LedgerEntry back = read(entry("a", 3, 7, (short) 2), 41);
        LedgerRange r = back.ranges().get(KEY).get(0);
        assertEquals(new LedgerRange(41, "a", 3, 7, (byte) 1, (short) 2), r);
        assertEquals("a", back.transactionalId());
    }

    @Test
    void coveringOnlySeesEntriesBeforeTheGivenLedgerOffset() {
        LedgerIndex index = new LedgerIndex();
        index.addEntry(read(entry("a", 0, 4, (short) 1), 10), 50);
        index.addEntry(read(entry("b", 3, 8, (short) 2), 11), 50);
        assertEquals(2, index.covering(KEY, 3, 12).size());
        assertEquals(1, index.covering(KEY, 3, 11).size());
        assertEquals(List.of(), index.covering(KEY, 9, Long.MAX_VALUE));
        assertEquals(1, index.overlapping(KEY, 5, 20, 12).size());
        assertEquals(100, index.bytesSinceSnapshot());
    }

    @Test
    void aSnapshotReplacesWhatItCoversPrunesBelowTheStartOffsetAndResetsTheByteCount() {
        LedgerIndex committed = new LedgerIndex();
        committed.addEntry(read(entry("a", 0, 4, (short) 1), 10), 50);
        committed.addEntry(read(entry("b", 5, 9, (short) 1), 11), 50);
        LedgerSnapshot snapshot = committed.snapshot(12, Map.of(KEY, 5L));
        LedgerSnapshot decoded = (LedgerSnapshot) LedgerCodec.decode(LedgerCodec.encodeSnapshot(snapshot), 20);
        assertEquals(snapshot, decoded);
        assertEquals(List.of(new LedgerRange(10, LedgerRange.COMPACTED, 0, 4, (byte) 1, (short) 1), new LedgerRange(11, "b", 5, 9, (byte) 1, (short) 1)),
                decoded.ranges().get(KEY), "range 0..4 lies below start offset 5: compacted, still evidence of its output");

        // A reader that also saw an aborted entry below 12 and a newer one at 13.
        LedgerIndex reader = new LedgerIndex();
        reader.addEntry(read(entry("x", 0, 9, (short) 3), 9), 50);
        reader.addEntry(read(entry("c", 10, 12, (short) 1), 13), 50);
        reader.applySnapshot(decoded);
        assertEquals(0, reader.bytesSinceSnapshot());
        assertEquals(5, reader.watermark(KEY));
        assertEquals(List.of("b"), reader.covering(KEY, 6, Long.MAX_VALUE).stream().map(LedgerRange::transactionalId).toList());
        assertEquals(List.of("c"), reader.covering(KEY, 11, Long.MAX_VALUE).stream().map(LedgerRange::transactionalId).toList());
        assertEquals(List.of(LedgerRange.COMPACTED), ids(reader.covering(KEY, 2, Long.MAX_VALUE)));
        assertEquals(-1, reader.claimedBelow(KEY), "a watermark claims nothing");
    }

    @Test
    void compactionMergesAdjacentRangesOfOneTypeAndKeepsTheGapsNoEntryHolds() {
        // Issue 22 (the backlog after a reset): offsets 10..12 were never committed (skipped at latest, or archived by the limit).
        LedgerIndex committed = new LedgerIndex();
        committed.addEntry(read(entry("a", 0, 4, (short) 1), 10), 50);
        committed.addEntry(read(entry("b", 5, 9, (short) 2), 11), 50);
        committed.addEntry(read(entry("c", 13, 15, (short) 1), 12), 50);
        committed.addEntry(read(new LedgerEntry("d", Map.of(KEY, List.of(new LedgerRange(-1, "d", 16, 16, (byte) 3, (short) 1)))), 13), 50);
        committed.addEntry(read(entry("e", 17, 30, (short) 1), 14), 50);   // straddles the start offset 20: kept as written
        LedgerSnapshot snapshot = committed.snapshot(15, Map.of(KEY, 20L));
        assertEquals(List.of(new LedgerRange(11, LedgerRange.COMPACTED, 0, 9, (byte) 1, (short) 2),
                new LedgerRange(12, LedgerRange.COMPACTED, 13, 15, (byte) 1, (short) 1),
                new LedgerRange(13, LedgerRange.COMPACTED, 16, 16, (byte) 3, (short) 1),
                new LedgerRange(14, "e", 17, 30, (byte) 1, (short) 1)), snapshot.ranges().get(KEY));
        LedgerIndex reader = new LedgerIndex();
        reader.applySnapshot((LedgerSnapshot) LedgerCodec.decode(LedgerCodec.encodeSnapshot(snapshot), 30));
        assertTrue(reader.covering(KEY, 11, Long.MAX_VALUE).isEmpty(), "a gap below the watermark is no evidence of processing");
        assertTrue(reader.covering(KEY, 7, Long.MAX_VALUE).get(0).compacted());
        // Compacting again (a later snapshot) changes nothing.
        assertEquals(snapshot.ranges(), reader.snapshot(15, Map.of(KEY, 20L)).ranges());
    }

    @Test
    void aSnapshotWrittenBeforeCompactionIsReadWithItsWatermarksAsClaimsAndLaterSnapshotsCarryThem() {
        ShareKey other = new ShareKey("g", Uuid.randomUuid(), "u", 0);
        byte[] old = LedgerIndexes.oldFormatSnapshot(12, Map.of(KEY, 5L, other, 3L),
                Map.of(KEY, List.of(new LedgerRange(11, "b", 5, 9, (byte) 1, (short) 1))));
        LedgerSnapshot decoded = (LedgerSnapshot) LedgerCodec.decode(old, 20);
        assertEquals(Map.of(KEY, 5L, other, 3L), decoded.claimedBelow(), "the old snapshot dropped the ranges below its watermarks");
        assertEquals(List.of("b"), decoded.ranges().get(KEY).stream().map(LedgerRange::transactionalId).toList());
        LedgerIndex reader = new LedgerIndex();
        reader.applySnapshot(decoded);
        assertEquals(5, reader.claimedBelow(KEY));
        assertEquals(3, reader.claimedBelow(other));

        // A later snapshot (new format) keeps the claims, whatever start offsets it reads.
        reader.addEntry(read(entry("c", 10, 14, (short) 1), 21), 50);
        LedgerSnapshot later = reader.snapshot(22, Map.of(KEY, 15L, other, 0L));
        LedgerSnapshot laterDecoded = (LedgerSnapshot) LedgerCodec.decode(LedgerCodec.encodeSnapshot(later), 30);
        assertEquals(later, laterDecoded);
        assertEquals(Map.of(KEY, 5L, other, 3L), laterDecoded.claimedBelow());
        LedgerIndex next = new LedgerIndex();
        next.applySnapshot(laterDecoded);
        assertEquals(5, next.claimedBelow(KEY));
        assertEquals(15, next.watermark(KEY));
        assertEquals(List.of(LedgerRange.COMPACTED), ids(next.covering(KEY, 12, Long.MAX_VALUE)));

        // A share-partition whose topic id is gone: its ranges are dropped and every offset is claimed.
        LedgerSnapshot dead = next.snapshot(22, Map.of(), java.util.Set.of(KEY));
        assertFalse(dead.ranges().containsKey(KEY));
        LedgerIndex afterDeath = new LedgerIndex();
        afterDeath.applySnapshot((LedgerSnapshot) LedgerCodec.decode(LedgerCodec.encodeSnapshot(dead), 30));
        assertEquals(Long.MAX_VALUE, afterDeath.claimedBelow(KEY));
    }

    @Test
    void rangesAddedOutOfOrderOverlappingOrLongAreAllFoundInLedgerOrder() {
        LedgerIndex index = new LedgerIndex();
        index.addEntry(read(entry("a", 100, 199, (short) 1), 1), 10);
        index.addEntry(read(entry("b", 0, 1_000, (short) 1), 2), 10); // long, starts before everything
        index.addEntry(read(entry("c", 150, 160, (short) 2), 3), 10); // a redelivery inside a's run
        index.addEntry(read(entry("d", 50, 60, (short) 1), 4), 10);   // out of order
        assertEquals(List.of("a", "b", "c"), ids(index.covering(KEY, 155, Long.MAX_VALUE)));
        assertEquals(List.of("b", "d"), ids(index.covering(KEY, 55, Long.MAX_VALUE)));
        assertEquals(List.of("b"), ids(index.covering(KEY, 1_000, Long.MAX_VALUE)));
        assertEquals(List.of(), ids(index.covering(KEY, 1_001, Long.MAX_VALUE)));
        assertEquals(List.of("a", "b"), ids(index.overlapping(KEY, 161, 170, 4)));
        assertEquals(new LedgerRange(3, "c", 150, 160, (byte) 1, (short) 2), index.covering(KEY, 150, 4).get(2));
    }

    @Test
    void lookupsAgreeWithAScanOfEveryRangeHeldAcrossSnapshots() {
        Random random = new Random(13);
        LedgerIndex index = new LedgerIndex();
        List<LedgerRange> held = new ArrayList<>();
        long ledgerOffset = 0;
        for (int round = 0; round < 5; round++) {
            for (int i = 0; i < 400; i++, ledgerOffset++) {
                long first = random.nextInt(5_000);
                long last = first + (random.nextInt(10) == 0 ? random.nextInt(2_000) : random.nextInt(20));
                LedgerEntry e = read(entry("tx-" + random.nextInt(5), first, last, (short) (1 + random.nextInt(3))), ledgerOffset);
                index.addEntry(e, 1);
                held.addAll(e.ranges().get(KEY));
            }
            for (int q = 0; q < 500; q++) {
                long from = random.nextInt(7_000) - 100;
                long to = from + random.nextInt(30);
                long below = random.nextInt((int) ledgerOffset + 10);
                assertEquals(scan(held, from, to, below), index.overlapping(KEY, from, to, below), "[" + from + ", " + to + "] below " + below);
            }
            long coversBelow = ledgerOffset - random.nextInt(50);
            LedgerSnapshot snapshot = (LedgerSnapshot) LedgerCodec.decode(LedgerCodec.encodeSnapshot(index.snapshot(coversBelow, Map.of())), ledgerOffset);
            index.applySnapshot(snapshot);
            held.removeIf(r -> r.ledgerOffset() < coversBelow);
            held.addAll(snapshot.ranges().getOrDefault(KEY, List.of()));
            assertEquals(held.stream().sorted(LEDGER_ORDER).toList(), index.overlapping(KEY, Long.MIN_VALUE, Long.MAX_VALUE, Long.MAX_VALUE));
        }
    }

    private static final Comparator<LedgerRange> LEDGER_ORDER = Comparator.comparingLong(LedgerRange::ledgerOffset).thenComparingLong(LedgerRange::first);

    private static List<LedgerRange> scan(List<LedgerRange> held, long from, long to, long below) {
        return held.stream().filter(r -> r.ledgerOffset() < below && r.first() <= to && r.last() >= from).sorted(LEDGER_ORDER).toList();
    }

    private static List<String> ids(List<LedgerRange> ranges) {
        return ranges.stream().map(LedgerRange::transactionalId).toList();
    }

    @Test
    void aSnapshotOverItsRangeBudgetFoldsTheOldestRangesIntoAClaim() {
        ShareKey other = new ShareKey("g", Uuid.randomUuid(), "u", 0);
        Map<ShareKey, List<LedgerRange>> compacted = new java.util.LinkedHashMap<>();
        Map<ShareKey, List<LedgerRange>> kept = new java.util.LinkedHashMap<>();
        for (ShareKey k : List.of(KEY, other)) {
            List<LedgerRange> ranges = new java.util.ArrayList<>();
            for (long o = 0; o < 10; o++) {   // ACCEPT and REJECT alternating: one compacted range per record
                ranges.add(new LedgerRange(o, LedgerRange.COMPACTED, o, o, (byte) (o % 2 == 0 ? 1 : 3), (short) 1));
            }
            compacted.put(k, ranges);
            kept.put(k, new java.util.ArrayList<>(ranges));
        }
        Map<ShareKey, Long> claims = new java.util.LinkedHashMap<>();

        LedgerIndex.foldOldest(compacted, kept, claims, 8);

        assertEquals(Map.of(KEY, 6L, other, 6L), claims, "the six oldest of each share-partition folded below offset 6");
        assertEquals(List.of(6L, 7L, 8L, 9L), kept.get(KEY).stream().map(LedgerRange::first).toList());
        assertEquals(8, kept.values().stream().mapToInt(List::size).sum(), "the budget holds");
    }

    @Test
    void aSnapshotWithinItsRangeBudgetKeepsEveryRange() {
        List<LedgerRange> ranges = List.of(new LedgerRange(0, LedgerRange.COMPACTED, 0, 4, (byte) 1, (short) 1));
        Map<ShareKey, List<LedgerRange>> kept = new java.util.LinkedHashMap<>(Map.of(KEY, new java.util.ArrayList<>(ranges)));
        Map<ShareKey, Long> claims = new java.util.LinkedHashMap<>();
        LedgerIndex.foldOldest(Map.of(KEY, ranges), kept, claims, 1);
        assertEquals(Map.of(), claims);
        assertEquals(ranges, kept.get(KEY));
    }
}
