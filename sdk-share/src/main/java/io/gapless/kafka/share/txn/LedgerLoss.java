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

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What {@link TransactionalShareGroups#acceptLedgerLoss} accepted for a share group: the ledger
 * binding it replaced, the ledger the group is bound to now, and per share-partition the offsets
 * whose records the lost ledger may have committed without their acknowledgement landing, which
 * may therefore be processed a second time.
 *
 * @param group         the share group
 * @param replaced      the binding replaced, as text ("no ack ledger" if there was none)
 * @param ledgerTopic   the ack-ledger topic the group is bound to now
 * @param ledgerTopicId its topic id
 * @param inFlight      per share-partition, from its start offset (everything below is done) to its log end at the time
 * @since 0.1.0
 */
public record LedgerLoss(String group, String replaced, String ledgerTopic, Uuid ledgerTopicId, Map<TopicPartition, Window> inFlight) {

    public LedgerLoss {
        // Kept in the caller's order (share-partitions by name): operators read it.
        inFlight = Collections.unmodifiableMap(new LinkedHashMap<>(inFlight));
    }

    /**
     * Offsets {@code from} (inclusive) to {@code to} (exclusive) of one share-partition.
     *
     * @param from the share-partition start offset when the loss was accepted
     * @param to   the partition's log end offset then
     */
    public record Window(long from, long to) {
        /** Whether {@code offset} lies in the window. */
        public boolean contains(long offset) {
            return offset >= from && offset < to;
        }

        @Override
        public String toString() {
            return "[" + from + ", " + to + ")";
        }
    }
}
