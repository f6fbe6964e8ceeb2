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
package io.gapless.kafka.share.reset;

import io.gapless.kafka.core.PartitionClassification;
import io.gapless.kafka.core.ResetPolicy;
import io.gapless.kafka.core.spi.ShareGroupBaseline;
import io.gapless.kafka.core.spi.ShareGroupBaseline.ProposedStart;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Where each share-group partition starts by KIP-1327's rules: the new-partitions policy for a
 * partition created after the group, the base policy for the others, resolved to an offset the
 * first time the group meets the partition and recorded durably in the group baseline (first
 * record in log order wins), so that every member and every restart skips below the same offset.
 * A start belongs to one topic id: a topic deleted and re-created under its name is a new topic,
 * and the starts known for the old one are forgotten as soon as the new id is seen.
 */
final class ShareStartOffsets {
    private static final Logger log = LoggerFactory.getLogger(ShareStartOffsets.class);

    /** A partition's start offset and the topic id it was recorded for. */
    record Start(Uuid topicId, long offset) {
    }

    private final ShareGroupBaseline baseline;
    private final ResetPolicy base;
    private final ResetPolicy newPartitions;
    private final ShareResetMetrics metrics;
    private final Map<TopicPartition, Start> known = new HashMap<>();
    /** Known starts Kafka's share-partition start offset was seen at or past: the broker never delivers below it again by itself. */
    private final Set<TopicPartition> reached = new HashSet<>();
    private final SharePartitionState state;

    ShareStartOffsets(ShareGroupBaseline baseline, SharePartitionState state, ResetPolicy base, ResetPolicy newPartitions,
                      ShareResetMetrics metrics) {
        this.baseline = baseline;
        this.state = state;
        this.base = base;
        this.newPartitions = newPartitions;
        this.metrics = metrics;
    }

    String group() {
        return baseline.group();
    }

    /** The start of a partition this client already knows, or {@code null}. */
    Start cached(TopicPartition tp) {
        return known.get(tp);
    }

    /**
     * Asks the cluster for the ids of {@code topics} and forgets the starts of those whose id changed
     * or that are gone: a start applies only to the topic it was recorded for. Returns the ids.
     */
    Map<String, Uuid> verify(Collection<String> topics) {
        Set<String> names = Set.copyOf(topics);
        Map<String, Uuid> ids = baseline.topicIds(names);
        known.entrySet().removeIf(e -> {
            String topic = e.getKey().topic();
            if (!names.contains(topic) || Objects.equals(ids.get(topic), e.getValue().topicId())) {
                return false;
            }
            log.info("Share group {}: topic {} is {} (start offsets recorded for id {}): its partitions start anew", baseline.group(),
                    topic, ids.containsKey(topic) ? "re-created (id " + ids.get(topic) + ")" : "gone", e.getValue().topicId());
            reached.remove(e.getKey());
            return true;
        });
        return ids;
    }

    /** Forgets every start known to this client (the group's baseline started a new incarnation). */
    void forgetAll() {
        known.clear();
        reached.clear();
    }

    /** Known starts Kafka's share-partition start offset has not been seen to reach yet. */
    Set<TopicPartition> unreached() {
        Set<TopicPartition> out = new HashSet<>(known.keySet());
        out.removeAll(reached);
        return out;
    }

    /**
     * Kafka's share-partition start offsets as just listed: a start they reached is done with. From
     * then on the broker delivers nothing below it unless the group's state moved back.
     */
    void kafkaStarts(Map<TopicPartition, Long> spso) {
        spso.forEach((tp, offset) -> {
            Start s = known.get(tp);
            if (s != null && offset >= s.offset()) {
                reached.add(tp);
            }
        });
    }

    /** Whether Kafka's start of {@code tp} was seen at or past the start this client holds for it. */
    boolean reached(TopicPartition tp) {
        return reached.contains(tp);
    }

    /**
     * Kafka delivered records below the start of partitions whose share-partition start had already
     * reached it ({@code lowest}: the lowest offset delivered of each). The broker never goes back by
     * itself, so the group's state moved back while this member was out of the group (an operator's
     * reset after a session loss, which no poll gap shows, or the group deleted and started again):
     * Kafka's start wins, recorded for every member, and nothing from there is acknowledged unseen.
     */
    void movedBack(Map<TopicPartition, Long> lowest) {
        Map<TopicPartition, Long> spso = state.initializedStartOffsets(lowest.keySet());
        Map<TopicPartition, ProposedStart> out = new HashMap<>();
        lowest.forEach((tp, low) -> {
            long start = Math.min(low, spso.getOrDefault(tp, low));
            log.info("Share group {}: Kafka delivers {} from offset {} although its start had reached the recorded start {}: the group's"
                    + " state moved back (an operator's reset while this member was out of the group): Kafka's start {} wins",
                    baseline.group(), tp, low, known.get(tp).offset(), start);
            out.put(tp, new ProposedStart(start, "the group's start on the broker, moved back"));
        });
        supersede(out);
    }

    /** Replaces known starts with the ones recorded for them afterwards (see {@link SharePartitionState#operatorResets}). */
    void supersede(Map<TopicPartition, ProposedStart> starts) {
        if (starts.isEmpty()) {
            return;
        }
        Map<String, Uuid> ids = baseline.topicIds(starts.keySet().stream().map(TopicPartition::topic).collect(Collectors.toSet()));
        baseline.supersedeStartOffsets(starts).forEach((tp, offset) -> {
            Uuid id = ids.get(tp.topic());
            if (id != null) {
                put(tp, new Start(id, offset));
            }
        });
    }

    private void put(TopicPartition tp, Start start) {
        if (!start.equals(known.put(tp, start))) {
            reached.remove(tp);
        }
    }

    /** Start offsets of {@code partitions}: recorded ones as recorded, the others chosen now by policy. */
    Map<TopicPartition, Long> resolve(Collection<TopicPartition> partitions) {
        Map<String, Uuid> ids = verify(partitions.stream().map(TopicPartition::topic).collect(Collectors.toSet()));
        List<TopicPartition> unknown = partitions.stream().filter(tp -> !known.containsKey(tp) && ids.containsKey(tp.topic()))
                .distinct().toList();
        if (unknown.isEmpty()) {
            return pick(partitions);
        }
        Map<TopicPartition, Long> recorded = baseline.recordedStartOffsets(unknown);
        remember(recorded, ids);
        List<TopicPartition> missing = unknown.stream().filter(tp -> !recorded.containsKey(tp)).toList();
        if (!missing.isEmpty()) {
            boolean adopted = baseline.register(missing.stream().map(TopicPartition::topic).distinct().toList());
            Map<TopicPartition, PartitionClassification> classes = baseline.classify(missing);
            Map<TopicPartition, ResetPolicy> policies = new HashMap<>();
            classes.forEach((tp, c) -> policies.put(tp, c.isNew() ? newPartitions : base));
            Map<TopicPartition, ProposedStart> proposals = propose(policies);
            Map<TopicPartition, Long> initialized = state.initializedStartOffsets(missing);
            if (adopted) {
                proposeForAdopted(classes, initialized, proposals);
            }
            initialized.forEach((tp, spso) -> {
                ProposedStart wanted = proposals.get(tp);
                if (wanted != null && spso > wanted.offset()) {
                    log.warn("Share group {}: the broker started {} at offset {}, later than policy {} asks ({}):"
                            + " up to {} records may have been skipped before the SDK could steer it", baseline.group(), tp,
                            spso, wanted.policy(), wanted.offset(), spso - wanted.offset());
                    metrics.recordSkippedByBroker(spso - wanted.offset());
                }
            });
            Map<TopicPartition, Long> chosen = baseline.chooseStartOffsets(proposals);
            chosen.forEach((tp, offset) -> {
                PartitionClassification c = classes.get(tp);
                log.info("Share group {} starts {} at offset {} by policy {} ({}: {})", baseline.group(), tp, offset,
                        proposals.containsKey(tp) ? proposals.get(tp).policy() : policies.get(tp), c.label(), c.reason());
            });
            remember(chosen, ids);
        }
        metrics.recordStartsRecorded(unknown.size());
        return pick(partitions);
    }

    /**
     * A baseline adopted with progress already made (the group used share groups before the SDK,
     * or its baseline topic was deleted): what existed when it was observed is not proof that a
     * partition is older than the group. Progress made stands (KIP-1327: a persisted start is not
     * reset), and a partition the broker has not initialized in a topic the group already reads
     * starts at the log start, where Kafka 4.4 starts partitions added to a topic the group knows.
     */
    private static void proposeForAdopted(Map<TopicPartition, PartitionClassification> classes, Map<TopicPartition, Long> initialized,
                                          Map<TopicPartition, ProposedStart> proposals) {
        Set<String> readTopics = initialized.keySet().stream().map(TopicPartition::topic).collect(Collectors.toSet());
        classes.forEach((tp, c) -> {
            if (c.isNew()) {
                return;
            }
            if (initialized.containsKey(tp)) {
                proposals.put(tp, new ProposedStart(0L, "initialized before the group's baseline"));
            } else if (readTopics.contains(tp.topic())) {
                proposals.put(tp, new ProposedStart(0L, "not initialized in a topic the group read before its baseline"));
            }
        });
    }

    private void remember(Map<TopicPartition, Long> offsets, Map<String, Uuid> ids) {
        offsets.forEach((tp, o) -> {
            Uuid id = ids.get(tp.topic());
            if (id != null) {
                put(tp, new Start(id, o));
            }
        });
    }

    private Map<TopicPartition, Long> pick(Collection<TopicPartition> partitions) {
        Map<TopicPartition, Long> out = new HashMap<>();
        partitions.forEach(tp -> {
            Start s = known.get(tp);
            if (s != null) {
                out.put(tp, s.offset());
            }
        });
        return out;
    }

    private Map<TopicPartition, ProposedStart> propose(Map<TopicPartition, ResetPolicy> policies) {
        Map<TopicPartition, Long> offsets = baseline.policyOffsets(policies, System.currentTimeMillis());
        Map<TopicPartition, ProposedStart> out = new HashMap<>();
        offsets.forEach((tp, o) -> out.put(tp, new ProposedStart(o, policies.get(tp).toString())));
        return out;
    }
}
