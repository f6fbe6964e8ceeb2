package io.gapless.kafka.core.internal.baseline;

import io.gapless.kafka.core.BaselineUnavailableException;
import io.gapless.kafka.core.PartitionClassification;
import io.gapless.kafka.core.PartitionClassifier;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Classifies partitions against the group's durable baseline (DESIGN.md section 1): partition
 * ids are dense and only grow, so a partition at or above the count the group first saw is new;
 * a re-created topic is new as a whole; a topic first seen after the group started is new where
 * its partition holds no record older than the group.
 */
public final class GroupBaselineClassifier implements PartitionClassifier, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(GroupBaselineClassifier.class);

    private final BaselineStore store;
    private final String writerId = Uuid.randomUuid().toString();

    public GroupBaselineClassifier(BaselineStore store) {
        this.store = store;
    }

    /**
     * Makes sure the group has a baseline and that it covers {@code topics}, writing what is
     * missing and reading back so that the first record in log order decides. Called when the
     * group is first assigned partitions, so that a group adopting the SDK with committed offsets
     * records the partitions that exist now as pre-existing.
     */
    public GroupBaseline register(Collection<String> topics) {
        GroupBaseline baseline = store.read();
        Map<String, TopicDescription> described = store.describeTopics(new TreeSet<>(topics));
        List<BaselineRecord> writes = new ArrayList<>();
        boolean creating = !baseline.started();
        if (creating) {
            boolean adopted = store.groupHasCommittedOffsets();
            writes.add(new BaselineRecord.GroupStarted(store.group(), writerId, adopted));
        }
        for (TopicDescription d : described.values()) {
            if (baseline.entry(d.name(), d.topicId()).isEmpty()) {
                writes.add(entryFor(baseline, d, creating));
            }
        }
        if (writes.isEmpty()) {
            return baseline;
        }
        store.append(writes);
        GroupBaseline after = store.read();
        if (creating) {
            log.info("Group {} baseline {} at {} in {} (topics {})", store.group(),
                    after.adopted() ? "adopted (group had committed offsets: partitions existing now are pre-existing)" : "created",
                    Instant.ofEpochMilli(after.creationTimeMs()), store.topic(), described.keySet());
        }
        return after;
    }

    @Override
    public Map<TopicPartition, PartitionClassification> classify(Collection<TopicPartition> partitions) {
        Set<String> topics = partitions.stream().map(TopicPartition::topic).collect(Collectors.toCollection(TreeSet::new));
        GroupBaseline baseline = store.read();
        Map<String, TopicDescription> described = store.describeTopics(topics);
        boolean missing = !baseline.started() || described.values().stream()
                .anyMatch(d -> baseline.entry(d.name(), d.topicId()).isEmpty());
        GroupBaseline current = missing ? register(topics) : baseline;
        Map<TopicPartition, PartitionClassification> out = new LinkedHashMap<>();
        for (TopicPartition tp : partitions) {
            TopicDescription d = described.get(tp.topic());
            if (d == null) {
                throw new BaselineUnavailableException("Cannot classify " + tp + " for group " + store.group()
                        + ": topic " + tp.topic() + " does not exist (deleted while assigned?)");
            }
            TopicEntry entry = current.entry(d.name(), d.topicId()).orElseThrow(() -> new BaselineUnavailableException(
                    "Group baseline of " + store.group() + " in " + store.topic() + " has no entry for topic " + tp.topic()
                            + " after registering it"));
            out.put(tp, classify(tp, entry, current));
        }
        return out;
    }

    /**
     * The start offsets recorded for share-group partitions; partitions without one are absent.
     * Reads the baseline up to its current end first.
     */
    public Map<TopicPartition, Long> recordedStartOffsets(Collection<TopicPartition> partitions) {
        GroupBaseline baseline = store.read();
        Map<String, TopicDescription> described = store.describeTopics(partitions.stream().map(TopicPartition::topic)
                .collect(Collectors.toCollection(TreeSet::new)));
        Map<TopicPartition, Long> out = new LinkedHashMap<>();
        for (TopicPartition tp : partitions) {
            TopicDescription d = described.get(tp.topic());
            if (d != null) {
                baseline.startOffset(d.name(), d.topicId(), tp.partition()).ifPresent(o -> out.put(tp, o));
            }
        }
        return out;
    }

    /**
     * Proposes start offsets for share-group partitions that have none recorded and returns the
     * recorded ones afterwards: the first proposal in log order wins, so every member skips below
     * the same offset.
     */
    public Map<TopicPartition, Long> chooseStartOffsets(Map<TopicPartition, ProposedStart> proposals) {
        GroupBaseline baseline = store.read();
        Map<String, TopicDescription> described = store.describeTopics(proposals.keySet().stream().map(TopicPartition::topic)
                .collect(Collectors.toCollection(TreeSet::new)));
        List<BaselineRecord> writes = new ArrayList<>();
        proposals.forEach((tp, proposal) -> {
            TopicDescription d = described.get(tp.topic());
            if (d != null && baseline.startOffset(d.name(), d.topicId(), tp.partition()).isEmpty()) {
                writes.add(new BaselineRecord.StartOffsetChosen(store.group(), writerId, d.name(), d.topicId(), tp.partition(),
                        proposal.offset(), proposal.policy()));
            }
        });
        if (!writes.isEmpty()) {
            store.append(writes);
        }
        return recordedStartOffsets(proposals.keySet());
    }

    /** A start offset proposed for a share-group partition and the policy that chose it. */
    public record ProposedStart(long offset, String policy) {
    }

    /** The store this classifier reads and writes (offset look-ups for share-group start offsets). */
    public BaselineStore store() {
        return store;
    }

    private static PartitionClassification classify(TopicPartition tp, TopicEntry entry, GroupBaseline baseline) {
        int p = tp.partition();
        if (p >= entry.partitionCount()) {
            return new PartitionClassification(tp, true, "partition " + p + " >= " + entry.partitionCount()
                    + " partitions the group saw when it first saw topic " + tp.topic() + " at " + Instant.ofEpochMilli(entry.registeredAtMs()));
        }
        if (entry.newPartitions().contains(p)) {
            return new PartitionClassification(tp, true, entry.newReason());
        }
        String why = "partition " + p + " < " + entry.partitionCount() + " partitions the group saw when it first saw topic "
                + tp.topic() + " at " + Instant.ofEpochMilli(entry.registeredAtMs());
        return new PartitionClassification(tp, false, baseline.adopted() ? why + " (group adopted the SDK with committed offsets)" : why);
    }

    private BaselineRecord entryFor(GroupBaseline baseline, TopicDescription d, boolean creating) {
        int count = d.partitions().size();
        if (creating) {
            return new BaselineRecord.TopicRegistered(store.group(), writerId, d.name(), d.topicId(), count, Set.of(), "");
        }
        if (baseline.knewOtherIncarnation(d.name(), d.topicId())) {
            Set<Integer> all = IntStream.range(0, count).boxed().collect(Collectors.toSet());
            return new BaselineRecord.TopicRegistered(store.group(), writerId, d.name(), d.topicId(), count, all,
                    "topic " + d.name() + " was deleted and re-created (new topic id " + d.topicId() + ") after the group started");
        }
        // A topic the group meets only now (subscription grew, pattern matched): new where nothing predates the group.
        List<TopicPartition> tps = IntStream.range(0, count).mapToObj(i -> new TopicPartition(d.name(), i)).toList();
        Map<TopicPartition, Boolean> noOlder = store.noRecordBefore(tps, baseline.creationTimeMs());
        Set<Integer> news = new HashSet<>();
        noOlder.forEach((tp, isNew) -> {
            if (isNew) {
                news.add(tp.partition());
            }
        });
        return new BaselineRecord.TopicRegistered(store.group(), writerId, d.name(), d.topicId(), count, news,
                "topic " + d.name() + " first seen after the group started at " + Instant.ofEpochMilli(baseline.creationTimeMs())
                        + " and the partition holds no record older than the group");
    }

    @Override
    public void close() {
        store.close();
    }
}
