package io.gapless.kafka.share.txn;

import java.util.Objects;

/**
 * A share consumer's group identity, as KIP-1289 proposes: pass it with the acknowledgements to
 * {@link TransactionalShareProducer#sendShareAcknowledgementsToTransaction}. Immutable; equal when
 * group id, member id and member epoch are equal.
 *
 * <p>Kafka 4.4's share consumer does not expose its broker-assigned member id, so on the
 * emulated path {@link GaplessShareConsumer#shareGroupMetadata()} reports an id the SDK assigns
 * to the consumer instance (unique per instance) and epoch 0.
 */
public final class ShareGroupMetadata {
    private final String groupId;
    private final String memberId;
    private final int memberEpoch;

    /**
     * @throws IllegalArgumentException if {@code groupId} or {@code memberId} is null or blank
     */
    public ShareGroupMetadata(String groupId, String memberId, int memberEpoch) {
        if (groupId == null || groupId.isBlank()) {
            throw new IllegalArgumentException("groupId must not be blank, got '" + groupId + "'");
        }
        if (memberId == null || memberId.isBlank()) {
            throw new IllegalArgumentException("memberId must not be blank, got '" + memberId + "'");
        }
        this.groupId = groupId;
        this.memberId = memberId;
        this.memberEpoch = memberEpoch;
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
