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

import java.util.Objects;

/**
 * One contiguous range of offsets of a share-partition, all acknowledged with the same type
 * (KIP-1289's wire form). Immutable, value equality.
 *
 * @since 0.1.0
 */
public final class AcknowledgementBatch {
    private final long firstOffset;
    private final long lastOffset;
    private final AcknowledgeType acknowledgeType;

    /**
     * @throws IllegalArgumentException if an offset is negative, {@code lastOffset < firstOffset}
     *                                  or the type is null
     */
    public AcknowledgementBatch(long firstOffset, long lastOffset, AcknowledgeType acknowledgeType) {
        if (firstOffset < 0 || lastOffset < firstOffset) {
            throw new IllegalArgumentException("Invalid offset range [" + firstOffset + ", " + lastOffset
                    + "]: offsets must be >= 0 and firstOffset <= lastOffset");
        }
        this.firstOffset = firstOffset;
        this.lastOffset = lastOffset;
        this.acknowledgeType = Objects.requireNonNull(acknowledgeType, "acknowledgeType");
    }

    /** First offset of the range, inclusive. */
    public long firstOffset() {
        return firstOffset;
    }

    /** Last offset of the range, inclusive. */
    public long lastOffset() {
        return lastOffset;
    }

    /** The acknowledgement applied to every offset of the range. */
    public AcknowledgeType acknowledgeType() {
        return acknowledgeType;
    }

    /** Whether {@code offset} lies in this range. */
    public boolean contains(long offset) {
        return offset >= firstOffset && offset <= lastOffset;
    }

    /** Number of offsets in the range. */
    public long size() {
        return lastOffset - firstOffset + 1;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof AcknowledgementBatch other)) {
            return false;
        }
        return firstOffset == other.firstOffset && lastOffset == other.lastOffset
                && acknowledgeType == other.acknowledgeType;
    }

    @Override
    public int hashCode() {
        return Objects.hash(firstOffset, lastOffset, acknowledgeType);
    }

    @Override
    public String toString() {
        return "AcknowledgementBatch(" + firstOffset + ".." + lastOffset + ", " + acknowledgeType + ")";
    }
}
