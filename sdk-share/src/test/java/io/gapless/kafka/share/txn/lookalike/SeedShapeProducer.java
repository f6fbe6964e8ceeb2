package io.gapless.kafka.share.txn.lookalike;

import org.apache.kafka.common.TopicIdPartition;

import java.util.List;
import java.util.Map;

/** A producer method with a map of batches instead of Kafka's ShareAcknowledgements: not KIP-1289 as shipped. */
public interface SeedShapeProducer {
    void sendShareAcknowledgementsToTransaction(Map<TopicIdPartition, List<ShareAcknowledgementBatch>> acknowledgements,
                                                ShareGroupMetadata metadata);
}
