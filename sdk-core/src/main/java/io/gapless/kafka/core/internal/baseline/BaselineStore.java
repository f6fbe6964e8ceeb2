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
import io.gapless.kafka.core.internal.PolicyOffsets;
import io.gapless.kafka.core.spi.BaselineTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.InterruptException;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * Kafka I/O for one group's baseline, one object per job over one set of helper clients:
 * {@link BaselineClients} (the clients' lifecycle and the lock that serializes every call, so the
 * owner may warm the store up on another thread), {@link BaselineTopicSetup} (how the compacted
 * baseline topic is created on first use and checked), {@link BaselineLog} (the group's partition
 * of it), {@link ClusterFacts} (the facts about user topics and the group that classification
 * needs) and {@link OffsetLookups} (the policies' offset look-ups). {@link #close} never waits for
 * a call in progress (the caller that holds the lock closes the clients when it lets go) and no
 * call after {@code close} opens a client. An interrupt ends a call with Kafka's
 * {@link InterruptException}, the thread's interrupt flag set; every other failure is a
 * {@link BaselineUnavailableException}.
 */
public final class BaselineStore implements AutoCloseable, PolicyOffsets.Lookup {
    private final String topic;
    private final String group;
    private final GroupType groupType;
    private final BaselineClients clients;
    private final BaselineLog log;
    private final ClusterFacts facts;
    private final OffsetLookups offsets;

    /**
     * @param connection the user's connection settings (see {@code ConnectionConfigs})
     * @param onRead     counts baseline reads, for metrics
     * @param onWrite    counts baseline writes, for metrics
     */
    public BaselineStore(BaselineTopic topic, String group, Map<String, Object> connection, Duration timeout,
                         Runnable onRead, Runnable onWrite) {
        this(topic, group, GroupType.CONSUMER, connection, timeout, onRead, onWrite);
    }

    /** Which kind of group the baseline belongs to: it decides how the upgrade rule looks for existing progress. */
    public enum GroupType {
        /** A consumer group (or a Streams application): progress is committed offsets. */
        CONSUMER,
        /** A share group: progress is initialized share-partition start offsets. */
        SHARE
    }

    public BaselineStore(BaselineTopic topic, String group, GroupType groupType, Map<String, Object> connection, Duration timeout,
                         Runnable onRead, Runnable onWrite) {
        this(topic, group, groupType, connection, IsolationLevel.READ_UNCOMMITTED, timeout, onRead, onWrite);
    }

    /**
     * @param isolation the isolation level of the user's consumer: offset look-ups made for it
     *                  ({@code latest} is the last stable offset under {@code read_committed}) use it
     */
    public BaselineStore(BaselineTopic topic, String group, GroupType groupType, Map<String, Object> connection, IsolationLevel isolation,
                         Duration timeout, Runnable onRead, Runnable onWrite) {
        this.topic = topic.name();
        this.group = group;
        this.groupType = groupType;
        this.clients = new BaselineClients(topic.name(), group, connection, isolation, timeout);
        this.log = new BaselineLog(clients, topic, group, onRead, onWrite);
        this.facts = new ClusterFacts(clients, group, groupType);
        this.offsets = new OffsetLookups(clients);
    }

    public String topic() {
        return topic;
    }

    public String group() {
        return group;
    }

    public GroupType groupType() {
        return groupType;
    }

    /** Topics per DescribeTopics call of a snapshot; for tests. */
    void pageTopics(int topics) {
        facts.pageTopics(topics);
    }

    /** Upper bound of one call. */
    public Duration timeout() {
        return clients.timeout();
    }

    /**
     * Opens the clients, creates or checks the topic and reads the group's records, so that the
     * first assignment pays only for what is left. Failures other than an interrupt are left for
     * the real call to report; after {@link #close} it does nothing.
     */
    public void warmUp() {
        log.warmUp();
    }

    /**
     * Builds the helper clients (no request waited for): called at construction, so that their
     * set-up (the Admin's metadata, the producer's InitProducerId) is done before {@code subscribe}
     * needs them. After {@link #close} it does nothing.
     */
    public void startClients() {
        if (clients.closed()) {
            return;
        }
        clients.guarded("start the clients of", () -> {
            clients.admin();
            clients.producer();
            clients.reader();
            return null;
        });
    }

    /**
     * Opens the clients and creates the baseline topic when missing, without reading. Returns
     * {@code true} only on the call that created the topic: it did not exist a moment ago, so no
     * group had a baseline in it (records written since are read by the next read).
     */
    public boolean open() {
        return open(() -> { });
    }

    /**
     * {@link #open()}; {@code whenMissing} runs (on this thread, without waiting for anything) when
     * the topic was found missing, before it is created: work that only a group without a baseline
     * needs can start then and overlap the creation.
     */
    public boolean open(Runnable whenMissing) {
        return log.open(whenMissing);
    }

    /** The group's baseline as folded so far, without reading (see {@link #read()}). */
    public GroupBaseline cached() {
        return log.cached();
    }

    /** Reads the group's partition from where the last read stopped up to its current end. */
    public GroupBaseline read() {
        return log.read();
    }

    /**
     * Reads the group's partition up to and including {@code offset} (one returned by
     * {@link #append}), without asking for its end first: what the log holds up to a record
     * decides whether that record won. Always a real read, even where this store's own records
     * are all there is: on a new group's first start it is the one Fetch that proves Read on the
     * topic, so a missing Read ACL fails the start rather than the first restart.
     */
    public GroupBaseline readThrough(long offset) {
        return log.readThrough(offset);
    }

    /**
     * Whether the baseline topic exists, without creating it (every other call creates it on
     * first use): read-only tools ask this first, so that looking at a group never creates a topic.
     */
    public boolean topicExists() {
        return log.topicExists();
    }

    /** The partition of the baseline topic that holds the group's records; empty before the first read. */
    public Optional<TopicPartition> partition() {
        return log.partition();
    }

    /**
     * Appends records to the group's partition and waits until they are acknowledged by all
     * in-sync replicas; returns the offset of the last one.
     */
    public long append(List<BaselineRecord> records) {
        return log.append(records);
    }

    /** Current id and partition count of user topics; topics that do not exist are left out. */
    public Map<String, TopicDescription> describeTopics(Collection<String> topics) {
        return facts.describeTopics(topics);
    }

    /**
     * Every topic of the cluster (internal ones too) by id, with its partition count: the snapshot
     * a group start records. One ListTopics and one DescribeTopics for all of them.
     */
    public Map<Uuid, Integer> topicPartitionCounts() {
        return facts.topicPartitionCounts();
    }

    /** What a consumer group's start records, as {@link #topicPartitionCounts()} and {@link #committedTopics()} give it. */
    public record StartFacts(Map<Uuid, Integer> partitionCounts, boolean committed, Set<Uuid> committedTopicIds) {
    }

    /**
     * The facts a consumer group's start records, asked all at once and not waited for: called
     * from {@link #open(Runnable)}'s {@code whenMissing}, so that they arrive while the baseline
     * topic is created. A caller that sees this fail asks again with {@link #topicPartitionCounts()}
     * and {@link #committedTopics()}.
     */
    public CompletableFuture<StartFacts> startFactsAsync() {
        return facts.startFactsAsync();
    }

    /**
     * Whether the group already made progress (KIP-1327's upgrade rule, and the test for a deleted
     * group): committed offsets for a consumer group, initialized start offsets for a share group.
     */
    public boolean groupHasCommittedOffsets() {
        return facts.groupHasCommittedOffsets();
    }

    /** The topics the consumer group has committed offsets for now (none when the group does not exist). */
    public Set<String> committedTopics() {
        return facts.committedTopics();
    }

    /** Which of these topic ids still exist. */
    public Set<Uuid> existingTopicIds(Collection<Uuid> ids) {
        return facts.existingTopicIds(ids);
    }

    /** The number of members the group has now, whatever its type (0 when it does not exist). */
    public int groupMembers() {
        return facts.membership().members();
    }

    /** The group's members now, whatever its type (see {@link ClusterFacts#membership()}). */
    public GroupMembership membership() {
        return facts.membership();
    }

    @Override
    public Map<TopicPartition, Long> beginningOffsets(Collection<TopicPartition> partitions) {
        return offsets.beginningOffsets(partitions);
    }

    @Override
    public Map<TopicPartition, Long> endOffsets(Collection<TopicPartition> partitions) {
        return offsets.endOffsets(partitions);
    }

    @Override
    public Map<TopicPartition, OffsetAndTimestamp> offsetsForTimes(Map<TopicPartition, Long> times) {
        return offsets.offsetsForTimes(times);
    }

    @Override
    public PolicyOffsets.Lookup within(Duration timeout) {
        return offsets.within(timeout);
    }

    /** Same as {@link #close(Duration)} with five seconds. */
    @Override
    public void close() {
        close(Duration.ofSeconds(5));
    }

    /**
     * Closes the clients, each within {@code timeout}. Does not wait for a call in progress on
     * another thread: that call closes them when it returns. Idempotent.
     */
    public void close(Duration timeout) {
        clients.close(timeout);
    }
}
