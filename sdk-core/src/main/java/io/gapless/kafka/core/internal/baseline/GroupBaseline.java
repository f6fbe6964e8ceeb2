package io.gapless.kafka.core.internal.baseline;

import org.apache.kafka.common.Uuid;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * One group's baseline, folded from the baseline topic in log order: the first record of each
 * kind wins, so every member that reads the same prefix of the log reaches the same answer.
 * Mutable only through {@link #apply}, called by the single reader that owns it.
 */
public final class GroupBaseline {
    private final String group;
    private long creationTimeMs = -1;
    private boolean adopted;
    private boolean started;
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
        if (record instanceof BaselineRecord.GroupStarted g) {
            if (!started) {
                started = true;
                creationTimeMs = timestampMs;
                adopted = g.adopted();
            }
        } else if (record instanceof BaselineRecord.TopicRegistered t) {
            entries.putIfAbsent(key(t.topic(), t.topicId()), new TopicEntry(t.topic(), t.topicId(), t.partitionCount(),
                    t.newPartitions(), t.newReason(), timestampMs));
            topicIdsSeen.computeIfAbsent(t.topic(), k -> new HashSet<>()).add(t.topicId());
        } else if (record instanceof BaselineRecord.StartOffsetChosen c) {
            startOffsets.putIfAbsent(key(c.topic(), c.topicId()) + "/" + c.partition(), c.offset());
        }
    }

    public String group() {
        return group;
    }

    /** Whether a group record exists; before that the group has no baseline at all. */
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

    public Optional<TopicEntry> entry(String topic, Uuid topicId) {
        return Optional.ofNullable(entries.get(key(topic, topicId)));
    }

    /** The start offset chosen for a share-group partition, if one was recorded. */
    public Optional<Long> startOffset(String topic, Uuid topicId, int partition) {
        return Optional.ofNullable(startOffsets.get(key(topic, topicId) + "/" + partition));
    }

    /** Whether the group has an entry for a topic of this name under another topic id. */
    public boolean knewOtherIncarnation(String topic, Uuid topicId) {
        Set<Uuid> ids = topicIdsSeen.getOrDefault(topic, Set.of());
        return ids.stream().anyMatch(id -> !id.equals(topicId));
    }

    private static String key(String topic, Uuid id) {
        return topic + "/" + id;
    }
}
