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

import org.apache.kafka.clients.consumer.AcknowledgeType;

/**
 * Offsets [first, last] of a share-partition acknowledged with one type, all held at the same
 * delivery count, as recorded by one ledger entry at {@code ledgerOffset}.
 *
 * @since 0.1.0
 */
public record LedgerRange(long ledgerOffset, String transactionalId, long first, long last, byte ackType, short deliveryCount) {
    /**
     * The transactional id of a range a snapshot compacted: committed ranges of several entries
     * wholly below a share-partition start offset, merged (no producer has an empty transactional id).
     *
     * @since 0.1.0
     */
    public static final String COMPACTED = "";

    /**
     * Whether this range merges committed ranges a snapshot compacted below a share-partition start
     * offset: its offsets' output was committed (its ledger offset is the highest of the merged entries'),
     * so it binds every later delivery exactly as the entries did.
     *
     * @return true for a compacted range
     * @since 0.1.0
     */
    public boolean compacted() {
        return COMPACTED.equals(transactionalId);
    }

    public boolean contains(long offset) {
        return offset >= first && offset <= last;
    }

    /**
     * The acknowledge type {@link #ackType()} stands for (Kafka's own ids).
     *
     * @throws IllegalStateException if the id is none of Kafka's acknowledge types
     */
    public AcknowledgeType acknowledgeType() {
        for (AcknowledgeType t : AcknowledgeType.values()) {
            if (t.id == ackType) {
                return t;
            }
        }
        throw new IllegalStateException("Unknown acknowledge type id " + ackType + " in the ledger entry at offset " + ledgerOffset);
    }
}
