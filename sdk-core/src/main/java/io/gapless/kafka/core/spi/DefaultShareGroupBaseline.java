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
package io.gapless.kafka.core.spi;

import io.gapless.kafka.core.PartitionClassification;
import io.gapless.kafka.core.ResetPolicy;
import io.gapless.kafka.core.internal.PolicyOffsets;
import io.gapless.kafka.core.internal.baseline.BaselineStore;
import io.gapless.kafka.core.internal.baseline.GroupBaselineClassifier;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;

/** {@link ShareGroupBaseline} over sdk-core's baseline store and classifier. */
final class DefaultShareGroupBaseline implements ShareGroupBaseline {
    private final GroupBaselineClassifier classifier;

    DefaultShareGroupBaseline(BaselineTopic baselineTopic, String group, Map<String, Object> userConfig, Duration timeout) {
        BaselineStore store = new BaselineStore(baselineTopic, group, BaselineStore.GroupType.SHARE,
                ConnectionConfigs.from(userConfig, "share-baseline"), timeout, () -> { }, () -> { });
        this.classifier = new GroupBaselineClassifier(store);
    }

    @Override
    public String group() {
        return classifier.store().group();
    }

    @Override
    public List<TopicPartition> partitionsOf(Collection<String> topics) {
        Map<String, TopicDescription> described = classifier.store().describeTopics(Set.copyOf(topics));
        List<TopicPartition> out = new ArrayList<>();
        described.values().forEach(d -> IntStream.range(0, d.partitions().size())
                .forEach(p -> out.add(new TopicPartition(d.name(), p))));
        return out;
    }

    @Override
    public boolean register(Collection<String> topics) {
        return classifier.register(topics).adopted();
    }

    @Override
    public Map<TopicPartition, PartitionClassification> classify(Collection<TopicPartition> partitions) {
        return classifier.classify(partitions);
    }

    @Override
    public Map<TopicPartition, Long> recordedStartOffsets(Collection<TopicPartition> partitions) {
        return classifier.recordedStartOffsets(partitions);
    }

    @Override
    public Map<TopicPartition, Long> chooseStartOffsets(Map<TopicPartition, ProposedStart> proposals) {
        return classifier.chooseStartOffsets(internal(proposals));
    }

    @Override
    public Map<String, Uuid> topicIds(Collection<String> topics) {
        Map<String, Uuid> out = new HashMap<>();
        classifier.store().describeTopics(Set.copyOf(topics)).values().forEach(d -> out.put(d.name(), d.topicId()));
        return out;
    }

    @Override
    public boolean startNewIncarnation(String reason) {
        return classifier.forget(reason);
    }

    @Override
    public boolean groupSeenInKafka() {
        return classifier.store().read().progressSeen();
    }

    @Override
    public void recordGroupSeenInKafka(Collection<String> topics) {
        classifier.recordShareGroupSeen(topics);
    }

    @Override
    public Map<TopicPartition, Long> supersedeStartOffsets(Map<TopicPartition, ProposedStart> starts) {
        return classifier.supersedeStartOffsets(internal(starts));
    }

    private static Map<TopicPartition, GroupBaselineClassifier.ProposedStart> internal(Map<TopicPartition, ProposedStart> proposals) {
        Map<TopicPartition, GroupBaselineClassifier.ProposedStart> internal = new HashMap<>();
        proposals.forEach((tp, p) -> internal.put(tp, new GroupBaselineClassifier.ProposedStart(p.offset(), p.policy())));
        return internal;
    }

    @Override
    public Map<TopicPartition, Long> policyOffsets(Map<TopicPartition, ResetPolicy> policies, long nowMs) {
        return PolicyOffsets.resolve(policies, tp -> nowMs - policies.get(tp).duration().toMillis(), classifier.store());
    }

    @Override
    public void close() {
        classifier.close();
    }
}
