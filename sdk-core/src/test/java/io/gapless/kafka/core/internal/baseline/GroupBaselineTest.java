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
            new BaselineRecord.GroupStarted("g|1", "w", "", true, 0),
            new BaselineRecord.TopicRegistered("g", "w", "", "orders", ID, 4, Set.of(2, 3), "why"),
            new BaselineRecord.StartOffsetChosen("g", "w", "", "orders", ID, 3, 42L, "latest"),
        };
        for (BaselineRecord r : records) {
            assertEquals(r, BaselineRecord.parse(BaselineRecord.value(r)));
        }
        assertNull(BaselineRecord.parse(null), "tombstone");
        assertNull(BaselineRecord.parse(new byte[] {9, 9}), "unknown format version");
    }

    @Test
    void keysCarryTheWriterSoCompactionNeverReplacesTheWinner() {
        byte[] a = BaselineRecord.key(new BaselineRecord.GroupStarted("g", "writer-a", "", false, 0));
        byte[] b = BaselineRecord.key(new BaselineRecord.GroupStarted("g", "writer-b", "", false, 0));
        assertFalse(java.util.Arrays.equals(a, b));
        assertArrayEquals(a, BaselineRecord.key(new BaselineRecord.GroupStarted("g", "writer-a", "", false, 0)));
    }

    @Test
    void theFirstRecordOfEachKindWins() {
        GroupBaseline b = new GroupBaseline("g");
        assertFalse(b.started());
        b.apply(new BaselineRecord.GroupStarted("other-group", "w0", "", false, 0), 5);
        assertFalse(b.started(), "records of other groups sharing the partition are ignored");
        b.apply(new BaselineRecord.GroupStarted("g", "w1", "", false, 0), 100);
        b.apply(new BaselineRecord.GroupStarted("g", "w2", "", true, 0), 200);
        assertEquals(100, b.creationTimeMs());
        assertFalse(b.adopted());
        b.apply(new BaselineRecord.TopicRegistered("g", "w1", "", "t", ID, 2, Set.of(), ""), 110);
        b.apply(new BaselineRecord.TopicRegistered("g", "w2", "", "t", ID, 4, Set.of(), ""), 210);
        assertEquals(2, b.entry("t", ID).orElseThrow().partitionCount());
        b.apply(new BaselineRecord.StartOffsetChosen("g", "w2", "", "t", ID, 1, 7L, "latest"), 220);
        b.apply(new BaselineRecord.StartOffsetChosen("g", "w1", "", "t", ID, 1, 9L, "latest"), 230);
        assertEquals(7L, b.startOffset("t", ID, 1).orElseThrow());
        Uuid recreated = Uuid.randomUuid();
        assertNotEquals(ID, recreated);
        assertTrue(b.knewOtherIncarnation("t", recreated));
        assertFalse(b.knewOtherIncarnation("t", ID));
    }

    @Test
    void newRecordKindsRoundTripAndFormat1StillParses() {
        BaselineRecord[] records = {
            new BaselineRecord.TopicsSnapshot("g", "w", "inc", 0, 1, java.util.Map.of(ID, 3)),
            new BaselineRecord.ProgressSeen("g", "w", "inc", ID),
            new BaselineRecord.GroupReset("g", "w", "inc", "next", "why"),
        };
        for (BaselineRecord r : records) {
            assertEquals(r, BaselineRecord.parse(BaselineRecord.value(r)));
        }
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        try (java.io.DataOutputStream out = new java.io.DataOutputStream(bytes)) {
            out.writeByte(1);
            out.writeUTF("g");
            out.writeUTF("w");
            out.writeByte(BaselineRecord.GROUP_STARTED);
            out.writeBoolean(true);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        assertEquals(new BaselineRecord.GroupStarted("g", "w", "", true, -1), BaselineRecord.parse(bytes.toByteArray()),
                "a format-1 group record: first incarnation, no snapshot");
    }

    @Test
    void theWinnersSnapshotIsTheGroupsStart() {
        GroupBaseline b = new GroupBaseline("g");
        Uuid later = Uuid.randomUuid();
        b.apply(new BaselineRecord.TopicsSnapshot("g", "w1", "", 0, 1, java.util.Map.of(ID, 2)), 1);
        b.apply(new BaselineRecord.TopicsSnapshot("g", "w2", "", 0, 1, java.util.Map.of(ID, 4, later, 1)), 2);
        b.apply(new BaselineRecord.GroupStarted("g", "w2", "", false, 1), 3);
        b.apply(new BaselineRecord.GroupStarted("g", "w1", "", false, 1), 4);
        assertTrue(b.hasSnapshot());
        assertEquals(4, b.partitionsAtStart(ID).getAsInt(), "the snapshot of the writer whose group record won");
        assertEquals(1, b.partitionsAtStart(later).getAsInt());
        GroupBaseline incomplete = new GroupBaseline("g");
        incomplete.apply(new BaselineRecord.TopicsSnapshot("g", "w1", "", 0, 2, java.util.Map.of(ID, 2)), 1);
        incomplete.apply(new BaselineRecord.GroupStarted("g", "w1", "", false, 2), 2);
        assertFalse(incomplete.hasSnapshot(), "a chunk missing: no snapshot rather than a partial one");
    }

    @Test
    void aResetEndsOnlyTheCurrentIncarnation() {
        GroupBaseline b = new GroupBaseline("g");
        b.apply(new BaselineRecord.GroupStarted("g", "w1", "", false, 0), 1);
        b.apply(new BaselineRecord.ProgressSeen("g", "w1", "", ID), 2);
        assertTrue(b.progressSeen());
        b.apply(new BaselineRecord.GroupReset("g", "w2", "", "i2", "deleted"), 3);
        b.apply(new BaselineRecord.GroupReset("g", "w3", "", "i3", "deleted, seen concurrently"), 4);
        assertEquals("i2", b.incarnation(), "the first reset of an incarnation wins, the concurrent one is ignored");
        assertFalse(b.started());
        assertFalse(b.progressSeen());
        b.apply(new BaselineRecord.GroupStarted("g", "w3", "i3", false, 0), 5);
        assertFalse(b.started(), "records of another incarnation are ignored");
        b.apply(new BaselineRecord.GroupStarted("g", "w2", "i2", false, 0), 6);
        assertTrue(b.started());
        assertEquals(6, b.creationTimeMs());
    }
}
