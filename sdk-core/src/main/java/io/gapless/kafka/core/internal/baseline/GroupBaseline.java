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

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * One group's baseline, folded from the baseline topic in log order: within the current
 * incarnation the first record of each kind wins, so every member that reads the same prefix of
 * the log reaches the same answer. A {@link BaselineRecord.GroupReset} for the current incarnation
 * starts the next one from nothing (the Kafka group was deleted, or an operator forgot it).
 * Mutable only through {@link #apply}, called by the single reader that owns it.
 */
public final class GroupBaseline {
    private final String group;
    private String incarnation = "";
    private long creationTimeMs = -1;
    private boolean adopted;
    private boolean started;
    private final Set<Uuid> progressTopics = new HashSet<>();
    private String winner;
    private int snapshotChunks = -1;
    private Map<Uuid, Integer> snapshot;
    private final Map<String, Map<Integer, Map<Uuid, Integer>>> pendingChunks = new HashMap<>();
    private final Map<String, TopicEntry> entries = new HashMap<>();
    private final Map<String, Set<Uuid>> topicIdsSeen = new HashMap<>();
    private final Map<String, Long> startOffsets = new HashMap<>();

    public GroupBaseline(String group) {
        this.group = group;
    }

    /** Folds one record read at {@code timestampMs} (the broker's append time). */
    void apply(BaselineRecord record, long timestampMs) {
        if (!record.group().equals(group)) {
            return;
        }
        if (record instanceof BaselineRecord.GroupReset r) {
            if (r.incarnation().equals(incarnation)) {
                reset(r.next());
            }
            return;
        }
        if (!record.incarnation().equals(incarnation)) {
            return; // an ended incarnation, or a writer that had not seen the reset yet
        }
        if (record instanceof BaselineRecord.TopicsSnapshot s) {
            if (!started) {
                pendingChunks.computeIfAbsent(s.writerId(), k -> new HashMap<>()).put(s.chunk(), s.partitionCounts());
            }
        } else if (record instanceof BaselineRecord.GroupStarted g) {
            if (!started) {
                started = true;
                creationTimeMs = timestampMs;
                adopted = g.adopted();
                winner = g.writerId();
                snapshotChunks = g.snapshotChunks();
                Map<Integer, Map<Uuid, Integer>> chunks = pendingChunks.getOrDefault(winner, Map.of());
                if (snapshotChunks >= 0 && chunks.size() == snapshotChunks) {
                    Map<Uuid, Integer> all = new HashMap<>();
                    chunks.values().forEach(all::putAll);
                    snapshot = all;
                }
                pendingChunks.clear();
            }
        } else if (record instanceof BaselineRecord.ProgressSeen g) {
            progressTopics.add(g.topicId());
        } else if (record instanceof BaselineRecord.TopicRegistered t) {
            entries.putIfAbsent(key(t.topic(), t.topicId()), new TopicEntry(t.topic(), t.topicId(), t.partitionCount(),
                    t.newPartitions(), t.newReason(), timestampMs));
            topicIdsSeen.computeIfAbsent(t.topic(), k -> new HashSet<>()).add(t.topicId());
        } else if (record instanceof BaselineRecord.StartOffsetChosen c) {
            String key = key(c.topic(), c.topicId()) + "/" + c.partition();
            if (c.policy().startsWith(BaselineRecord.SUPERSEDING_POLICY_PREFIX)) {
                startOffsets.put(key, c.offset());
            } else {
                startOffsets.putIfAbsent(key, c.offset());
            }
        }
    }

    private void reset(String next) {
        incarnation = next;
        creationTimeMs = -1;
        adopted = false;
        started = false;
        progressTopics.clear();
        winner = null;
        snapshotChunks = -1;
        snapshot = null;
        pendingChunks.clear();
        entries.clear();
        topicIdsSeen.clear();
        startOffsets.clear();
    }

    public String group() {
        return group;
    }

    /** The current incarnation: {@code ""} until the group's baseline was first reset. */
    public String incarnation() {
        return incarnation;
    }

    /** Whether the current incarnation has a group record; before that the group has no baseline at all. */
    public boolean started() {
        return started;
    }

    /** The broker's append time of the winning group record; -1 before {@link #started()}. */
    public long creationTimeMs() {
        return creationTimeMs;
    }

    /** Whether the group had committed offsets when it started using the SDK (KIP-1327's upgrade rule). */
    public boolean adopted() {
        return adopted;
    }

    /** Whether the current incarnation is known to have committed offsets. */
    public boolean progressSeen() {
        return !progressTopics.isEmpty();
    }

    /** The topics (by id) the current incarnation is known to have committed offsets for. */
    public Set<Uuid> progressTopics() {
        return Set.copyOf(progressTopics);
    }

    /** Whether the winning group record came with a complete snapshot of the cluster's topics. */
    public boolean hasSnapshot() {
        return snapshot != null;
    }

    /** Topics in the snapshot. */
    public int snapshotSize() {
        return snapshot == null ? 0 : snapshot.size();
    }

    /**
     * The partition count topic {@code topicId} had when the group started; empty when the topic
     * did not exist then (or there is no snapshot, see {@link #hasSnapshot()}).
     */
    public OptionalInt partitionsAtStart(Uuid topicId) {
        Integer n = snapshot == null ? null : snapshot.get(topicId);
        return n == null ? OptionalInt.empty() : OptionalInt.of(n);
    }

    /** How many share-group partitions have a recorded start offset. */
    public int startOffsetCount() {
        return startOffsets.size();
    }

    /** How many format-1 topic entries (written before snapshots existed) the current incarnation has. */
    public int topicEntryCount() {
        return entries.size();
    }

    /** A format-1 entry for the topic, written before snapshots existed. */
    public Optional<TopicEntry> entry(String topic, Uuid topicId) {
        return Optional.ofNullable(entries.get(key(topic, topicId)));
    }

    /** The start offset chosen for a share-group partition, if one was recorded. */
    public Optional<Long> startOffset(String topic, Uuid topicId, int partition) {
        return Optional.ofNullable(startOffsets.get(key(topic, topicId) + "/" + partition));
    }

    /** Whether the group has a format-1 entry for a topic of this name under another topic id. */
    public boolean knewOtherIncarnation(String topic, Uuid topicId) {
        Set<Uuid> ids = topicIdsSeen.getOrDefault(topic, Set.of());
        return ids.stream().anyMatch(id -> !id.equals(topicId));
    }

    private static String key(String topic, Uuid id) {
        return topic + "/" + id;
    }
}
