package io.gapless.kafka.share.ledger;

import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.Uuid;

/**
 * One share-partition: a group's view of one topic partition (the topic id tells re-created topics apart).
 *
 * @since 0.1.0
 */
public record ShareKey(String group, Uuid topicId, String topic, int partition) {

    public static ShareKey of(String group, TopicIdPartition tip) {
        return new ShareKey(group, tip.topicId(), tip.topic(), tip.partition());
    }
}
