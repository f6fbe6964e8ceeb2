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
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicIdPartition;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The consumer side of a transactional acknowledgement, as the producer sees it: the records a
 * share consumer holds, their delivery counts, and the acknowledgements that settle them. Reached
 * through the {@link ShareGroupMetadata} the consumer handed out. Called on the thread that uses
 * the consumer.
 */
interface ShareAckParticipant {

    ShareGroupMetadata metadata();

    /** How this consumer's acknowledgements are delivered ({@link AckPath#LEDGER} or {@link AckPath#AT_LEAST_ONCE}); the producer follows it. */
    AckPath path();

    /** The group cannot be served this way any more (it moved to native KIP-1289): the consumer fails from now on with {@code fatal}. */
    void refuse(KafkaException fatal);

    /** Whether the consumer is still open (a closed one cannot settle anything). */
    boolean open();

    /**
     * Checks that the consumer holds every acknowledged offset and is not already committing it,
     * marks them pending, and returns them as ledger ranges (split by delivery count) under their
     * resolved topic ids.
     *
     * @throws org.apache.kafka.common.errors.InvalidRecordStateException naming offsets it does not hold
     */
    Map<TopicIdPartition, List<LedgerRange>> stage(Map<TopicIdPartition, List<AcknowledgementBatch>> acks, String transactionalId);

    /** Undoes a {@link #stage} whose ranges could not join the transaction: the records are held again, unstaged. */
    void unstage(Map<TopicIdPartition, List<LedgerRange>> ranges);

    /**
     * Acknowledges the given offsets with the given types ({@code RENEW} keeps the lock: the next
     * poll returns the records again) and commits them; they are no longer held.
     *
     * @return the partitions whose acknowledgements the share group accepted
     */
    Set<TopicIdPartition> settle(Map<TopicIdPartition, Map<Long, AcknowledgeType>> outcome);

    /** Whether {@code partition}'s topic id is still its topic's id, looked up now (false after a re-creation, or when unknown). */
    boolean topicIdCurrent(TopicIdPartition partition);

    /**
     * The participant {@code metadata} was handed out by, if it is open.
     *
     * @throws IllegalArgumentException if no open transactional GaplessShareConsumer handed out {@code metadata}
     */
    static ShareAckParticipant of(ShareGroupMetadata metadata) {
        ShareAckParticipant p = metadata.participant();
        if (p == null || !p.open()) {
            throw new IllegalArgumentException(metadata + " does not belong to an open GaplessShareConsumer with a group.id and "
                    + "share.acknowledgement.mode=explicit or transactional; pass shareGroupMetadata() of the consumer that polled the records");
        }
        return p;
    }
}
