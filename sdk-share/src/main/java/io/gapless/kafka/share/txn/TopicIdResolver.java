package io.gapless.kafka.share.txn;

import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.Uuid;

/**
 * Topic name to topic id (Kafka's share consumer does not put topic ids on its records).
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface TopicIdResolver {
    /** The topic id of {@code topic}, possibly from a cache. */
    Uuid topicId(String topic);

    /** The topic id of {@code topic} looked up now (a topic deleted and re-created has a new one); updates any cache. */
    default Uuid refresh(String topic) {
        return topicId(topic);
    }

    /** The Kafka consumer acknowledged {@code partition} under this id: a cache may learn it. */
    default void learned(TopicIdPartition partition) {
    }
}
