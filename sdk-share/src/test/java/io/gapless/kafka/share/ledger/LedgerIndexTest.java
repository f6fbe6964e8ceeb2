package io.gapless.kafka.share.ledger;

import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
        assertEquals(1, decoded.ranges().get(KEY).size(), "range 0..4 lies below start offset 5");

        // A reader that also saw an aborted entry below 12 and a newer one at 13.
        LedgerIndex reader = new LedgerIndex();
        reader.addEntry(read(entry("x", 0, 9, (short) 3), 9), 50);
        reader.addEntry(read(entry("c", 10, 12, (short) 1), 13), 50);
        reader.applySnapshot(decoded);
        assertEquals(0, reader.bytesSinceSnapshot());
        assertEquals(5, reader.watermark(KEY));
        assertEquals(List.of("b"), reader.covering(KEY, 6, Long.MAX_VALUE).stream().map(LedgerRange::transactionalId).toList());
        assertEquals(List.of("c"), reader.covering(KEY, 11, Long.MAX_VALUE).stream().map(LedgerRange::transactionalId).toList());
        assertTrue(reader.covering(KEY, 2, Long.MAX_VALUE).isEmpty());
    }
}
