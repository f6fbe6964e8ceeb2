package io.gapless.kafka.share.txn;

import org.apache.kafka.common.Uuid;

/** Topic name to topic id (Kafka's share consumer does not put topic ids on its records). */
@FunctionalInterface
public interface TopicIdResolver {
    Uuid topicId(String topic);
}
