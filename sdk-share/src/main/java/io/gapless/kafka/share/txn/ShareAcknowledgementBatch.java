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

import java.util.List;
import java.util.Objects;

/**
 * One contiguous range of offsets of a share-partition with its acknowledge types, in the shape
 * of KIP-1289 as Kafka ships it ({@code org.apache.kafka.clients.consumer.ShareAcknowledgementBatch}):
 * either one type for the whole range or one type per offset, each an {@link AcknowledgeType#id}.
 * Same constructor, members, validation and value equality as Kafka's class, so that code using
 * it moves to Kafka's by changing the import. Immutable.
 *
 * <p>The seed KIP's single-type form is {@link AcknowledgementBatch}; {@link ShareAcknowledgements}
 * converts between the two.
 *
 * @since 0.1.0
 */
public final class ShareAcknowledgementBatch {
    private final long firstOffset;
    private final long lastOffset;
    private final List<Byte> acknowledgeTypes;

    /**
     * @param acknowledgeTypes one {@link AcknowledgeType#id} for the whole range, or one per offset
     * @throws IllegalArgumentException if {@code lastOffset < firstOffset}, the types are empty, or
     *                                  there are neither one type nor one per offset
     * @throws NullPointerException     if {@code acknowledgeTypes} or one of its elements is null
     */
    public ShareAcknowledgementBatch(long firstOffset, long lastOffset, List<Byte> acknowledgeTypes) {
        if (lastOffset < firstOffset) {
            throw new IllegalArgumentException("lastOffset " + lastOffset + " is smaller than firstOffset " + firstOffset);
        }
        Objects.requireNonNull(acknowledgeTypes, "acknowledgeTypes");
        if (acknowledgeTypes.isEmpty()) {
            throw new IllegalArgumentException("acknowledgeTypes of offsets " + firstOffset + ".." + lastOffset + " is empty");
        }
        long offsets = lastOffset - firstOffset + 1;
        if (acknowledgeTypes.size() != 1 && acknowledgeTypes.size() != offsets) {
            throw new IllegalArgumentException("acknowledgeTypes has " + acknowledgeTypes.size() + " types for the " + offsets
                    + " offsets " + firstOffset + ".." + lastOffset + ": give one type for the range or one per offset");
        }
        this.firstOffset = firstOffset;
        this.lastOffset = lastOffset;
        this.acknowledgeTypes = List.copyOf(acknowledgeTypes);
    }

    /** The seed KIP's single-type batch as a batch of this shape. */
    static ShareAcknowledgementBatch of(AcknowledgementBatch batch) {
        return new ShareAcknowledgementBatch(batch.firstOffset(), batch.lastOffset(), List.of(batch.acknowledgeType().id));
    }

    /** First offset of the range, inclusive. */
    public long firstOffset() {
        return firstOffset;
    }

    /** Last offset of the range, inclusive. */
    public long lastOffset() {
        return lastOffset;
    }

    /** One {@link AcknowledgeType#id} for the whole range, or one per offset; unmodifiable. */
    public List<Byte> acknowledgeTypes() {
        return acknowledgeTypes;
    }

    /** The type id of {@code offset}, which must lie in the range. */
    byte typeOf(long offset) {
        return acknowledgeTypes.size() == 1 ? acknowledgeTypes.get(0) : acknowledgeTypes.get((int) (offset - firstOffset));
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof ShareAcknowledgementBatch other)) {
            return false;
        }
        return firstOffset == other.firstOffset && lastOffset == other.lastOffset && acknowledgeTypes.equals(other.acknowledgeTypes);
    }

    @Override
    public int hashCode() {
        return Objects.hash(firstOffset, lastOffset, acknowledgeTypes);
    }

    @Override
    public String toString() {
        return "ShareAcknowledgementBatch(firstOffset=" + firstOffset + ", lastOffset=" + lastOffset
                + ", acknowledgeTypes=" + acknowledgeTypes + ")";
    }
}
