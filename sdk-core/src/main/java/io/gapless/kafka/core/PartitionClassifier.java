package io.gapless.kafka.core;

import org.apache.kafka.common.TopicPartition;

import java.util.Collection;
import java.util.Map;

/**
 * Tells partitions created after a consumer group from those that existed before it (KIP-1327's
 * {@code partition.creationTime > group.creationTime}). Implementations: the broker's own
 * classification where it exists ({@link CreationTimeClassifier} over broker timestamps) and
 * the SDK's durable group baseline where it does not.
 *
 * @since 0.1.0
 */
public interface PartitionClassifier {

    /**
     * Classifies each partition. The result holds an entry for every partition asked for, and the
     * same partition gets the same answer on every call and on every member of the group.
     *
     * @throws BaselineUnavailableException when the information needed cannot be read
     */
    Map<TopicPartition, PartitionClassification> classify(Collection<TopicPartition> partitions);
}
