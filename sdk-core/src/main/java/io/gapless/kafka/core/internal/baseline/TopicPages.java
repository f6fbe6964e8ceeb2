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

import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.UnsupportedVersionException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * The snapshot a group's start records (every topic of the cluster by id, with its partition
 * count), described a page of topics at a time, each page with a deadline of its own: one
 * deadline for the whole cluster (30 s by default) is not enough near 100k topics (5k took 1.3 s,
 * sdk-core/RATIONALE.md). Also the refusal of brokers without topic ids.
 */
final class TopicPages {
    /** Topics per DescribeTopics call of a snapshot. */
    static final int PAGE_TOPICS = 2_000;
    /** The first Kafka release whose brokers give topics an id (KIP-516). */
    static final String BROKER_FLOOR = "2.8";

    private TopicPages() {
    }

    /** {@code names} in sorted pages of at most {@code size}. */
    static List<List<String>> pages(Collection<String> names, int size) {
        if (size < 1) {
            throw new IllegalArgumentException("page size must be at least 1, not " + size);
        }
        List<String> sorted = new ArrayList<>(new TreeSet<>(names));
        List<List<String>> out = new ArrayList<>();
        for (int i = 0; i < sorted.size(); i += size) {
            out.add(List.copyOf(sorted.subList(i, Math.min(sorted.size(), i + size))));
        }
        return out;
    }

    /** A DescribeTopics call that the Admin itself ends after {@code perPage}: the page's own deadline. */
    static DescribeTopicsOptions options(Duration perPage) {
        return new DescribeTopicsOptions().timeoutMs((int) Math.min(Integer.MAX_VALUE, perPage.toMillis()));
    }

    /**
     * Describes the pages one after the other (never more than one page in flight: a snapshot
     * must not flood the controller), folding each into {@code out}.
     *
     * @param describePage describes one page (topics not found are left out), ending by its own deadline
     */
    static CompletableFuture<Map<Uuid, Integer>> describeAsync(Collection<String> names, int size, Map<Uuid, Integer> out,
            Function<List<String>, CompletableFuture<Map<String, TopicDescription>>> describePage) {
        CompletableFuture<Map<Uuid, Integer>> chain = CompletableFuture.completedFuture(out);
        for (List<String> page : pages(names, size)) {
            chain = chain.thenCompose(acc -> describePage.apply(page).thenApply(described -> {
                described.values().forEach(d -> add(acc, d));
                return acc;
            }));
        }
        return chain;
    }

    /**
     * Adds a topic to a snapshot.
     *
     * @throws UnsupportedVersionException where the broker gave the topic no id: brokers before
     *                                     2.8 (or a ZooKeeper cluster whose inter-broker protocol
     *                                     is older) give every topic {@code Uuid.ZERO_UUID}, and a
     *                                     snapshot keyed by it would collapse to one entry and
     *                                     classify partitions at random
     */
    static void add(Map<Uuid, Integer> snapshot, TopicDescription d) {
        snapshot.put(requireId(d), d.partitions().size());
    }

    /** The topic's id; see {@link #add}. */
    static Uuid requireId(TopicDescription d) {
        Uuid id = d.topicId();
        if (id == null || Uuid.ZERO_UUID.equals(id)) {
            throw new NoTopicIdsException("The cluster gave topic " + d.name() + " no topic id (" + id + "): its brokers"
                    + " predate Kafka " + BROKER_FLOOR + " (KIP-516 topic ids), or run a ZooKeeper inter.broker.protocol.version"
                    + " below " + BROKER_FLOOR + ". Gapless classifies partitions by topic id and needs brokers " + BROKER_FLOOR
                    + " or newer with topic ids (every KRaft cluster has them); it refuses rather than classify at random");
        }
        return id;
    }
}
