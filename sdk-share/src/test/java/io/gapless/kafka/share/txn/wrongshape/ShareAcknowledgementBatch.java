package io.gapless.kafka.share.txn.wrongshape;

/** A pre-release shape (one type per batch): the SDK must not take it for KIP-1289. */
public final class ShareAcknowledgementBatch {
    public ShareAcknowledgementBatch(long firstOffset, long lastOffset, byte acknowledgeType) {
    }
}
