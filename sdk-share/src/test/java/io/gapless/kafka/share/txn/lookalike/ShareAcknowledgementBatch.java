package io.gapless.kafka.share.txn.lookalike;

import java.util.List;

/** Stands in for Kafka's KIP-1289 class of the same name in reflection tests: same constructor and accessors. */
public final class ShareAcknowledgementBatch {
    private final long first;
    private final long last;
    private final List<Byte> types;

    public ShareAcknowledgementBatch(long firstOffset, long lastOffset, List<Byte> acknowledgeTypes) {
        this.first = firstOffset;
        this.last = lastOffset;
        this.types = List.copyOf(acknowledgeTypes);
    }

    public long firstOffset() {
        return first;
    }

    public long lastOffset() {
        return last;
    }

    public List<Byte> acknowledgeTypes() {
        return types;
    }
}
