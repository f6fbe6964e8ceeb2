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

import java.util.Objects;

/**
 * A share consumer's group identity, as KIP-1289 has it (the members and value equality of Kafka's
 * {@code org.apache.kafka.clients.consumer.ShareGroupMetadata}): pass it with the acknowledgements to
 * {@link TransactionalShareProducer#sendShareAcknowledgementsToTransaction}. Immutable; equal when
 * group id, member id and member epoch are equal.
 *
 * <p>Kafka 4.4's share consumer does not expose its broker-assigned member id, so on the
 * emulated path {@code GaplessShareConsumer.shareGroupMetadata()} reports an id the SDK assigns
 * to the consumer instance (unique per instance) and epoch 0.
 *
 * <p>The instance a transactional {@code GaplessShareConsumer} hands out is also how its
 * {@link TransactionalShareProducer} finds it: it carries a reference to that consumer's
 * records (not part of equality), so no registry is needed. Pass that instance, not a copy.
 *
 * @since 0.1.0
 */
public final class ShareGroupMetadata {
    private final String groupId;
    private final String memberId;
    private final int memberEpoch;
    // The consumer that handed this instance out, for the producer; null for instances built by the application.
    private final ShareAckParticipant participant;
    // On the native path in transactional mode: the consumer that drains staged records through Kafka's API; else null.
    private final NativeDrain nativeDrain;

    /**
     * @throws IllegalArgumentException if {@code groupId} or {@code memberId} is null or blank
     */
    public ShareGroupMetadata(String groupId, String memberId, int memberEpoch) {
        this(groupId, memberId, memberEpoch, (ShareAckParticipant) null);
    }

    ShareGroupMetadata(String groupId, String memberId, int memberEpoch, ShareAckParticipant participant) {
        if (groupId == null || groupId.isBlank()) {
            throw new IllegalArgumentException("groupId must not be blank, got '" + groupId + "'");
        }
        if (memberId == null || memberId.isBlank()) {
            throw new IllegalArgumentException("memberId must not be blank, got '" + memberId + "'");
        }
        this.groupId = groupId;
        this.memberId = memberId;
        this.memberEpoch = memberEpoch;
        this.participant = participant;
        this.nativeDrain = null;
    }

    private ShareGroupMetadata(String groupId, String memberId, int memberEpoch, NativeDrain nativeDrain) {
        this.groupId = Objects.requireNonNull(groupId, "groupId");
        this.memberId = Objects.requireNonNull(memberId, "memberId");
        this.memberEpoch = memberEpoch;
        this.participant = null;
        this.nativeDrain = nativeDrain;
    }

    /** What Kafka's own consumer reports (its member id is empty until it joined the group). */
    static ShareGroupMetadata fromKafka(String groupId, String memberId, int memberEpoch) {
        return new ShareGroupMetadata(groupId, memberId, memberEpoch, (NativeDrain) null);
    }

    /** {@code kafka}'s identity, leading the producer to {@code drain} (not part of equality). */
    static ShareGroupMetadata withNativeDrain(ShareGroupMetadata kafka, NativeDrain drain) {
        return new ShareGroupMetadata(kafka.groupId, kafka.memberId, kafka.memberEpoch, drain);
    }

    /** The native transactional-mode consumer that handed this instance out, or null. */
    NativeDrain nativeDrain() {
        return nativeDrain;
    }

    /** The consumer that handed this instance out, or null. */
    ShareAckParticipant participant() {
        return participant;
    }

    /** The share group's id. */
    public String groupId() {
        return groupId;
    }

    /** The member's id. */
    public String memberId() {
        return memberId;
    }

    /** The member's epoch. */
    public int memberEpoch() {
        return memberEpoch;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof ShareGroupMetadata other)) {
            return false;
        }
        return memberEpoch == other.memberEpoch && groupId.equals(other.groupId) && memberId.equals(other.memberId);
    }

    @Override
    public int hashCode() {
        return Objects.hash(groupId, memberId, memberEpoch);
    }

    @Override
    public String toString() {
        return "ShareGroupMetadata(groupId=" + groupId + ", memberId=" + memberId + ", memberEpoch=" + memberEpoch + ")";
    }
}
