/*
 * Copyright 2026 The Gapless authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
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
