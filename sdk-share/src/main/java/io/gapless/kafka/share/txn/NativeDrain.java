package io.gapless.kafka.share.txn;

import org.apache.kafka.common.TopicIdPartition;

import java.util.List;
import java.util.Map;

/**
 * A native transactional-mode consumer as its producer reaches it, through the consumer's
 * {@link ShareGroupMetadata} ({@link NativeTransactionalMode}).
 */
interface NativeDrain {
    /** Acknowledges {@code acks} on Kafka's consumer and returns them as Kafka hands them to a transaction. */
    ShareAcknowledgements drain(Map<TopicIdPartition, List<AcknowledgementBatch>> acks);
}
