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

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * A ledger view that lost its place (its position was deleted under it) restarts at the log start
 * and must not answer before it has read a snapshot that covers everything below that start
 * (issue 12, hole 1: producers write snapshots concurrently, an older one can land after a newer
 * one's deletion point).
 */
class LedgerViewTest {
    private static final String TOPIC = "ledger";
    private static final TopicPartition TP = new TopicPartition(TOPIC, 0);
    private static final ShareKey KEY = new ShareKey("g", Uuid.randomUuid(), "in", 0);
    private static final long R = 5;

    private final MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("none");
    private final LedgerView view = new LedgerView(consumer, IsolationLevel.READ_COMMITTED);

    private void append(long offset, byte[] value) {
        consumer.addRecord(new ConsumerRecord<>(TOPIC, 0, offset, null, value));
    }

    @Test
    void aRestartedViewWaitsForTheSnapshotThatCoversItsNewStart() {
        consumer.updateBeginningOffsets(Map.of(TP, 0L));
        view.index(TP);
        // Meanwhile: Y snapshots at 800 (an open transaction pinned its LSO), B commits E_B@900 for r
        // (delivery 2), X snapshots at 1000 including E_B; Y writes its snapshot @1002 and deletes
        // below 800, X writes @1004 and deletes below 1000. This view lagged: its position is gone.
        LedgerRange eB = new LedgerRange(900, "B", R, R, (byte) 1, (short) 2);
        LedgerSnapshot y = new LedgerSnapshot(800, Map.of(), Map.of());
        LedgerSnapshot x = new LedgerSnapshot(1000, Map.of(), Map.of(KEY, List.of(eB)));
        consumer.updateBeginningOffsets(Map.of(TP, 1000L));
        consumer.setPollException(new OffsetOutOfRangeException("deleted", Map.of(TP, 10L)));
        view.pollOnce(java.time.Duration.ZERO);
        append(1002, LedgerCodec.encodeSnapshot(y));
        append(1004, LedgerCodec.encodeSnapshot(x));
        consumer.setMaxPollRecords(1);

        view.catchUpTo(TP, 1003, System.nanoTime() + TimeUnit.SECONDS.toNanos(5));

        assertEquals(List.of(eB), view.index(TP).covering(KEY, R, Long.MAX_VALUE),
                "the view called itself complete at position " + view.position(TP) + " without the entry of B that holds r: "
                        + "a stale holder A would commit r a second time");
    }

    @Test
    void anOlderSnapshotAloneDoesNotCompleteARestartedView() {
        consumer.updateBeginningOffsets(Map.of(TP, 1000L));
        view.index(TP);
        append(1002, LedgerCodec.encodeSnapshot(new LedgerSnapshot(800, Map.of(), Map.of())));
        view.pollOnce(java.time.Duration.ZERO);
        assertFalse(view.complete(TP), "a snapshot covering only offsets below 800 cannot complete a view that starts at 1000");
    }

    @Test
    void aRecordThatCannotBeDecodedStopsTheViewAtItsOffset() {
        // Issue 22, finding 8: the view moved past the whole fetch and called itself complete, without the entries after it.
        consumer.updateBeginningOffsets(Map.of(TP, 0L));
        view.index(TP);
        LedgerRange before = new LedgerRange(0, "A", R, R, (byte) 1, (short) 1);
        append(0, LedgerCodec.encodeEntry(new LedgerEntry("A", Map.of(KEY, List.of(before)))));
        append(1, new byte[]{(byte) 99, 1, 2});
        append(2, LedgerCodec.encodeEntry(new LedgerEntry("B", Map.of(KEY, List.of(new LedgerRange(2, "B", R + 1, R + 1, (byte) 1, (short) 1))))));
        org.apache.kafka.common.KafkaException e = org.junit.jupiter.api.Assertions.assertThrows(org.apache.kafka.common.KafkaException.class,
                () -> view.pollOnce(java.time.Duration.ZERO));
        org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("offset 1"), e.getMessage());
        assertEquals(1, view.position(TP), "the view stops at the record it cannot read: it never answers for what lies after it");
        assertEquals(List.of(before), view.index(TP).covering(KEY, R, Long.MAX_VALUE));
    }

    @Test
    void aLedgerShorterThanWhatTheViewHadReadIsRefusedNotReadAgainFromZero() {
        // Issue 22, finding 8: the ledger topic was deleted and re-created (empty, or by auto-creation) under a view that had
        // read to offset 50. Before, the view restarted at 0 and called itself complete, holding none of the commits it had read.
        consumer.updateBeginningOffsets(Map.of(TP, 0L));
        view.index(TP);
        consumer.setPollException(new OffsetOutOfRangeException("re-created", Map.of(TP, 50L)));
        LedgerHistoryLostException e = org.junit.jupiter.api.Assertions.assertThrows(LedgerHistoryLostException.class,
                () -> view.pollOnce(java.time.Duration.ZERO));
        org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("below offset 50"), e.getMessage());
        org.junit.jupiter.api.Assertions.assertThrows(LedgerHistoryLostException.class, () -> view.pollOnce(java.time.Duration.ZERO),
                "and it stays refused");
    }
}
