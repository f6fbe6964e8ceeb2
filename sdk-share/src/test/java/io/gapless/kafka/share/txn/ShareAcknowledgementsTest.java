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
}
