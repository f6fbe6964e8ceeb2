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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Where each share-group partition starts by KIP-1327's rules: the new-partitions policy for a
 * partition created after the group, the base policy for the others, resolved to an offset the
 * first time the group meets the partition and recorded durably in the group baseline (first
 * record in log order wins), so that every member and every restart skips below the same offset.
 */
final class ShareStartOffsets {
    private static final Logger log = LoggerFactory.getLogger(ShareStartOffsets.class);

    private final ShareGroupBaseline baseline;
    private final ResetPolicy base;
    private final ResetPolicy newPartitions;
    private final ShareResetMetrics metrics;
    private final Map<TopicPartition, Long> known = new HashMap<>();
    private final SharePartitionState state;

    ShareStartOffsets(ShareGroupBaseline baseline, SharePartitionState state, ResetPolicy base, ResetPolicy newPartitions,
                             ShareResetMetrics metrics) {
        this.baseline = baseline;
        this.state = state;
        this.base = base;
        this.newPartitions = newPartitions;
        this.metrics = metrics;
    }

    /** The start offset of a partition this client already knows, or {@code null}. */
    Long cached(TopicPartition tp) {
        return known.get(tp);
    }

    /** Start offsets of {@code partitions}: recorded ones as recorded, the others chosen now by policy. */
    Map<TopicPartition, Long> resolve(Collection<TopicPartition> partitions) {
        List<TopicPartition> unknown = partitions.stream().filter(tp -> !known.containsKey(tp)).distinct().toList();
        if (unknown.isEmpty()) {
            return pick(partitions);
        }
        Map<TopicPartition, Long> recorded = baseline.recordedStartOffsets(unknown);
        known.putAll(recorded);
        List<TopicPartition> missing = unknown.stream().filter(tp -> !recorded.containsKey(tp)).toList();
        if (!missing.isEmpty()) {
            boolean adopted = baseline.register(missing.stream().map(TopicPartition::topic).distinct().toList());
            Map<TopicPartition, PartitionClassification> classes = baseline.classify(missing);
            Map<TopicPartition, ResetPolicy> policies = new HashMap<>();
            classes.forEach((tp, c) -> policies.put(tp, c.isNew() ? newPartitions : base));
            Map<TopicPartition, ProposedStart> proposals = propose(policies);
            Map<TopicPartition, Long> initialized = state.initializedStartOffsets(missing);
            initialized.forEach((tp, spso) -> {
                if (adopted && !classes.get(tp).isNew()) {
                    // Progress from before the group used the SDK stands (KIP-1327: a persisted SPSO is not reset).
                    proposals.put(tp, new ProposedStart(0L, "initialized before the group used the SDK"));
                    return;
                }
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
                        policies.get(tp), c.label(), c.reason());
            });
            known.putAll(chosen);
        }
        metrics.recordStartsRecorded(unknown.size());
        return pick(partitions);
    }

    private Map<TopicPartition, Long> pick(Collection<TopicPartition> partitions) {
        Map<TopicPartition, Long> out = new HashMap<>();
        partitions.forEach(tp -> {
            Long o = known.get(tp);
            if (o != null) {
                out.put(tp, o);
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
