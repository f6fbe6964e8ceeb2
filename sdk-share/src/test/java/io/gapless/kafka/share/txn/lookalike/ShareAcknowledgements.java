package io.gapless.kafka.share.txn.lookalike;

import org.apache.kafka.common.TopicIdPartition;

import java.util.List;
import java.util.Map;

/** Stands in for Kafka's KIP-1289 class of the same name in reflection tests. */
public final class ShareAcknowledgements {
    private final Map<TopicIdPartition, List<ShareAcknowledgementBatch>> acks;

    public ShareAcknowledgements(Map<TopicIdPartition, List<ShareAcknowledgementBatch>> acknowledgements) {
        this.acks = Map.copyOf(acknowledgements);
    }

    public Map<TopicIdPartition, List<ShareAcknowledgementBatch>> acknowledgements() {
        return acks;
    }
}
