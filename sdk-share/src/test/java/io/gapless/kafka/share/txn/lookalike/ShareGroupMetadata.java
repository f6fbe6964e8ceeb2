package io.gapless.kafka.share.txn.lookalike;

/** Stands in for Kafka's KIP-1289 class of the same name in reflection tests. */
public class ShareGroupMetadata {
    private final String group;
    private final String member;
    private final int epoch;

    public ShareGroupMetadata(String groupId, String memberId, int memberEpoch) {
        this.group = groupId;
        this.member = memberId;
        this.epoch = memberEpoch;
    }

    public String groupId() {
        return group;
    }

    public String memberId() {
        return member;
    }

    public int memberEpoch() {
        return epoch;
    }
}
