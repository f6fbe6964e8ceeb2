package io.gapless.kafka.core.internal.baseline;

import org.apache.kafka.common.Uuid;

import java.util.Set;

/**
 * What a group's baseline records about one topic (by name and id), fixed by the first record in
 * log order: the partition count when the group first saw the topic, and which of those
 * partitions already counted as new then (a topic first seen after the group was created, or
 * re-created under the same name).
 */
public record TopicEntry(String topic, Uuid topicId, int partitionCount, Set<Integer> newPartitions,
                         String newReason, long registeredAtMs) {
    public TopicEntry {
        newPartitions = Set.copyOf(newPartitions);
    }
}
