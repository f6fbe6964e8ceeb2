package io.gapless.kafka.share.txn.wrongshape;

/** A pre-release shape, for reflection tests. */
public class ShareGroupMetadata {
    public ShareGroupMetadata(String groupId, String memberId, int memberEpoch) {
    }

    public String groupId() {
        return "";
    }

    public String memberId() {
        return "";
    }

    public int memberEpoch() {
        return 0;
    }
}
