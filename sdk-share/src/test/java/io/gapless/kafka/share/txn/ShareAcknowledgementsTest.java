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

import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ShareAcknowledgementsTest {
    private static final TopicIdPartition P0 = new TopicIdPartition(Uuid.randomUuid(), 0, "t");
    private static final TopicIdPartition P1 = new TopicIdPartition(P0.topicId(), 1, "t");

    @Test
    void consecutiveOffsetsOfOneTypeCoalesceIntoOneBatch() {
        ShareAcknowledgements acks = new ShareAcknowledgements();
        for (long o : new long[]{5, 3, 4, 6}) {
            acks.add(P0, o, AcknowledgeType.ACCEPT);
        }
        assertEquals(Map.of(P0, List.of(new AcknowledgementBatch(3, 6, AcknowledgeType.ACCEPT))), acks.batches());
        assertEquals(4, acks.count());
    }

    @Test
    void gapsAndTypeChangesSplitBatchesPerPartition() {
        ShareAcknowledgements acks = new ShareAcknowledgements()
                .add(P0, 0, AcknowledgeType.ACCEPT).add(P0, 1, AcknowledgeType.ACCEPT)
                .add(P0, 2, AcknowledgeType.REJECT)
                .add(P0, 4, AcknowledgeType.REJECT)
                .add(P1, 7, AcknowledgeType.ACCEPT);
        assertEquals(List.of(new AcknowledgementBatch(0, 1, AcknowledgeType.ACCEPT), new AcknowledgementBatch(2, 2, AcknowledgeType.REJECT),
                new AcknowledgementBatch(4, 4, AcknowledgeType.REJECT)), acks.batches().get(P0));
        assertEquals(List.of(new AcknowledgementBatch(7, 7, AcknowledgeType.ACCEPT)), acks.batches().get(P1));
    }

    @Test
    void sameOffsetTwiceWithAnotherTypeIsRejectedNamingIt() {
        ShareAcknowledgements acks = new ShareAcknowledgements().add(P0, 9, AcknowledgeType.ACCEPT);
        acks.add(P0, 9, AcknowledgeType.ACCEPT);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> acks.add(P0, 9, AcknowledgeType.REJECT));
        assertTrue(e.getMessage().contains("Offset 9"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> acks.add(P0, -1, AcknowledgeType.ACCEPT));
    }

    @Test
    void fromRecordsUsesEveryRecordWithAZeroTopicIdForForeignRecords() {
        ConsumerRecords<String, String> records = new ConsumerRecords<>(Map.of(new TopicPartition("t", 0),
                List.of(new ConsumerRecord<>("t", 0, 10, "k", "v"), new ConsumerRecord<>("t", 0, 11, "k", "v"))));
        ShareAcknowledgements acks = ShareAcknowledgements.fromRecords(records, AcknowledgeType.REJECT);
        TopicIdPartition unresolved = new TopicIdPartition(Uuid.ZERO_UUID, 0, "t");
        assertEquals(Map.of(unresolved, List.of(new AcknowledgementBatch(10, 11, AcknowledgeType.REJECT))), acks.batches());
    }

    @Test
    void batchesValidateTheirRangeAndHaveValueEquality() {
        assertThrows(IllegalArgumentException.class, () -> new AcknowledgementBatch(5, 4, AcknowledgeType.ACCEPT));
        assertThrows(IllegalArgumentException.class, () -> new AcknowledgementBatch(-1, 4, AcknowledgeType.ACCEPT));
        assertThrows(NullPointerException.class, () -> new AcknowledgementBatch(1, 4, null));
        assertEquals(new AcknowledgementBatch(1, 4, AcknowledgeType.ACCEPT), new AcknowledgementBatch(1, 4, AcknowledgeType.ACCEPT));
        assertNotEquals(new AcknowledgementBatch(1, 4, AcknowledgeType.ACCEPT), new AcknowledgementBatch(1, 4, AcknowledgeType.REJECT));
        assertEquals(4, new AcknowledgementBatch(1, 4, AcknowledgeType.ACCEPT).size());
    }

    @Test
    void shareGroupMetadataIsAValue() {
        assertEquals(new ShareGroupMetadata("g", "m", 3), new ShareGroupMetadata("g", "m", 3));
        assertEquals(new ShareGroupMetadata("g", "m", 3).hashCode(), new ShareGroupMetadata("g", "m", 3).hashCode());
        assertNotEquals(new ShareGroupMetadata("g", "m", 3), new ShareGroupMetadata("g", "m", 4));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new ShareGroupMetadata(" ", "m", 0));
        assertTrue(e.getMessage().contains("' '"), e.getMessage());
    }

    // ---- KIP-1289 as Kafka ships it: the members of org.apache.kafka.clients.consumer.ShareAcknowledgements(Batch) ----

    private static final byte ACCEPT = AcknowledgeType.ACCEPT.id;
    private static final byte REJECT = AcknowledgeType.REJECT.id;

    @Test
    void kafkasBatchValidation() {
        ShareAcknowledgementBatch one = new ShareAcknowledgementBatch(3, 5, List.of(ACCEPT));
        assertEquals(3, one.firstOffset());
        assertEquals(5, one.lastOffset());
        assertEquals(List.of(ACCEPT), one.acknowledgeTypes());
        assertEquals(List.of(ACCEPT, REJECT, ACCEPT), new ShareAcknowledgementBatch(3, 5, List.of(ACCEPT, REJECT, ACCEPT)).acknowledgeTypes());
        assertEquals(new ShareAcknowledgementBatch(7, 7, List.of(REJECT)), new ShareAcknowledgementBatch(7, 7, List.of(REJECT)));
        assertNotEquals(new ShareAcknowledgementBatch(7, 7, List.of(REJECT)), new ShareAcknowledgementBatch(7, 7, List.of(ACCEPT)));
        IllegalArgumentException backwards = assertThrows(IllegalArgumentException.class,
                () -> new ShareAcknowledgementBatch(5, 4, List.of(ACCEPT)));
        assertTrue(backwards.getMessage().contains("lastOffset 4"), backwards.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new ShareAcknowledgementBatch(1, 1, List.of()));
        IllegalArgumentException count = assertThrows(IllegalArgumentException.class,
                () -> new ShareAcknowledgementBatch(1, 3, List.of(ACCEPT, REJECT)));
        assertTrue(count.getMessage().contains("2 types for the 3 offsets"), count.getMessage());
        assertThrows(NullPointerException.class, () -> new ShareAcknowledgementBatch(1, 1, null));
        List<Byte> types = new java.util.ArrayList<>(List.of(ACCEPT));
        ShareAcknowledgementBatch copied = new ShareAcknowledgementBatch(0, 0, types);
        types.set(0, REJECT);
        assertEquals(List.of(ACCEPT), copied.acknowledgeTypes(), "the types are copied");
        assertThrows(UnsupportedOperationException.class, () -> copied.acknowledgeTypes().add(REJECT));
    }

    @Test
    void kafkasConstructorCopiesDropsEmptyListsAndIsImmutable() {
        Map<TopicIdPartition, List<ShareAcknowledgementBatch>> given = new java.util.HashMap<>();
        given.put(P0, new java.util.ArrayList<>(List.of(new ShareAcknowledgementBatch(0, 1, List.of(ACCEPT)))));
        given.put(P1, List.of());
        ShareAcknowledgements acks = new ShareAcknowledgements(given);
        given.get(P0).clear();
        given.put(P1, List.of(new ShareAcknowledgementBatch(9, 9, List.of(ACCEPT))));
        assertEquals(Map.of(P0, List.of(new ShareAcknowledgementBatch(0, 1, List.of(ACCEPT)))), acks.acknowledgements());
        assertFalse(acks.isEmpty());
        assertThrows(UnsupportedOperationException.class, () -> acks.acknowledgements().clear());
        assertThrows(IllegalStateException.class, () -> acks.add(P0, 5, AcknowledgeType.ACCEPT));
        assertTrue(ShareAcknowledgements.empty().isEmpty());
        assertTrue(new ShareAcknowledgements(Map.of(P0, List.of())).isEmpty());
        assertEquals(ShareAcknowledgements.empty(), new ShareAcknowledgements(Map.of(P1, List.of())));
        assertThrows(NullPointerException.class, () -> new ShareAcknowledgements(null));
        IllegalArgumentException overlap = assertThrows(IllegalArgumentException.class, () -> new ShareAcknowledgements(Map.of(P0,
                List.of(new ShareAcknowledgementBatch(4, 6, List.of(ACCEPT)), new ShareAcknowledgementBatch(0, 4, List.of(ACCEPT))))));
        assertTrue(overlap.getMessage().contains("0..4 and 4..6"), overlap.getMessage());
    }

    @Test
    void kafkasShapeHasValueEqualityAndConvertsToSingleTypeBatches() {
        ShareAcknowledgements a = new ShareAcknowledgements(Map.of(P0, List.of(new ShareAcknowledgementBatch(10, 12, List.of(ACCEPT, REJECT, REJECT)))));
        ShareAcknowledgements b = new ShareAcknowledgements(Map.of(P0, List.of(new ShareAcknowledgementBatch(10, 12, List.of(ACCEPT, REJECT, REJECT)))));
        assertEquals(a, b);
        assertEquals(a.hashCode(), b.hashCode());
        assertNotEquals(a, new ShareAcknowledgements(Map.of(P1, a.acknowledgements().get(P0))));
        assertEquals(3, a.count());
        assertEquals(Map.of(P0, List.of(new AcknowledgementBatch(10, 10, AcknowledgeType.ACCEPT),
                new AcknowledgementBatch(11, 12, AcknowledgeType.REJECT))), a.batches());
        // Record by record, consecutive offsets form one batch of Kafka's shape, as Kafka's consumer hands them out.
        ShareAcknowledgements added = new ShareAcknowledgements().add(P0, 11, AcknowledgeType.REJECT)
                .add(P0, 10, AcknowledgeType.ACCEPT).add(P0, 12, AcknowledgeType.REJECT).add(P0, 20, AcknowledgeType.ACCEPT);
        assertEquals(Map.of(P0, List.of(new ShareAcknowledgementBatch(10, 12, List.of(ACCEPT, REJECT, REJECT)),
                new ShareAcknowledgementBatch(20, 20, List.of(ACCEPT)))), added.acknowledgements());
        assertEquals(List.of(new ShareAcknowledgementBatch(0, 2, List.of(ACCEPT))), new ShareAcknowledgements()
                .add(P0, 0, AcknowledgeType.ACCEPT).add(P0, 1, AcknowledgeType.ACCEPT).add(P0, 2, AcknowledgeType.ACCEPT)
                .acknowledgements().get(P0));
        assertEquals(new ShareAcknowledgements(added.acknowledgements()), added, "both ways of building compare by content");
    }

    @Test
    void anUnknownTypeIdIsRefusedWhenStaged() {
        ShareAcknowledgements acks = new ShareAcknowledgements(Map.of(P0, List.of(new ShareAcknowledgementBatch(1, 1, List.of((byte) 9)))));
        org.apache.kafka.common.errors.InvalidRecordStateException e = assertThrows(
                org.apache.kafka.common.errors.InvalidRecordStateException.class, acks::batches);
        assertTrue(e.getMessage().contains("type id 9"), e.getMessage());
    }
}
