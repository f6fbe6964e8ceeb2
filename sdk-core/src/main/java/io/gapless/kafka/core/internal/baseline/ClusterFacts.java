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

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.ShareGroupDescription;
import org.apache.kafka.clients.admin.StreamsGroupDescription;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicCollection;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.UnknownTopicIdException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.apache.kafka.common.resource.ResourceType;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * The facts about the cluster and the group that classification needs, asked with the store's
 * Admin: user topics' ids and partition counts (the snapshot a group start records), the group's
 * committed offsets (KIP-1327's upgrade rule) and its members.
 */
final class ClusterFacts {
    private final BaselineClients clients;
    private final String group;
    private final BaselineStore.GroupType groupType;
    /** Topics per DescribeTopics call of a snapshot (a test makes it small). */
    private int pageTopics = TopicPages.PAGE_TOPICS;

    ClusterFacts(BaselineClients clients, String group, BaselineStore.GroupType groupType) {
        this.clients = clients;
        this.group = group;
        this.groupType = groupType;
    }

    /** Topics per DescribeTopics call of a snapshot; for tests. */
    void pageTopics(int topics) {
        TopicPages.pages(List.of(), topics); // checks it
        this.pageTopics = topics;
    }

    /**
     * Current id and partition count of user topics; topics that do not exist are left out.
     *
     * @throws org.apache.kafka.common.errors.UnsupportedVersionException where the brokers give topics no id (before Kafka 2.8)
     */
    Map<String, TopicDescription> describeTopics(Collection<String> topics) {
        return clients.guarded("describe topics " + topics + " for", () -> {
            Map<String, TopicDescription> out = BaselineClients.needs("Describe on topics " + topics,
                    () -> describeExisting(clients.admin().describeTopics(topics).topicNameValues()));
            out.values().forEach(TopicPages::requireId);
            return out;
        });
    }

    /**
     * Every topic of the cluster (internal ones too) by id, with its partition count: the snapshot
     * a group start records. One ListTopics, then DescribeTopics a page of topics at a time, each
     * page within the store's timeout of its own.
     *
     * @throws org.apache.kafka.common.errors.UnsupportedVersionException where the brokers give topics no id (before Kafka 2.8)
     */
    Map<Uuid, Integer> topicPartitionCounts() {
        return clients.guarded("list the cluster's topics for", () -> {
            Collection<String> names = clients.admin().listTopics(new ListTopicsOptions().listInternal(true)).names()
                    .get(clients.timeout().toMillis(), TimeUnit.MILLISECONDS);
            Map<Uuid, Integer> out = new HashMap<>();
            for (List<String> page : TopicPages.pages(names, pageTopics)) {
                describeExisting(clients.admin().describeTopics(page, TopicPages.options(clients.timeout())).topicNameValues())
                        .values().forEach(d -> TopicPages.add(out, d));
            }
            return out;
        });
    }

    /**
     * The facts a consumer group's start records, asked all at once and not waited for (Admin is
     * thread-safe): called from {@link BaselineStore#open(Runnable)}'s {@code whenMissing}, so that they arrive
     * while the baseline topic is created. Errors are not explained here: a caller that sees this
     * fail asks again with {@link #topicPartitionCounts()} and {@link #committedTopics()}.
     */
    CompletableFuture<BaselineStore.StartFacts> startFactsAsync() {
        Admin a = clients.startedAdmin().orElse(null);
        if (a == null || groupType != BaselineStore.GroupType.CONSUMER) {
            return CompletableFuture.failedFuture(new IllegalStateException("not a consumer group's open store"));
        }
        // Every call ends by its own deadline (the Admin's timeoutMs), a page of the snapshot too: the chain always completes.
        Duration timeout = clients.timeout();
        int ms = (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
        CompletableFuture<Map<Uuid, Integer>> counts = a.listTopics(new ListTopicsOptions().listInternal(true).timeoutMs(ms)).names()
                .toCompletionStage().toCompletableFuture()
                .thenCompose(names -> TopicPages.describeAsync(names, pageTopics, new HashMap<>(), page -> describedAsync(a, page, timeout)));
        CompletableFuture<BaselineStore.StartFacts> facts = a.listConsumerGroupOffsets(group,
                        new org.apache.kafka.clients.admin.ListConsumerGroupOffsetsOptions().timeoutMs(ms)).partitionsToOffsetAndMetadata()
                .toCompletionStage().toCompletableFuture().thenCompose(offsets -> {
                    Set<String> topics = new TreeSet<>();
                    offsets.forEach((tp, o) -> {
                        if (o != null) {
                            topics.add(tp.topic());
                        }
                    });
                    return topics.isEmpty() ? CompletableFuture.completedFuture(new BaselineStore.StartFacts(Map.of(), false, Set.of()))
                            : describedAsync(a, topics, timeout).thenApply(d -> new BaselineStore.StartFacts(Map.of(), true,
                            d.values().stream().map(TopicPages::requireId).collect(Collectors.toSet())));
                });
        return counts.thenCombine(facts, (c, f) -> new BaselineStore.StartFacts(c, f.committed(), f.committedTopicIds()));
    }

    /** Descriptions of the topics that exist, as {@link #describeExisting} gives them, without waiting. */
    private static CompletableFuture<Map<String, TopicDescription>> describedAsync(Admin a, Collection<String> names, Duration deadline) {
        Map<String, CompletableFuture<TopicDescription>> futures = new HashMap<>();
        a.describeTopics(names, TopicPages.options(deadline)).topicNameValues().forEach((name, f) -> futures.put(name, f.toCompletionStage().toCompletableFuture()
                .exceptionally(e -> {
                    Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
                    if (cause instanceof UnknownTopicOrPartitionException) {
                        return null; // deleted since it was listed
                    }
                    throw e instanceof CompletionException ce ? ce : new CompletionException(e);
                })));
        return CompletableFuture.allOf(futures.values().toArray(CompletableFuture[]::new)).thenApply(v -> {
            Map<String, TopicDescription> out = new HashMap<>();
            futures.forEach((name, f) -> {
                TopicDescription d = f.join();
                if (d != null) {
                    out.put(name, d);
                }
            });
            return out;
        });
    }

    private Map<String, TopicDescription> describeExisting(Map<String, KafkaFuture<TopicDescription>> futures) throws Exception {
        Map<String, TopicDescription> out = new HashMap<>();
        long deadline = System.nanoTime() + clients.timeout().toNanos();
        for (Map.Entry<String, KafkaFuture<TopicDescription>> e : futures.entrySet()) {
            try {
                out.put(e.getKey(), e.getValue().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS));
            } catch (ExecutionException ex) {
                if (!(ex.getCause() instanceof UnknownTopicOrPartitionException)) {
                    throw ex;
                }
            }
        }
        return out;
    }

    /**
     * Whether the group already made progress (KIP-1327's upgrade rule, and the test for a deleted
     * group): committed offsets for a consumer group, initialized start offsets for a share group.
     */
    boolean groupHasCommittedOffsets() {
        return clients.guarded("list committed offsets of group " + group + " for", () -> onGroup(() -> {
            if (groupType == BaselineStore.GroupType.SHARE) {
                return clients.admin().listShareGroupOffsets(Map.of(group, new ListShareGroupOffsetsSpec()))
                        .partitionsToOffsetInfo(group).get(clients.timeout().toMillis(), TimeUnit.MILLISECONDS)
                        .values().stream().anyMatch(Objects::nonNull);
            }
            return !clients.admin().listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata()
                    .get(clients.timeout().toMillis(), TimeUnit.MILLISECONDS).isEmpty();
        }));
    }

    /** The topics the consumer group has committed offsets for now (none when the group does not exist). */
    Set<String> committedTopics() {
        return clients.guarded("list committed offsets of group " + group + " for", () -> onGroup(() -> {
            Set<String> out = new TreeSet<>();
            clients.admin().listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get(clients.timeout().toMillis(), TimeUnit.MILLISECONDS)
                    .forEach((tp, o) -> {
                        if (o != null) {
                            out.add(tp.topic());
                        }
                    });
            return out;
        }));
    }

    /** Which of these topic ids still exist. */
    Set<Uuid> existingTopicIds(Collection<Uuid> ids) {
        return clients.guarded("describe topics " + ids + " for", () -> {
            Set<Uuid> out = new HashSet<>();
            long deadline = System.nanoTime() + clients.timeout().toNanos();
            for (Map.Entry<Uuid, KafkaFuture<TopicDescription>> e : clients.admin().describeTopics(
                    TopicCollection.ofTopicIds(ids)).topicIdValues().entrySet()) {
                try {
                    e.getValue().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                    out.add(e.getKey());
                } catch (ExecutionException ex) {
                    if (!(ex.getCause() instanceof UnknownTopicIdException
                            || ex.getCause() instanceof UnknownTopicOrPartitionException)) {
                        throw ex;
                    }
                }
            }
            return out;
        });
    }

    /**
     * The group's members now, whatever its type. A group id names one group of one type, and each
     * type has its own Describe call (asked of the other types, Kafka answers GROUP_ID_NOT_FOUND, so
     * one call alone counts a running share or streams group as empty): all three are asked at once.
     */
    GroupMembership membership() {
        return clients.guarded("describe group " + group + " for", () -> onGroup(() -> {
            KafkaFuture<ConsumerGroupDescription> consumer = clients.admin().describeConsumerGroups(List.of(group)).describedGroups().get(group);
            KafkaFuture<ShareGroupDescription> share = clients.admin().describeShareGroups(List.of(group)).describedGroups().get(group);
            KafkaFuture<StreamsGroupDescription> streams = clients.admin().describeStreamsGroups(List.of(group)).describedGroups().get(group);
            long deadline = System.nanoTime() + clients.timeout().toNanos();
            List<GroupMembership> found = new ArrayList<>();
            described(consumer, deadline).filter(d -> d.groupState() != GroupState.DEAD)
                    .ifPresent(d -> found.add(new GroupMembership("Consumer", d.members().size())));
            described(share, deadline).filter(d -> d.groupState() != GroupState.DEAD)
                    .ifPresent(d -> found.add(new GroupMembership("Share", d.members().size())));
            described(streams, deadline).filter(d -> d.groupState() != GroupState.DEAD)
                    .ifPresent(d -> found.add(new GroupMembership("Streams", d.members().size())));
            return found.stream().max(Comparator.comparingInt(GroupMembership::members)).orElse(GroupMembership.NONE);
        }));
    }

    /** The description, or empty where the group is not of this type (or the broker has no groups of it). */
    private static <T> Optional<T> described(KafkaFuture<T> future, long deadlineNanos) throws Exception {
        try {
            return Optional.of(future.get(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS));
        } catch (ExecutionException e) {
            if (e.getCause() instanceof GroupIdNotFoundException || e.getCause() instanceof UnsupportedVersionException) {
                return Optional.empty();
            }
            throw e;
        }
    }

    private <T> T onGroup(BaselineClients.Call<T> call) throws Exception {
        return BaselineClients.needs("Describe on group " + group + " (implied by Read)", ResourceType.GROUP, group, call);
    }
}
