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
import org.apache.kafka.common.errors.InvalidRecordStateException;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Share acknowledgements for a producer transaction, per {@link TopicIdPartition}. Two ways to
 * build one, both accepted by {@link TransactionalShareProducer#sendShareAcknowledgementsToTransaction(ShareAcknowledgements, ShareGroupMetadata)}:
 *
 * <ul>
 *   <li><b>KIP-1289 as Kafka ships it</b>: the members of
 *   {@code org.apache.kafka.clients.consumer.ShareAcknowledgements}: the constructor from
 *   {@link ShareAcknowledgementBatch} lists, {@link #empty()}, {@link #isEmpty()},
 *   {@link #acknowledgements()} and value equality; usually obtained from
 *   {@code GaplessShareConsumer.acknowledgementsForTransaction()}. Code written against these
 *   members moves to Kafka's class by changing the import. Such an instance is immutable.
 *   <pre>{@code
 * consumer.acknowledge(record, AcknowledgeType.ACCEPT);
 * producer.sendShareAcknowledgementsToTransaction(consumer.acknowledgementsForTransaction(), consumer.shareGroupMetadata());
 *   }</pre></li>
 *   <li><b>The seed KIP's form</b>: {@link #fromRecords}, or {@link #ShareAcknowledgements()}
 *   and {@link #add}, read back as single-type {@link AcknowledgementBatch} ranges with
 *   {@link #batches()}.</li>
 * </ul>
 *
 * <p>Records returned by a {@code GaplessShareConsumer} carry their topic id; for other records
 * the topic id is {@code Uuid.ZERO_UUID} and is resolved by the consumer that holds them. Not
 * thread-safe.
 *
 * @since 0.1.0
 */
public final class ShareAcknowledgements {
    private static final ShareAcknowledgements EMPTY = new ShareAcknowledgements(Map.of());

    // Built record by record (add, fromRecords): one type per offset. Null when built from batches.
    private final Map<TopicIdPartition, TreeMap<Long, AcknowledgeType>> offsets;
    // Built from batches (Kafka's constructor): kept as given, as Kafka's class keeps them. Null when built record by record.
    private final Map<TopicIdPartition, List<ShareAcknowledgementBatch>> given;

    /** An empty set of acknowledgements to {@link #add} to. */
    public ShareAcknowledgements() {
        this.offsets = new LinkedHashMap<>();
        this.given = null;
    }

    /**
     * Acknowledgements as batches, like Kafka's constructor: the map and the lists are copied,
     * partitions with an empty list are left out. The instance is immutable.
     *
     * @throws NullPointerException     if the map, a partition or a list is null
     * @throws IllegalArgumentException if two batches of one partition overlap (Kafka's class does
     *                                  not check this; its broker refuses such a request)
     */
    public ShareAcknowledgements(Map<TopicIdPartition, List<ShareAcknowledgementBatch>> acknowledgements) {
        Objects.requireNonNull(acknowledgements, "acknowledgements");
        Map<TopicIdPartition, List<ShareAcknowledgementBatch>> copy = new LinkedHashMap<>();
        acknowledgements.forEach((partition, batches) -> {
            Objects.requireNonNull(partition, "partition");
            Objects.requireNonNull(batches, "batches of " + partition);
            if (!batches.isEmpty()) {
                List<ShareAcknowledgementBatch> list = List.copyOf(batches);
                checkDisjoint(partition, list);
                copy.put(partition, list);
            }
        });
        this.offsets = null;
        this.given = Collections.unmodifiableMap(copy);
    }

    /** The seed KIP's single-type batches in Kafka's shape. */
    static ShareAcknowledgements ofBatches(Map<TopicIdPartition, List<AcknowledgementBatch>> batches) {
        Map<TopicIdPartition, List<ShareAcknowledgementBatch>> map = new LinkedHashMap<>();
        batches.forEach((tip, list) -> map.put(tip, list.stream().map(ShareAcknowledgementBatch::of).toList()));
        return new ShareAcknowledgements(map);
    }

    /** No acknowledgements (immutable), as Kafka's {@code ShareAcknowledgements.empty()}. */
    public static ShareAcknowledgements empty() {
        return EMPTY;
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
     * @throws IllegalStateException    if this instance was built from batches (those are immutable)
     */
    public ShareAcknowledgements add(ConsumerRecord<?, ?> record, AcknowledgeType type) {
        Objects.requireNonNull(record, "record");
        return add(RecordTopicIds.topicIdPartition(record), record.offset(), type);
    }

    /**
     * Adds one offset's acknowledgement.
     *
     * @throws IllegalArgumentException if the offset is negative or already added with another type
     * @throws IllegalStateException    if this instance was built from batches (those are immutable)
     */
    public ShareAcknowledgements add(TopicIdPartition partition, long offset, AcknowledgeType type) {
        Objects.requireNonNull(partition, "partition");
        Objects.requireNonNull(type, "type");
        if (offsets == null) {
            throw new IllegalStateException("Acknowledgements built from batches or by empty() are immutable, as Kafka's are; "
                    + "use new ShareAcknowledgements() to add record by record");
        }
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

    /** Whether there is no acknowledgement. */
    public boolean isEmpty() {
        return given != null ? given.isEmpty() : offsets.isEmpty();
    }

    /** Number of acknowledged offsets. */
    public long count() {
        if (given == null) {
            return offsets.values().stream().mapToLong(Map::size).sum();
        }
        return given.values().stream().flatMap(List::stream).mapToLong(b -> b.lastOffset() - b.firstOffset() + 1).sum();
    }

    /**
     * The acknowledgements in Kafka's shape, unmodifiable: as given to the constructor, or (built
     * record by record) each run of consecutive offsets as one batch, with one type when the run
     * has one and one type per offset otherwise, as Kafka's consumer hands them out.
     */
    public Map<TopicIdPartition, List<ShareAcknowledgementBatch>> acknowledgements() {
        if (given != null) {
            return given;
        }
        Map<TopicIdPartition, List<ShareAcknowledgementBatch>> result = new LinkedHashMap<>();
        offsets.forEach((partition, byOffset) -> {
            if (!byOffset.isEmpty()) {
                result.put(partition, runs(byOffset));
            }
        });
        return Collections.unmodifiableMap(result);
    }

    /**
     * The acknowledgements as single-type ranges per partition, ascending (the seed KIP's form);
     * an unmodifiable copy.
     *
     * @throws InvalidRecordStateException if a batch carries a type id that is no {@link AcknowledgeType}
     */
    public Map<TopicIdPartition, List<AcknowledgementBatch>> batches() {
        Map<TopicIdPartition, List<AcknowledgementBatch>> result = new LinkedHashMap<>();
        if (given == null) {
            offsets.forEach((partition, byOffset) -> result.put(partition, coalesce(byOffset)));
        } else {
            given.forEach((partition, batches) -> result.put(partition, singleTyped(partition, batches)));
        }
        return Collections.unmodifiableMap(result);
    }

    private static void checkDisjoint(TopicIdPartition partition, List<ShareAcknowledgementBatch> batches) {
        List<ShareAcknowledgementBatch> sorted = new ArrayList<>(batches);
        sorted.sort(Comparator.comparingLong(ShareAcknowledgementBatch::firstOffset));
        for (int i = 1; i < sorted.size(); i++) {
            ShareAcknowledgementBatch before = sorted.get(i - 1);
            ShareAcknowledgementBatch after = sorted.get(i);
            if (after.firstOffset() <= before.lastOffset()) {
                throw new IllegalArgumentException("Batches " + before.firstOffset() + ".." + before.lastOffset() + " and "
                        + after.firstOffset() + ".." + after.lastOffset() + " of " + partition + " overlap");
            }
        }
    }

    // Consecutive offsets form one batch: one type if they share it, else one type per offset.
    private static List<ShareAcknowledgementBatch> runs(TreeMap<Long, AcknowledgeType> byOffset) {
        List<ShareAcknowledgementBatch> batches = new ArrayList<>();
        long first = -1;
        long last = -1;
        List<Byte> types = new ArrayList<>();
        for (Map.Entry<Long, AcknowledgeType> e : byOffset.entrySet()) {
            if (!types.isEmpty() && e.getKey() != last + 1) {
                batches.add(runBatch(first, last, types));
                types = new ArrayList<>();
            }
            if (types.isEmpty()) {
                first = e.getKey();
            }
            last = e.getKey();
            types.add(e.getValue().id);
        }
        if (!types.isEmpty()) {
            batches.add(runBatch(first, last, types));
        }
        return List.copyOf(batches);
    }

    private static ShareAcknowledgementBatch runBatch(long first, long last, List<Byte> types) {
        boolean one = types.stream().distinct().count() == 1;
        return new ShareAcknowledgementBatch(first, last, one ? List.of(types.get(0)) : types);
    }

    private static List<AcknowledgementBatch> singleTyped(TopicIdPartition partition, List<ShareAcknowledgementBatch> batches) {
        List<ShareAcknowledgementBatch> sorted = new ArrayList<>(batches);
        sorted.sort(Comparator.comparingLong(ShareAcknowledgementBatch::firstOffset));
        List<AcknowledgementBatch> result = new ArrayList<>();
        for (ShareAcknowledgementBatch b : sorted) {
            if (b.acknowledgeTypes().size() == 1) {
                result.add(new AcknowledgementBatch(b.firstOffset(), b.lastOffset(), type(partition, b, b.firstOffset())));
                continue;
            }
            long first = b.firstOffset();
            AcknowledgeType runType = type(partition, b, first);
            for (long o = first + 1; o <= b.lastOffset(); o++) {
                AcknowledgeType t = type(partition, b, o);
                if (t != runType) {
                    result.add(new AcknowledgementBatch(first, o - 1, runType));
                    first = o;
                    runType = t;
                }
            }
            result.add(new AcknowledgementBatch(first, b.lastOffset(), runType));
        }
        return List.copyOf(result);
    }

    private static AcknowledgeType type(TopicIdPartition partition, ShareAcknowledgementBatch batch, long offset) {
        byte id = batch.typeOf(offset);
        try {
            return AcknowledgeType.forId(id);
        } catch (IllegalArgumentException e) {
            throw new InvalidRecordStateException("Acknowledge type id " + id + " for " + partition.topicPartition() + " offset "
                    + offset + " is not a Kafka AcknowledgeType");
        }
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

    /** Equal when {@link #acknowledgements()} are equal, as Kafka's class compares them. */
    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        return o instanceof ShareAcknowledgements other && acknowledgements().equals(other.acknowledgements());
    }

    @Override
    public int hashCode() {
        return acknowledgements().hashCode();
    }

    @Override
    public String toString() {
        return "ShareAcknowledgements(" + acknowledgements() + ")";
    }
}
