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
package io.gapless.kafka.share.txn;

import io.gapless.kafka.share.ledger.LedgerRange;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.InvalidRecordStateException;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.gapless.kafka.share.txn.ShareRecords.batch;
import static io.gapless.kafka.share.txn.ShareRecords.record;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The held-records bookkeeping of a transactional share consumer: hold, stage, forget, settle, release. */
class HeldRecordsTest {
    private static final TopicPartition TP = new TopicPartition("in", 0);
    private static final TopicIdPartition TIP = new TopicIdPartition(Uuid.randomUuid(), TP);

    private final HeldRecords<String, String> held = new HeldRecords<>();

    private void hold(long offset, int delivery) {
        held.hold(TIP, record(TP, offset, delivery));
    }

    @Test
    void stagingCoalescesRangesByTypeAndDeliveryCount() {
        hold(0, 1);
        hold(1, 1);
        hold(2, 2);
        hold(3, 2);
        hold(4, 2);
        Map<TopicIdPartition, List<AcknowledgementBatch>> acks = Map.of(TIP, List.of(
                new AcknowledgementBatch(0, 3, AcknowledgeType.ACCEPT), new AcknowledgementBatch(4, 4, AcknowledgeType.REJECT)));
        Map<TopicIdPartition, List<LedgerRange>> ranges = held.stage(acks, "t1");
        assertEquals(List.of(
                new LedgerRange(-1, "t1", 0, 1, AcknowledgeType.ACCEPT.id, (short) 1),
                new LedgerRange(-1, "t1", 2, 3, AcknowledgeType.ACCEPT.id, (short) 2),
                new LedgerRange(-1, "t1", 4, 4, AcknowledgeType.REJECT.id, (short) 2)), ranges.get(TIP));
        assertTrue(held.anyStaged());
    }

    @Test
    void stagingIsAllOrNothingAndNamesWhatIsNotHeldOrAlreadyStaged() {
        hold(0, 1);
        hold(1, 1);
        held.stage(batch(TIP, 0, 0, AcknowledgeType.ACCEPT), "t1");
        InvalidRecordStateException e = assertThrows(InvalidRecordStateException.class,
                () -> held.stage(batch(TIP, 0, 2, AcknowledgeType.ACCEPT), "t2"));
        assertTrue(e.getMessage().contains("in-0@0 is already staged by transactional.id t1"), e.getMessage());
        assertTrue(e.getMessage().contains("in-0@2 is not held by this consumer"), e.getMessage());
        // Offset 1 was valid but nothing of the failed call was staged: it is still free to stage.
        assertEquals(1, held.stage(batch(TIP, 1, 1, AcknowledgeType.ACCEPT), "t2").get(TIP).size());
    }

    @Test
    void aZeroTopicIdResolvesToTheHeldPartitionByName() {
        hold(0, 1);
        TopicIdPartition unknownId = new TopicIdPartition(Uuid.ZERO_UUID, TP);
        assertEquals(TIP, held.resolve(unknownId));
        assertEquals(List.of(TIP), List.copyOf(held.stage(batch(unknownId, 0, 0, AcknowledgeType.ACCEPT), "t").keySet()));
    }

    @Test
    void unstagedRecordsAreTakenForReleaseStagedOnesStay() {
        hold(0, 1);
        hold(1, 1);
        hold(2, 1);
        held.stage(batch(TIP, 1, 1, AcknowledgeType.ACCEPT), "t");
        List<ConsumerRecord<String, String>> unstaged = held.takeUnstaged();
        assertEquals(List.of(0L, 2L), unstaged.stream().map(ConsumerRecord::offset).toList());
        assertTrue(held.anyStaged());
        assertFalse(held.isEmpty());
        assertEquals(List.of(), held.takeUnstaged());
    }

    @Test
    void takeAndForgetEndTheHold() {
        ConsumerRecord<String, String> r0 = record(TP, 0, 1);
        held.hold(TIP, r0);
        hold(1, 1);
        held.stage(batch(TIP, 0, 1, AcknowledgeType.ACCEPT), "t");
        assertSame(r0, held.take(TIP, 0));
        assertNull(held.take(TIP, 0), "a record is settled once");
        held.forget(TIP, 1);
        assertFalse(held.anyStaged());
        assertTrue(held.isEmpty());
        assertThrows(InvalidRecordStateException.class, () -> held.stage(batch(TIP, 1, 1, AcknowledgeType.ACCEPT), "t"));
    }
}
