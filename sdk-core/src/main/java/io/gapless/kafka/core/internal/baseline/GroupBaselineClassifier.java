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
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Classifies partitions against the group's durable baseline (sdk-core/RATIONALE.md): when the
 * group started, the SDK recorded every topic of the cluster by id with its partition count. A
 * partition is new when it did not exist then: its topic id is not in that snapshot (created
 * later, or deleted and re-created), or its number is at or above the recorded count. Record
 * timestamps and log start offsets play no part.
 *
 * <p>What the group's start looks like is observed once, at the first attempt (the warm-up while
 * the consumer joins, or the first registration) and kept until it is written: a baseline that
 * could not be written then is never written later with a state the topics reached meanwhile.
 * A consumer group whose baseline recorded committed offsets and that has none any more was
 * deleted or expired in Kafka: the next registration starts a new incarnation of its baseline.
 */
public final class GroupBaselineClassifier implements PartitionClassifier, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(GroupBaselineClassifier.class);

    private final BaselineStore store;
    private final String writerId = Uuid.randomUuid().toString();
    // What the cluster looked like when this member first saw the group without a start; kept until written.
    private Start pendingStart;
    private boolean sessionChecked;
    private volatile boolean progress;
    /** When a failed call may observe the start again, after an observation on failure failed (worker thread only). */
    private long nextObservationOnFailureMs;

    public GroupBaselineClassifier(BaselineStore store) {
        this.store = store;
    }

    /** The topics of the cluster and the group's progress (topics with committed offsets), as seen at one moment. */
    private record Start(Map<Uuid, Integer> partitionCounts, boolean adopted, Set<Uuid> progressTopics, long observedAtMs) {
    }

    /**
     * Called off the polling thread while the consumer joins its group: opens the store, reads the
     * baseline, starts a new incarnation when the Kafka group was deleted, and when the group has
     * no start yet observes it and writes it, so that the first assignment finds the baseline
     * ready. A baseline topic this call created holds nothing to read: the group has no start.
     */
    public void prepare() {
        log.debug("Group {}: warm-up starts", store.group());
        java.util.concurrent.atomic.AtomicReference<java.util.concurrent.CompletableFuture<Start>> asked = new java.util.concurrent.atomic.AtomicReference<>();
        // A missing topic means a group without a baseline: its start is observed while the topic is created, not after.
        boolean created = observingOnFailure(() -> store.open(() -> {
            if (pendingStart == null && store.groupType() == BaselineStore.GroupType.CONSUMER) {
                long at = System.currentTimeMillis();
                asked.set(store.startFactsAsync().thenApply(f -> new Start(f.partitionCounts(), f.committed(), f.committedTopicIds(), at)));
            }
        }));
        log.debug("Group {}: baseline topic open (created: {})", store.group(), created);
        GroupBaseline b = created ? store.cached() : checkSession(observingOnFailure(store::read));
        if (!b.started()) {
            if (pendingStart == null) {
                pendingStart = asked.get() == null ? observeStart() : awaitObserved(asked.get());
                log.debug("Group {}: start observed", store.group());
            }
            writeStart(b, List.of());
        }
    }

    /** A new subscription or assignment: the next registration checks again whether the Kafka group was deleted. */
    public void newSession() {
        sessionChecked = false;
    }

    /**
     * Makes sure the group has a baseline, writing the start observed first if it has none, and
     * reading back so that the first record in log order decides. Called when the group is first
     * assigned partitions ({@code topics}, for the log). A baseline already read or written in
     * this session is returned as folded: within an incarnation a started baseline does not
     * change (the first record wins), as {@link #classify} relies on too.
     */
    public GroupBaseline register(Collection<String> topics) {
        GroupBaseline cached = store.cached();
        if (sessionChecked && cached.started()) {
            pendingStart = null;
            progress = cached.progressSeen();
            return cached;
        }
        GroupBaseline baseline = checkSession(observingOnFailure(store::read));
        if (baseline.started()) {
            pendingStart = null;
            return baseline;
        }
        if (pendingStart == null) {
            pendingStart = observeStart();
        }
        return writeStart(baseline, topics);
    }

    /** Writes the start observed first ({@code pendingStart}) and reads back through it: the first start in log order wins. */
    private GroupBaseline writeStart(GroupBaseline baseline, Collection<String> topics) {
        Start start = pendingStart;
        String incarnation = baseline.incarnation();
        List<BaselineRecord> chunks = snapshotChunks(start, incarnation);
        // Chunks first and acknowledged, so a group record never points at a snapshot that is not in the log.
        store.append(chunks);
        log.debug("Group {}: snapshot chunks acknowledged", store.group());
        List<BaselineRecord> started = new ArrayList<>();
        started.add(new BaselineRecord.GroupStarted(store.group(), writerId, incarnation, start.adopted(), chunks.size()));
        start.progressTopics().forEach(id -> started.add(new BaselineRecord.ProgressSeen(store.group(), writerId, incarnation, id)));
        GroupBaseline after = store.readThrough(store.append(started));
        pendingStart = null;
        progress = after.progressSeen();
        if (after.started() && store.groupType() == BaselineStore.GroupType.CONSUMER) {
            // Started in this session, with the committed offsets of that moment: nothing left to check until the next one.
            sessionChecked = true;
        }
        log.info("Group {} baseline {} in {}: {} topics existed when it started (observed at {}{})",
                store.group(), after.adopted() ? "adopted (group had committed offsets: partitions existing then are pre-existing)"
                        : "created", store.topic(), after.snapshotSize(), Instant.ofEpochMilli(start.observedAtMs()),
                topics.isEmpty() ? "" : "; topics assigned now " + new TreeSet<>(topics));
        return after;
    }

    @Override
    public Map<TopicPartition, PartitionClassification> classify(Collection<TopicPartition> partitions) {
        Set<String> topics = partitions.stream().map(TopicPartition::topic).collect(Collectors.toCollection(TreeSet::new));
        Map<String, TopicDescription> described = store.describeTopics(topics);
        // Within an incarnation the baseline never changes once started: the folded copy is the cache.
        GroupBaseline baseline = store.cached().started() ? store.cached() : register(topics);
        Map<TopicPartition, PartitionClassification> out = new LinkedHashMap<>();
        for (TopicPartition tp : partitions) {
            TopicDescription d = described.get(tp.topic());
            if (d == null) {
                // Retriable, as for Kafka's own reset: the topic may appear (metadata lag) or be gone (deleted while assigned).
                throw new org.apache.kafka.common.errors.UnknownTopicOrPartitionException("Cannot classify " + tp + " for group "
                        + store.group() + ": topic " + tp.topic() + " does not exist");
            }
            out.put(tp, classify(tp, d.topicId(), baseline));
        }
        return out;
    }

    /** Whether the baseline knows that the group's current incarnation committed offsets. */
    public boolean progressRecorded() {
        return progress;
    }

    /**
     * The group committed offsets: records, once per topic and incarnation, which topics it has
     * committed offsets for, so that a later loss of all of them is recognised.
     */
    public void recordProgress() {
        GroupBaseline b = store.cached();
        if (b.started() && store.groupType() == BaselineStore.GroupType.CONSUMER) {
            b = recordProgress(b, store.committedTopics());
        }
        progress = b.progressSeen();
    }

    /** {@link #recordProgress()} unless progress is already known. */
    public void checkProgress() {
        if (!progress) {
            recordProgress();
        }
    }

    /**
     * A share group's counterpart of {@link #recordProgress()}: records, once per topic and
     * incarnation, that Kafka knows the group while it reads {@code topics} (as
     * {@link BaselineRecord.ProgressSeen}), so that a group Kafka no longer knows is recognised as
     * deleted, and a new group whose first member has not joined yet is not.
     */
    public void recordShareGroupSeen(Collection<String> topics) {
        GroupBaseline b = store.read();
        if (b.started()) {
            b = recordProgress(b, Set.copyOf(topics));
        }
        progress = b.progressSeen();
    }

    private GroupBaseline recordProgress(GroupBaseline b, Set<String> committedTopics) {
        if (committedTopics.isEmpty()) {
            return b;
        }
        Set<Uuid> known = b.progressTopics();
        List<BaselineRecord> writes = new ArrayList<>();
        String incarnation = b.incarnation();
        store.describeTopics(committedTopics).values().stream().map(TopicDescription::topicId).filter(id -> !known.contains(id))
                .forEach(id -> writes.add(new BaselineRecord.ProgressSeen(store.group(), writerId, incarnation, id)));
        if (writes.isEmpty()) {
            return b;
        }
        store.append(writes);
        return store.read();
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
        return writeStartOffsets(proposals, false);
    }

    /**
     * Replaces the recorded start offsets of share-group partitions (an operator's reset wins):
     * written as {@link BaselineRecord.StartOffsetChosen} with the policy marked
     * {@link BaselineRecord#SUPERSEDING_POLICY_PREFIX}, which the fold lets override; returns the
     * recorded ones afterwards.
     */
    public Map<TopicPartition, Long> supersedeStartOffsets(Map<TopicPartition, ProposedStart> starts) {
        return writeStartOffsets(starts, true);
    }

    private Map<TopicPartition, Long> writeStartOffsets(Map<TopicPartition, ProposedStart> starts, boolean superseding) {
        GroupBaseline baseline = store.read();
        Map<String, TopicDescription> described = store.describeTopics(starts.keySet().stream().map(TopicPartition::topic)
                .collect(Collectors.toCollection(TreeSet::new)));
        List<BaselineRecord> writes = new ArrayList<>();
        starts.forEach((tp, start) -> {
            TopicDescription d = described.get(tp.topic());
            if (d != null && (superseding || baseline.startOffset(d.name(), d.topicId(), tp.partition()).isEmpty())) {
                writes.add(new BaselineRecord.StartOffsetChosen(store.group(), writerId, baseline.incarnation(), d.name(), d.topicId(),
                        tp.partition(), start.offset(), (superseding ? BaselineRecord.SUPERSEDING_POLICY_PREFIX : "") + start.policy()));
            }
        });
        if (!writes.isEmpty()) {
            store.append(writes);
        }
        return recordedStartOffsets(starts.keySet());
    }

    /** A start offset proposed for a share-group partition and the policy that chose it. */
    public record ProposedStart(long offset, String policy) {
    }

    /** The store this classifier reads and writes (offset look-ups for share-group start offsets). */
    public BaselineStore store() {
        return store;
    }

    /**
     * Ends the group's current baseline, so that the group starts a new one when it next runs
     * (the operator's "forget"). Returns whether there was one to end.
     */
    public boolean forget(String reason) {
        GroupBaseline b = store.read();
        if (!b.started()) {
            return false;
        }
        store.append(List.of(new BaselineRecord.GroupReset(store.group(), writerId, b.incarnation(), Uuid.randomUuid().toString(), reason)));
        store.read();
        return true;
    }

    private <T> T observingOnFailure(java.util.function.Supplier<T> call) {
        try {
            return call.get();
        } catch (BaselineUnavailableException e) {
            // Unknown whether the group started: observe now rather than at a later, luckier attempt. Where that
            // observation failed too, not again within a baseline time-out: a snapshot of a large cluster per failed
            // call (every retry of every partition) would load the controller most when the cluster is least healthy.
            long now = System.currentTimeMillis();
            if (pendingStart == null && !store.cached().started() && now >= nextObservationOnFailureMs) {
                try {
                    pendingStart = observeStart();
                } catch (BaselineUnavailableException again) {
                    nextObservationOnFailureMs = now + store.timeout().toMillis();
                    e.addSuppressed(again);
                }
            }
            throw e;
        }
    }

    /**
     * Once per session, for consumer groups: a baseline that recorded committed offsets for a
     * group that has none now belongs to a Kafka group that was deleted or expired (KIP-1327: a
     * new group), so a new incarnation starts.
     */
    private GroupBaseline checkSession(GroupBaseline baseline) {
        if (sessionChecked || !baseline.started() || store.groupType() != BaselineStore.GroupType.CONSUMER) {
            progress = baseline.progressSeen();
            return baseline;
        }
        Set<String> committed = store.committedTopics();
        GroupBaseline current = baseline;
        if (!committed.isEmpty()) {
            current = recordProgress(baseline, committed);
        } else if (baseline.progressSeen() && !store.existingTopicIds(baseline.progressTopics()).isEmpty()) {
            // Offsets of a deleted topic go with it; only a group that lost them while its topics remain is a new group.
            String reason = "the group had committed offsets and has none now although their topics remain: deleted or expired in Kafka";
            store.append(List.of(new BaselineRecord.GroupReset(store.group(), writerId, baseline.incarnation(),
                    Uuid.randomUuid().toString(), reason)));
            current = store.read();
            pendingStart = null;
            log.info("Group {}: {}; its baseline (started at {}) is ended and a new one starts now", store.group(), reason,
                    Instant.ofEpochMilli(baseline.creationTimeMs()));
        }
        sessionChecked = true;
        progress = current.progressSeen();
        return current;
    }

    /**
     * The start asked for while the topic was created. Every call of it ends by its own deadline
     * (a snapshot page too), so it is awaited without one of its own. Observed again, with the
     * errors explained (a missing ACL), when it was refused; not when it timed out or met another
     * retriable error: observing again at once would only repeat the whole snapshot against a
     * cluster that just failed it (the next attempt observes, after the worker's back-off).
     */
    private Start awaitObserved(java.util.concurrent.CompletableFuture<Start> asked) {
        try {
            return asked.get();
        } catch (InterruptedException e) {
            asked.cancel(true);
            throw new org.apache.kafka.common.errors.InterruptException(e);
        } catch (java.util.concurrent.ExecutionException e) {
            Throwable cause = e.getCause() instanceof java.util.concurrent.CompletionException ce && ce.getCause() != null
                    ? ce.getCause() : e.getCause();
            if (cause instanceof org.apache.kafka.common.errors.RetriableException) {
                throw new BaselineUnavailableException("Cannot observe the start of group " + store.group() + " (the cluster's topics"
                        + " and the group's committed offsets): " + cause, cause);
            }
            log.debug("Observing the start of group {} while creating its baseline topic failed; observing it again", store.group(), e);
            return observeStart();
        }
    }

    private Start observeStart() {
        Map<Uuid, Integer> counts = store.topicPartitionCounts();
        if (store.groupType() != BaselineStore.GroupType.CONSUMER) {
            return new Start(counts, store.groupHasCommittedOffsets(), Set.of(), System.currentTimeMillis());
        }
        Set<String> committed = store.committedTopics();
        Set<Uuid> ids = committed.isEmpty() ? Set.of() : store.describeTopics(committed).values().stream()
                .map(TopicDescription::topicId).collect(Collectors.toSet());
        return new Start(counts, !committed.isEmpty(), ids, System.currentTimeMillis());
    }

    private List<BaselineRecord> snapshotChunks(Start start, String incarnation) {
        List<Map.Entry<Uuid, Integer>> all = new ArrayList<>(start.partitionCounts().entrySet());
        int chunks = (all.size() + BaselineRecord.SNAPSHOT_CHUNK_ENTRIES - 1) / BaselineRecord.SNAPSHOT_CHUNK_ENTRIES;
        List<BaselineRecord> out = new ArrayList<>();
        for (int i = 0; i < chunks; i++) {
            Map<Uuid, Integer> part = new HashMap<>();
            all.subList(i * BaselineRecord.SNAPSHOT_CHUNK_ENTRIES, Math.min(all.size(), (i + 1) * BaselineRecord.SNAPSHOT_CHUNK_ENTRIES))
                    .forEach(e -> part.put(e.getKey(), e.getValue()));
            out.add(new BaselineRecord.TopicsSnapshot(store.group(), writerId, incarnation, i, chunks, part));
        }
        return out;
    }

    private static PartitionClassification classify(TopicPartition tp, Uuid topicId, GroupBaseline baseline) {
        int p = tp.partition();
        String started = "when the group started at " + Instant.ofEpochMilli(baseline.creationTimeMs());
        if (!baseline.hasSnapshot()) {
            return classifyFormat1(tp, topicId, baseline);
        }
        OptionalInt atStart = baseline.partitionsAtStart(topicId);
        if (atStart.isEmpty()) {
            return new PartitionClassification(tp, true, "topic " + tp.topic() + " (id " + topicId + ") did not exist " + started
                    + " (not among the " + baseline.snapshotSize() + " topics then)");
        }
        int n = atStart.getAsInt();
        if (p >= n) {
            return new PartitionClassification(tp, true, "partition " + p + " >= " + n + " partitions topic " + tp.topic() + " had " + started);
        }
        String why = "partition " + p + " < " + n + " partitions topic " + tp.topic() + " had " + started;
        return new PartitionClassification(tp, false, baseline.adopted() ? why + " (group adopted the SDK with committed offsets)" : why);
    }

    /** A baseline written before snapshots existed: its topic entries stand; a topic without one counts as new. */
    private static PartitionClassification classifyFormat1(TopicPartition tp, Uuid topicId, GroupBaseline baseline) {
        int p = tp.partition();
        return baseline.entry(tp.topic(), topicId).map(entry -> {
            if (p >= entry.partitionCount() || entry.newPartitions().contains(p)) {
                return new PartitionClassification(tp, true, p >= entry.partitionCount()
                        ? "partition " + p + " >= " + entry.partitionCount() + " partitions the group saw when it first saw topic " + tp.topic()
                        : entry.newReason());
            }
            return new PartitionClassification(tp, false, "partition " + p + " < " + entry.partitionCount()
                    + " partitions the group saw when it first saw topic " + tp.topic());
        }).orElseGet(() -> new PartitionClassification(tp, true, "the group's baseline predates topic snapshots and has no entry"
                + " for topic " + tp.topic() + " (id " + topicId + "): counted as new"));
    }

    @Override
    public void close() {
        store.close();
    }

    /** Closes the store within {@code timeout}, without waiting for a call in progress on another thread. */
    public void close(java.time.Duration timeout) {
        store.close(timeout);
    }
}
