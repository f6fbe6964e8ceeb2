package io.gapless.kafka.share.txn.lookalike;

import org.apache.kafka.common.TopicIdPartition;

import java.util.List;
import java.util.Map;

/** A consumer method returning a map instead of Kafka's ShareAcknowledgements: not KIP-1289 as shipped. */
public interface MapReturningConsumer {
    Map<TopicIdPartition, List<ShareAcknowledgementBatch>> acknowledgementsForTransaction();

    ShareGroupMetadata shareGroupMetadata();
}
