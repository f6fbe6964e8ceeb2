package io.gapless.kafka.share.txn;


import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicIdPartition;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Acknowledgements collected record by record and coalesced into {@link AcknowledgementBatch}
 * ranges per {@link TopicIdPartition}: consecutive offsets with the same type form one batch.
 *
 * <pre>{@code
 * ShareAcknowledgements acks = ShareAcknowledgements.fromRecords(records, AcknowledgeType.ACCEPT);
 * producer.sendShareAcknowledgementsToTransaction(acks, consumer.shareGroupMetadata());
 * }</pre>
 *
 * <p>Records returned by a {@code GaplessShareConsumer} carry their topic id; for other records
 * the topic id is {@code Uuid.ZERO_UUID} and is resolved by the consumer that holds them. Not
 * thread-safe.
 */
public final class ShareAcknowledgements {
    private final Map<TopicIdPartition, TreeMap<Long, AcknowledgeType>> offsets = new LinkedHashMap<>();

    /** An empty set of acknowledgements. */
    public ShareAcknowledgements() {
    }

    /** Every record of {@code records} acknowledged with {@code type}. */
    public static ShareAcknowledgements fromRecords(ConsumerRecords<?, ?> records, AcknowledgeType type) {
        Objects.requireNonNull(records, "records");
        ShareAcknowledgements acks = new ShareAcknowledgements();
        for (ConsumerRecord<?, ?> record : records) {
            acks.add(record, type);
        }
        return acks;
    }

    /**
     * Adds one record's acknowledgement.
     *
     * @throws IllegalArgumentException if the record was already added with another type
     */
    public ShareAcknowledgements add(ConsumerRecord<?, ?> record, AcknowledgeType type) {
        Objects.requireNonNull(record, "record");
        return add(RecordTopicIds.topicIdPartition(record), record.offset(), type);
    }

    /**
     * Adds one offset's acknowledgement.
     *
     * @throws IllegalArgumentException if the offset is negative or already added with another type
     */
    public ShareAcknowledgements add(TopicIdPartition partition, long offset, AcknowledgeType type) {
        Objects.requireNonNull(partition, "partition");
        Objects.requireNonNull(type, "type");
        if (offset < 0) {
            throw new IllegalArgumentException("Offset must be >= 0, got " + offset + " for " + partition);
        }
        AcknowledgeType previous = offsets.computeIfAbsent(partition, p -> new TreeMap<>()).putIfAbsent(offset, type);
        if (previous != null && previous != type) {
            throw new IllegalArgumentException("Offset " + offset + " of " + partition + " is already acknowledged as "
                    + previous + ", cannot also acknowledge it as " + type);
        }
        return this;
    }

    /** Whether no acknowledgement was added. */
    public boolean isEmpty() {
        return offsets.isEmpty();
    }

    /** Number of acknowledged offsets. */
    public int count() {
        return offsets.values().stream().mapToInt(Map::size).sum();
    }

    /** The acknowledgements as coalesced ranges per partition, ascending; an unmodifiable copy. */
    public Map<TopicIdPartition, List<AcknowledgementBatch>> batches() {
        Map<TopicIdPartition, List<AcknowledgementBatch>> result = new LinkedHashMap<>();
        offsets.forEach((partition, byOffset) -> result.put(partition, coalesce(byOffset)));
        return Collections.unmodifiableMap(result);
    }

    private static List<AcknowledgementBatch> coalesce(TreeMap<Long, AcknowledgeType> byOffset) {
        List<AcknowledgementBatch> batches = new ArrayList<>();
        long first = -1;
        long last = -1;
        AcknowledgeType type = null;
        for (Map.Entry<Long, AcknowledgeType> e : byOffset.entrySet()) {
            if (type != null && e.getKey() == last + 1 && e.getValue() == type) {
                last = e.getKey();
                continue;
            }
            if (type != null) {
                batches.add(new AcknowledgementBatch(first, last, type));
            }
            first = e.getKey();
            last = e.getKey();
            type = e.getValue();
        }
        if (type != null) {
            batches.add(new AcknowledgementBatch(first, last, type));
        }
        return List.copyOf(batches);
    }

    @Override
    public String toString() {
        return "ShareAcknowledgements" + batches();
    }
}
