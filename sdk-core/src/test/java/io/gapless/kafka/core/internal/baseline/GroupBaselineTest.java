package io.gapless.kafka.core.internal.baseline;

import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The baseline's record format and its first-wins fold (pure logic). */
class GroupBaselineTest {
    private static final Uuid ID = Uuid.randomUuid();

    @Test
    void everyRecordKindRoundTrips() {
        BaselineRecord[] records = {
            new BaselineRecord.GroupStarted("g|1", "w", true),
            new BaselineRecord.TopicRegistered("g", "w", "orders", ID, 4, Set.of(2, 3), "why"),
            new BaselineRecord.StartOffsetChosen("g", "w", "orders", ID, 3, 42L, "latest"),
        };
        for (BaselineRecord r : records) {
            assertEquals(r, BaselineRecord.parse(BaselineRecord.value(r)));
        }
        assertNull(BaselineRecord.parse(null), "tombstone");
        assertNull(BaselineRecord.parse(new byte[] {9, 9}), "unknown format version");
    }

    @Test
    void keysCarryTheWriterSoCompactionNeverReplacesTheWinner() {
        byte[] a = BaselineRecord.key(new BaselineRecord.GroupStarted("g", "writer-a", false));
        byte[] b = BaselineRecord.key(new BaselineRecord.GroupStarted("g", "writer-b", false));
        assertFalse(java.util.Arrays.equals(a, b));
        assertArrayEquals(a, BaselineRecord.key(new BaselineRecord.GroupStarted("g", "writer-a", false)));
    }

    @Test
    void theFirstRecordOfEachKindWins() {
        GroupBaseline b = new GroupBaseline("g");
        assertFalse(b.started());
        b.apply(new BaselineRecord.GroupStarted("other-group", "w0", false), 5);
        assertFalse(b.started(), "records of other groups sharing the partition are ignored");
        b.apply(new BaselineRecord.GroupStarted("g", "w1", false), 100);
        b.apply(new BaselineRecord.GroupStarted("g", "w2", true), 200);
        assertEquals(100, b.creationTimeMs());
        assertFalse(b.adopted());
        b.apply(new BaselineRecord.TopicRegistered("g", "w1", "t", ID, 2, Set.of(), ""), 110);
        b.apply(new BaselineRecord.TopicRegistered("g", "w2", "t", ID, 4, Set.of(), ""), 210);
        assertEquals(2, b.entry("t", ID).orElseThrow().partitionCount());
        b.apply(new BaselineRecord.StartOffsetChosen("g", "w2", "t", ID, 1, 7L, "latest"), 220);
        b.apply(new BaselineRecord.StartOffsetChosen("g", "w1", "t", ID, 1, 9L, "latest"), 230);
        assertEquals(7L, b.startOffset("t", ID, 1).orElseThrow());
        Uuid recreated = Uuid.randomUuid();
        assertNotEquals(ID, recreated);
        assertTrue(b.knewOtherIncarnation("t", recreated));
        assertFalse(b.knewOtherIncarnation("t", ID));
    }
}
