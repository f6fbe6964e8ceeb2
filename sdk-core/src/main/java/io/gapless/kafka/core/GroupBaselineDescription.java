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

import java.time.Instant;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * One group's baseline as {@link GroupBaselines#describe} read it: whether the group has one,
 * where it lives, when the group started (the KIP-1327 "group creation time" the SDK uses), and
 * what it recorded. A read-only view for operators and tools; nothing in it is written back.
 *
 * @param groupId              the group (consumer group, Streams {@code application.id} or share group)
 * @param topic                the baseline topic the group's records are in
 * @param topicExists          whether that topic exists at all (describing never creates it)
 * @param partition            the partition of {@code topic} holding the group's records; empty when the topic does not exist
 * @param started              whether the current incarnation has a start record: false means the group has no baseline
 * @param incarnation          the current incarnation ({@code ""} until the baseline was first reset or forgotten)
 * @param startedAt            the broker's append time of the winning start record
 * @param adopted              whether the group had committed offsets when it started using the SDK (KIP-1327's upgrade rule)
 * @param snapshotTopics       topics in the snapshot taken at the start; empty for a baseline written before snapshots (format 1)
 * @param progressTopics       topics the current incarnation is known to have committed offsets for
 * @param startOffsets         share-group partitions with a recorded start offset
 * @param legacyTopicEntries   format-1 per-topic entries (baselines written before snapshots existed)
 * @param activeMembers        members the consumer group has now ({@link GroupBaselines#forget} refuses while there are any)
 * @since 0.1.0
 */
public record GroupBaselineDescription(String groupId, String topic, boolean topicExists, OptionalInt partition, boolean started,
                                       String incarnation, Optional<Instant> startedAt, boolean adopted, OptionalInt snapshotTopics,
                                       int progressTopics, int startOffsets, int legacyTopicEntries, int activeMembers) {
}
