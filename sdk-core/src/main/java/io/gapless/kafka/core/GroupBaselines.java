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

import io.gapless.kafka.core.spi.ConnectionConfigs;
import io.gapless.kafka.core.internal.baseline.BaselineStore;
import io.gapless.kafka.core.internal.baseline.GroupBaseline;
import io.gapless.kafka.core.internal.baseline.GroupBaselineClassifier;
import io.gapless.kafka.core.internal.baseline.GroupMembership;
import org.apache.kafka.common.TopicPartition;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Administration of the group baselines that {@link GaplessConsumer} (and the SDK's Streams and
 * share-group emulations) keep in each group's baseline topic
 * ({@link GaplessConsumerConfig#BASELINE_TOPIC_PREFIX_CONFIG}): the entry
 * point for an operator or a CLI.
 *
 * <pre>{@code
 * GroupBaselineDescription d = GroupBaselines.describe(Map.of("bootstrap.servers", "localhost:9092"), "orders-service");
 * GroupBaselines.forget(Map.of("bootstrap.servers", "localhost:9092"), "orders-service");
 * }</pre>
 *
 * <p>Neither call creates the baseline topic: on a cluster without it a group simply has no baseline.
 *
 * @since 0.1.0
 */
public final class GroupBaselines {
    private GroupBaselines() {
    }

    /**
     * Ends the baseline of {@code groupId}, so that the group counts as new when it next runs:
     * the partitions existing then are pre-existing, later ones new. The SDK does this by itself
     * when a consumer group whose baseline saw committed offsets has none any more (deleted with
     * {@code kafka-consumer-groups --delete}, or expired); use this where it cannot tell, for
     * example for a group that was deleted before it ever committed. Stop the group's members
     * first.
     *
     * @param config the connection and security settings of an admin client, plus optionally
     *               {@code gapless.baseline.topic.prefix} (or {@code gapless.baseline.topic}) and
     *               {@code gapless.baseline.timeout.ms}; the principal needs Read and Write on the
     *               group's baseline topic and Describe on the group
     * @return whether the group had a baseline
     * @throws IllegalStateException        when the group (consumer, classic, share or streams group) has active
     *                                      members, before anything is written; or when members joined while the
     *                                      baseline was forgotten (it is forgotten then: restart them)
     * @throws IllegalArgumentException     when {@code groupId} is blank
     * @throws BaselineUnavailableException when the baseline cannot be read or written
     */
    public static boolean forget(Map<String, Object> config, String groupId) {
        try (GroupBaselineClassifier baseline = new GroupBaselineClassifier(store(config, groupId))) {
            BaselineStore store = baseline.store();
            if (!store.topicExists()) {
                return false;
            }
            GroupMembership before = store.membership();
            if (before.members() > 0) {
                throw new IllegalStateException(before.describe(groupId) + "; stop them before forgetting its baseline");
            }
            boolean forgotten = baseline.forget("forgotten by an operator (GroupBaselines.forget)");
            // Kafka has no way to hold a group empty while the GroupReset is appended: a member that
            // joined in between may have read the old baseline. Looking again narrows that window to
            // a member that read the baseline before the append and joined after this second look.
            GroupMembership after = store.membership();
            if (forgotten && after.members() > 0) {
                throw new IllegalStateException("The baseline of group " + groupId + " is forgotten, but meanwhile "
                        + after.describe(groupId) + ": a member that started before the forget may hold the old baseline;"
                        + " restart the group's members");
            }
            return forgotten;
        }
    }

    /**
     * Reads the baseline of {@code groupId} without changing anything.
     *
     * @param config the connection and security settings of an admin client, plus optionally
     *               {@code gapless.baseline.topic} and {@code gapless.baseline.timeout.ms}
     * @return the baseline; {@link GroupBaselineDescription#started()} is false when the group has none
     * @throws IllegalArgumentException     when {@code groupId} is blank
     * @throws BaselineUnavailableException when the baseline cannot be read
     */
    public static GroupBaselineDescription describe(Map<String, Object> config, String groupId) {
        try (BaselineStore store = store(config, groupId)) {
            if (!store.topicExists()) {
                return new GroupBaselineDescription(groupId, store.topic(), false, OptionalInt.empty(), false, "", Optional.empty(),
                        false, OptionalInt.empty(), 0, 0, 0, store.groupMembers());
            }
            GroupBaseline b = store.read();
            return new GroupBaselineDescription(groupId, store.topic(), true,
                    store.partition().map(TopicPartition::partition).map(OptionalInt::of).orElse(OptionalInt.empty()), b.started(),
                    b.incarnation(), b.started() ? Optional.of(Instant.ofEpochMilli(b.creationTimeMs())) : Optional.empty(),
                    b.adopted(), b.hasSnapshot() ? OptionalInt.of(b.snapshotSize()) : OptionalInt.empty(), b.progressTopics().size(),
                    b.startOffsetCount(), b.topicEntryCount(), store.groupMembers());
        }
    }

    private static BaselineStore store(Map<String, Object> config, String groupId) {
        Objects.requireNonNull(config, "config");
        if (groupId == null || groupId.isBlank()) {
            throw new IllegalArgumentException("groupId must not be blank, got '" + groupId + "'");
        }
        Map<String, Object> settings = new HashMap<>(config);
        settings.put("group.id", groupId);
        GaplessConsumerConfig parsed = new GaplessConsumerConfig(settings);
        return new BaselineStore(parsed.baselineTopicOf(groupId), groupId, ConnectionConfigs.from(settings, "baseline"),
                Duration.ofMillis(parsed.baselineTimeoutMs()), () -> { }, () -> { });
    }
}
