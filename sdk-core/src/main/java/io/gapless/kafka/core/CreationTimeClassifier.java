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

/**
 * KIP-1327's server-side rule over two creation timestamps, with its conservative defaults: an
 * unknown group creation time ({@code -1}) counts as minus infinity, so any partition with a known
 * creation time is new; an unknown partition creation time counts as pre-existing.
 *
 * @since 0.1.0
 */
public final class CreationTimeClassifier {
    /** The value KIP-1327 uses for an unknown timestamp. */
    public static final long UNKNOWN = -1L;

    private CreationTimeClassifier() {
    }

    /** Classifies one partition from its creation time and its group's creation time (epoch ms). */
    public static PartitionClassification classify(TopicPartition partition, long partitionCreationMs, long groupCreationMs) {
        if (partitionCreationMs == UNKNOWN) {
            return new PartitionClassification(partition, false, "partition creation time unknown");
        }
        if (groupCreationMs == UNKNOWN) {
            return new PartitionClassification(partition, true, "group creation time unknown, partition creation time known");
        }
        boolean isNew = partitionCreationMs > groupCreationMs;
        return new PartitionClassification(partition, isNew, "partition created at " + partitionCreationMs
                + (isNew ? " > " : " <= ") + "group created at " + groupCreationMs);
    }
}
