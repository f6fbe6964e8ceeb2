package io.gapless.kafka.core;

import org.apache.kafka.common.TopicPartition;

import java.util.Objects;

/**
 * Whether a partition was created after its consumer group (new) or not (pre-existing), and why,
 * in words fit for a log line.
 *
 * @param partition the partition classified
 * @param isNew     {@code true} when the partition was created after the group
 * @param reason    why, for example {@code "partition 3 >= 2 partitions recorded when the group first saw the topic"}
 * @since 0.1.0
 */
public record PartitionClassification(TopicPartition partition, boolean isNew, String reason) {
    public PartitionClassification {
        Objects.requireNonNull(partition, "partition");
        Objects.requireNonNull(reason, "reason");
    }

    /** {@code "new"} or {@code "pre-existing"}. */
    public String label() {
        return isNew ? "new" : "pre-existing";
    }
}
