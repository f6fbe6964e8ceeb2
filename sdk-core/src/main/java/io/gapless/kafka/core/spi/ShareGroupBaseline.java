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
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * The durable group baseline (the same one {@code GaplessConsumer} keeps) as a share group uses
 * it for KIP-1327: which partitions are new, and each partition's start offset, chosen once and
 * recorded so that every member and every restart agrees (first record in log order wins). One
 * instance per share consumer; not thread-safe.
 *
 * @since 0.1.0
 */
public interface ShareGroupBaseline extends AutoCloseable {

    /**
     * Opens the baseline of share group {@code group} in {@code baselineTopic}; helper clients use
     * the connection settings of {@code userConfig}. Nothing is read before the first call.
     */
    static ShareGroupBaseline open(BaselineTopic baselineTopic, String group, Map<String, Object> userConfig, Duration timeout) {
        return new DefaultShareGroupBaseline(baselineTopic, group, userConfig, timeout);
    }

    /** A start offset proposed for a partition, and the policy that chose it (for the record and the log). */
    record ProposedStart(long offset, String policy) {
    }

    /** The share group. */
    String group();

    /** Every partition of {@code topics} as the cluster describes them now. */
    List<TopicPartition> partitionsOf(Collection<String> topics);

    /**
     * Makes sure the baseline exists and covers {@code topics}; returns whether the group adopted
     * the SDK with progress already made (then the partitions existing now count as pre-existing).
     */
    boolean register(Collection<String> topics);

    /** New or pre-existing, for each partition, and why. */
    Map<TopicPartition, PartitionClassification> classify(Collection<TopicPartition> partitions);

    /** The recorded start offsets; partitions without one are absent. */
    Map<TopicPartition, Long> recordedStartOffsets(Collection<TopicPartition> partitions);

    /** Records the proposals for partitions without a start offset and returns what is recorded afterwards. */
    Map<TopicPartition, Long> chooseStartOffsets(Map<TopicPartition, ProposedStart> proposals);

    /** The current topic id of each of {@code topics} that exists (a deleted topic is absent; a re-created one has a new id). */
    Map<String, Uuid> topicIds(Collection<String> topics);

    /**
     * Ends the group's baseline (a new group under the same id: KIP-1327 treats it as new), so the
     * next call starts a new incarnation with nothing recorded. Returns whether there was one to end.
     */
    boolean startNewIncarnation(String reason);

    /**
     * Whether the group's current incarnation recorded that Kafka knew the group (read up to the
     * baseline's end). Only then does a group Kafka does not know mean a deleted one: before its
     * first member joins, a new group is unknown to Kafka although its baseline has started.
     */
    boolean groupSeenInKafka();

    /** Records, once per topic and incarnation, that Kafka knows the group while it reads {@code topics}. */
    void recordGroupSeenInKafka(Collection<String> topics);

    /**
     * Replaces recorded start offsets (an operator's reset found on the broker wins over them):
     * unlike {@link #chooseStartOffsets}, the last record in log order wins. Returns what is
     * recorded afterwards.
     */
    Map<TopicPartition, Long> supersedeStartOffsets(Map<TopicPartition, ProposedStart> starts);

    /** The offset each policy points at now ({@code by_duration} counted back from {@code nowMs}). */
    Map<TopicPartition, Long> policyOffsets(Map<TopicPartition, ResetPolicy> policies, long nowMs);

    @Override
    void close();
}
