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
