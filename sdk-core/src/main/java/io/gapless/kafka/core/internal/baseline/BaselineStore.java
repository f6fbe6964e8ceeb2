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
import io.gapless.kafka.core.spi.KafkaBackoff;
import io.gapless.kafka.core.spi.Authorization;
import io.gapless.kafka.core.spi.BaselineTopic;
import io.gapless.kafka.core.spi.ConnectionConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.CreateTopicsResult;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ShareGroupDescription;
import org.apache.kafka.clients.admin.StreamsGroupDescription;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.utils.Utils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Collectors;

/**
 * Kafka I/O for one group's baseline: the compacted baseline topic (created on first use), the
 * group's partition of it, and the facts about user topics that classification needs. Calls are
 * serialized by a lock, so the owner may warm the store up on another thread; {@link #close}
 * never waits for a call in progress (the caller that holds the lock closes the clients when it
 * lets go) and no call after {@code close} opens a client. An interrupt ends a call with Kafka's
 * {@link InterruptException}, the thread's interrupt flag set; every other failure is a
 * {@link BaselineUnavailableException}.
 */
public final class BaselineStore implements AutoCloseable, PolicyOffsets.Lookup {
    private static final Logger log = LoggerFactory.getLogger(BaselineStore.class);
    /** Replicas of a baseline topic the SDK creates, where the cluster has that many brokers. */
    private static final int MAX_CREATED_REPLICAS = 3;

    private final BaselineTopic baselineTopic;
    private final String topic;
    private final String group;
    private final Map<String, Object> connection;
    private final IsolationLevel isolation;
    private final Duration timeout;
    private final Runnable onRead;
    private final Runnable onWrite;
    private final GroupType groupType;
    private final ReentrantLock lock = new ReentrantLock();
    private volatile boolean closed;
    private volatile Duration closeTimeout = Duration.ofSeconds(5);
    private boolean clientsClosed;
    private boolean openFailed;

    private Admin admin;
    private KafkaProducer<byte[], byte[]> producer;
    private KafkaConsumer<byte[], byte[]> reader;
    private TopicPartition groupPartition;
    private final GroupBaseline baseline;
    /** Topics per DescribeTopics call of a snapshot (a test makes it small). */
    private int pageTopics = TopicPages.PAGE_TOPICS;

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
        this.groupType = groupType;
        this.baselineTopic = topic;
        this.topic = topic.name();
        this.group = group;
        this.connection = connection;
        this.isolation = isolation;
        this.timeout = timeout;
        this.onRead = onRead;
        this.onWrite = onWrite;
        this.baseline = new GroupBaseline(group);
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
        TopicPages.pages(List.of(), topics); // checks it
        this.pageTopics = topics;
    }

    /** Upper bound of one call. */
    public Duration timeout() {
        return timeout;
    }

    /**
     * Opens the clients, creates or checks the topic and reads the group's records, so that the
     * first assignment pays only for what is left. Failures other than an interrupt are left for
     * the real call to report; after {@link #close} it does nothing.
     */
    public void warmUp() {
        if (closed) {
            return;
        }
        try {
            read();
            guarded("open the producer of", () -> {
                ensureProducer();
                return onBaselineTopic(describeTopic(), () -> producer.partitionsFor(topic));
            });
        } catch (InterruptException e) {
            throw e;
        } catch (RuntimeException e) {
            log.debug("Warming up the baseline of group {} failed; the first real use reports it", group, e);
        }
    }

    /**
     * Builds the helper clients (no request waited for): called at construction, so that their
     * set-up (the Admin's metadata, the producer's InitProducerId) is done before {@code subscribe}
     * needs them. After {@link #close} it does nothing.
     */
    public void startClients() {
        if (closed) {
            return;
        }
        guarded("start the clients of", () -> {
            ensureAdmin();
            ensureProducer();
            ensureReader();
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
        return guarded("open", () -> ensureOpen(whenMissing));
    }

    /** The group's baseline as folded so far, without reading (see {@link #read()}). */
    public GroupBaseline cached() {
        return baseline;
    }

    /** Reads the group's partition from where the last read stopped up to its current end. */
    public GroupBaseline read() {
        return guarded("read", () -> {
            ensureOpen(() -> { });
            return onBaselineTopic(aclOnTopic("Read"), () -> readUpTo(reader.endOffsets(List.of(groupPartition), timeout).get(groupPartition)));
        });
    }

    /**
     * Reads the group's partition up to and including {@code offset} (one returned by
     * {@link #append}), without asking for its end first: what the log holds up to a record
     * decides whether that record won. Always a real read, even where this store's own records
     * are all there is: on a new group's first start it is the one Fetch that proves Read on the
     * topic, so a missing Read ACL fails the start rather than the first restart.
     */
    public GroupBaseline readThrough(long offset) {
        return guarded("read", () -> {
            ensureOpen(() -> { });
            return onBaselineTopic(aclOnTopic("Read"), () -> readUpTo(offset + 1));
        });
    }

    private GroupBaseline readUpTo(long end) throws TimeoutException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (reader.position(groupPartition, timeout) < end) {
            if (System.nanoTime() > deadline) {
                throw new TimeoutException("reading " + groupPartition + " up to offset " + end);
            }
            for (ConsumerRecord<byte[], byte[]> r : reader.poll(Duration.ofMillis(100))) {
                BaselineRecord record = BaselineRecord.parse(r.value());
                if (record != null) {
                    baseline.apply(record, r.timestamp());
                }
            }
        }
        onRead.run();
        return baseline;
    }

    /**
     * Whether the baseline topic exists, without creating it (every other call creates it on
     * first use): read-only tools ask this first, so that looking at a group never creates a topic.
     */
    public boolean topicExists() {
        return guarded("describe the topic of", () -> {
            ensureAdmin();
            return describeBaselineTopic().isPresent();
        });
    }

    /** The partition of the baseline topic that holds the group's records; empty before the first read. */
    public Optional<TopicPartition> partition() {
        return Optional.ofNullable(groupPartition);
    }

    /**
     * Appends records to the group's partition and waits until they are acknowledged by all
     * in-sync replicas; returns the offset of the last one.
     */
    public long append(List<BaselineRecord> records) {
        return guarded("write", () -> {
            ensureOpen(() -> { });
            ensureProducer();
            try {
                return onBaselineTopic(aclOnTopic("Write"), () -> send(records));
            } catch (Exception e) {
                discardProducer();
                throw e;
            }
        });
    }

    private Long send(List<BaselineRecord> records) throws ExecutionException, InterruptedException, TimeoutException {
        List<Future<RecordMetadata>> sends = new ArrayList<>();
        for (BaselineRecord r : records) {
            sends.add(producer.send(new ProducerRecord<>(topic, groupPartition.partition(), BaselineRecord.key(r), BaselineRecord.value(r))));
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        long last = -1;
        for (Future<RecordMetadata> f : sends) {
            last = f.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS).offset();
        }
        onWrite.run();
        return last;
    }

    /**
     * Current id and partition count of user topics; topics that do not exist are left out.
     *
     * @throws UnsupportedVersionException where the brokers give topics no id (before Kafka 2.8)
     */
    public Map<String, TopicDescription> describeTopics(Collection<String> topics) {
        return guarded("describe topics " + topics + " for", () -> {
            ensureAdmin();
            Map<String, TopicDescription> out = needs("Describe on topics " + topics,
                    () -> describeExisting(admin.describeTopics(topics).topicNameValues()));
            out.values().forEach(TopicPages::requireId);
            return out;
        });
    }

    /**
     * Every topic of the cluster (internal ones too) by id, with its partition count: the snapshot
     * a group start records. One ListTopics, then DescribeTopics a page of topics at a time, each
     * page within {@link #timeout()} of its own.
     *
     * @throws UnsupportedVersionException where the brokers give topics no id (before Kafka 2.8)
     */
    public Map<Uuid, Integer> topicPartitionCounts() {
        return guarded("list the cluster's topics for", () -> {
            ensureAdmin();
            Collection<String> names = admin.listTopics(new ListTopicsOptions().listInternal(true)).names()
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            Map<Uuid, Integer> out = new HashMap<>();
            for (List<String> page : TopicPages.pages(names, pageTopics)) {
                describeExisting(admin.describeTopics(page, TopicPages.options(timeout)).topicNameValues())
                        .values().forEach(d -> TopicPages.add(out, d));
            }
            return out;
        });
    }

    /** What a consumer group's start records, as {@link #topicPartitionCounts()} and {@link #committedTopics()} give it. */
    public record StartFacts(Map<Uuid, Integer> partitionCounts, boolean committed, Set<Uuid> committedTopicIds) {
    }

    /**
     * The facts a consumer group's start records, asked all at once and not waited for (Admin is
     * thread-safe): called from {@link #open(Runnable)}'s {@code whenMissing}, so that they arrive
     * while the baseline topic is created. Errors are not explained here: a caller that sees this
     * fail asks again with {@link #topicPartitionCounts()} and {@link #committedTopics()}.
     */
    public CompletableFuture<StartFacts> startFactsAsync() {
        Admin a = admin;
        if (a == null || groupType != GroupType.CONSUMER) {
            return CompletableFuture.failedFuture(new IllegalStateException("not a consumer group's open store"));
        }
        // Every call ends by its own deadline (the Admin's timeoutMs), a page of the snapshot too: the chain always completes.
        int ms = (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
        CompletableFuture<Map<Uuid, Integer>> counts = a.listTopics(new ListTopicsOptions().listInternal(true).timeoutMs(ms)).names()
                .toCompletionStage().toCompletableFuture()
                .thenCompose(names -> TopicPages.describeAsync(names, pageTopics, new HashMap<>(), page -> describedAsync(a, page, timeout)));
        CompletableFuture<StartFacts> facts = a.listConsumerGroupOffsets(group,
                        new org.apache.kafka.clients.admin.ListConsumerGroupOffsetsOptions().timeoutMs(ms)).partitionsToOffsetAndMetadata()
                .toCompletionStage().toCompletableFuture().thenCompose(offsets -> {
                    Set<String> topics = new TreeSet<>();
                    offsets.forEach((tp, o) -> {
                        if (o != null) {
                            topics.add(tp.topic());
                        }
                    });
                    return topics.isEmpty() ? CompletableFuture.completedFuture(new StartFacts(Map.of(), false, Set.of()))
                            : describedAsync(a, topics, timeout).thenApply(d -> new StartFacts(Map.of(), true,
                            d.values().stream().map(TopicPages::requireId).collect(Collectors.toSet())));
                });
        return counts.thenCombine(facts, (c, f) -> new StartFacts(c, f.committed(), f.committedTopicIds()));
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
        long deadline = System.nanoTime() + timeout.toNanos();
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
    public boolean groupHasCommittedOffsets() {
        return guarded("list committed offsets of group " + group + " for", () -> onGroup(() -> {
            ensureAdmin();
            if (groupType == GroupType.SHARE) {
                return admin.listShareGroupOffsets(Map.of(group, new org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec()))
                        .partitionsToOffsetInfo(group).get(timeout.toMillis(), TimeUnit.MILLISECONDS)
                        .values().stream().anyMatch(java.util.Objects::nonNull);
            }
            return !admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata()
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS).isEmpty();
        }));
    }

    /** The topics the consumer group has committed offsets for now (none when the group does not exist). */
    public Set<String> committedTopics() {
        return guarded("list committed offsets of group " + group + " for", () -> onGroup(() -> {
            ensureAdmin();
            Set<String> out = new TreeSet<>();
            admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get(timeout.toMillis(), TimeUnit.MILLISECONDS)
                    .forEach((tp, o) -> {
                        if (o != null) {
                            out.add(tp.topic());
                        }
                    });
            return out;
        }));
    }

    /** Which of these topic ids still exist. */
    public Set<Uuid> existingTopicIds(Collection<Uuid> ids) {
        return guarded("describe topics " + ids + " for", () -> {
            ensureAdmin();
            Set<Uuid> out = new java.util.HashSet<>();
            long deadline = System.nanoTime() + timeout.toNanos();
            for (Map.Entry<Uuid, KafkaFuture<TopicDescription>> e : admin.describeTopics(
                    org.apache.kafka.common.TopicCollection.ofTopicIds(ids)).topicIdValues().entrySet()) {
                try {
                    e.getValue().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                    out.add(e.getKey());
                } catch (ExecutionException ex) {
                    if (!(ex.getCause() instanceof org.apache.kafka.common.errors.UnknownTopicIdException
                            || ex.getCause() instanceof UnknownTopicOrPartitionException)) {
                        throw ex;
                    }
                }
            }
            return out;
        });
    }

    /** The number of members the group has now, whatever its type (0 when it does not exist). */
    public int groupMembers() {
        return membership().members();
    }

    /**
     * The group's members now, whatever its type. A group id names one group of one type, and each
     * type has its own Describe call (asked of the other types, Kafka answers GROUP_ID_NOT_FOUND, so
     * one call alone counts a running share or streams group as empty): all three are asked at once.
     */
    public GroupMembership membership() {
        return guarded("describe group " + group + " for", () -> onGroup(() -> {
            ensureAdmin();
            KafkaFuture<ConsumerGroupDescription> consumer = admin.describeConsumerGroups(List.of(group)).describedGroups().get(group);
            KafkaFuture<ShareGroupDescription> share = admin.describeShareGroups(List.of(group)).describedGroups().get(group);
            KafkaFuture<StreamsGroupDescription> streams = admin.describeStreamsGroups(List.of(group)).describedGroups().get(group);
            long deadline = System.nanoTime() + timeout.toNanos();
            List<GroupMembership> found = new ArrayList<>();
            described(consumer, deadline).filter(d -> d.groupState() != GroupState.DEAD)
                    .ifPresent(d -> found.add(new GroupMembership("Consumer", d.members().size())));
            described(share, deadline).filter(d -> d.groupState() != GroupState.DEAD)
                    .ifPresent(d -> found.add(new GroupMembership("Share", d.members().size())));
            described(streams, deadline).filter(d -> d.groupState() != GroupState.DEAD)
                    .ifPresent(d -> found.add(new GroupMembership("Streams", d.members().size())));
            return found.stream().max(java.util.Comparator.comparingInt(GroupMembership::members)).orElse(GroupMembership.NONE);
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

    /** Log start offsets, for policies that resolve to {@code earliest}. */
    @Override
    public Map<TopicPartition, Long> beginningOffsets(Collection<TopicPartition> partitions) {
        return guarded("look up start offsets of " + partitions + " for", () -> {
            ensureReader();
            return needs(describeTopicsOf(partitions), () -> reader.beginningOffsets(partitions, timeout));
        });
    }

    /** Log end offsets (last stable offsets under {@code read_committed}), for policies that resolve to {@code latest}. */
    @Override
    public Map<TopicPartition, Long> endOffsets(Collection<TopicPartition> partitions) {
        return guarded("look up end offsets of " + partitions + " for", () -> {
            ensureReader();
            return needs(describeTopicsOf(partitions), () -> reader.endOffsets(partitions, timeout));
        });
    }

    /** The first offset at or after {@code timeMs} per partition; absent where no record is that recent. */
    @Override
    public Map<TopicPartition, OffsetAndTimestamp> offsetsForTimes(Map<TopicPartition, Long> times) {
        return guarded("look up offsets by time of " + times.keySet() + " for", () -> {
            ensureReader();
            return needs(describeTopicsOf(times.keySet()), () -> reader.offsetsForTimes(times, timeout));
        });
    }

    @FunctionalInterface
    private interface Call<T> {
        T call() throws Exception;
    }

    /** Runs {@code call}; a refusal by the broker comes out as Kafka's own exception type, naming {@code acl}. */
    private static <T> T needs(String acl, ResourceType type, String name, Call<T> call) throws Exception {
        try {
            return call.call();
        } catch (Exception e) {
            AuthorizationException explained = Authorization.explain(e, acl, type, name);
            if (explained != null) {
                throw explained;
            }
            throw e;
        }
    }

    private static <T> T needs(String acl, Call<T> call) throws Exception {
        return needs(acl, null, null, call);
    }

    private <T> T onBaselineTopic(String acl, Call<T> call) throws Exception {
        return needs(acl, ResourceType.TOPIC, topic, call);
    }

    private <T> T onGroup(Call<T> call) throws Exception {
        return needs(describeGroup(), ResourceType.GROUP, group, call);
    }

    private String aclOnTopic(String operation) {
        return operation + " on topic " + topic;
    }

    private String describeTopic() {
        return "Describe on topic " + topic + " (implied by Read or Write)";
    }

    private String describeGroup() {
        return "Describe on group " + group + " (implied by Read)";
    }

    private static String describeTopicsOf(Collection<TopicPartition> partitions) {
        return "Describe on topics " + partitions.stream().map(TopicPartition::topic).collect(Collectors.toCollection(TreeSet::new));
    }

    private <T> T guarded(String what, Call<T> call) {
        try {
            lock.lockInterruptibly();
        } catch (InterruptedException e) {
            throw new InterruptException(e);
        }
        try {
            if (closed) {
                throw new IllegalStateException("The baseline store of group " + group + " is closed");
            }
            return call.call();
        } catch (InterruptedException e) {
            throw new InterruptException(e);
        } catch (InterruptException | BaselineUnavailableException | IllegalStateException | NoTopicIdsException e) {
            throw e;
        } catch (Exception e) {
            throw unavailable(what, e);
        } finally {
            if (closed && !clientsClosed) {
                // close() ran while this call held the lock: this thread closes the clients, interrupt or not.
                boolean interrupted = Thread.interrupted();
                closeClients(closeTimeout);
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
            lock.unlock();
        }
    }

    private void ensureAdmin() {
        if (admin == null) {
            admin = Admin.create(ConnectionConfigs.withClientIdSuffix(connection, "admin"));
        }
    }

    /** The reader, unassigned: offset look-ups for user partitions need nothing of the baseline topic. */
    private void ensureReader() {
        if (reader != null) {
            return;
        }
        Map<String, Object> c = ConnectionConfigs.withClientIdSuffix(connection, "reader");
        c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        // The baseline is written without transactions; the user's level matters for the offset look-ups made for it.
        c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation.toString().toLowerCase(Locale.ROOT));
        // The reader only reads up to a known end offset: a long-polling fetch in flight would delay the next read.
        c.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 10);
        reader = new KafkaConsumer<>(c, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    /** Opens the store (see {@link #open()}); returns whether this call created the baseline topic. */
    private boolean ensureOpen(Runnable whenMissing) throws Exception {
        if (groupPartition != null) {
            return false;
        }
        ensureAdmin();
        // The clients first: their set-up (and the producer's InitProducerId) overlaps with the topic's round trips.
        if (openFailed) {
            discardProducer(); // an earlier open that failed half-way
        }
        openFailed = true;
        ensureProducer();
        ensureReader();
        log.debug("Group {}: baseline clients built", group);
        TopicState state = ensureTopic(whenMissing);
        // One group per topic by default (one partition); a shared topic spreads groups over its partitions.
        TopicPartition mine = new TopicPartition(topic, Utils.toPositive(Utils.murmur2(group.getBytes(StandardCharsets.UTF_8))) % state.partitions());
        reader.assign(List.of(mine));
        // Offset 0 rather than seekToBeginning: no ListOffsets first. Below a log start moved by deleteRecords the
        // reader's auto.offset.reset=earliest takes it to the start, which is where seekToBeginning goes.
        reader.seek(mine, 0);
        groupPartition = mine;
        openFailed = false;
        log.debug("Group {} keeps its baseline in {}", group, groupPartition);
        return state.created();
    }

    private void ensureProducer() {
        if (producer != null) {
            return;
        }
        Map<String, Object> p = ConnectionConfigs.withClientIdSuffix(connection, "producer");
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
    }

    /**
     * A failed write may leave the idempotent producer in a fatal state for good (a refused
     * InitProducerId is a ClusterAuthorizationException there): the next write starts a new one.
     */
    private void discardProducer() {
        if (producer != null) {
            producer.close(Duration.ZERO);
            producer = null;
        }
    }

    /** The baseline topic as {@link #ensureTopic()} found it: its partition count, and whether this call created it. */
    private record TopicState(int partitions, boolean created) {
    }

    /**
     * Creates the baseline topic when missing and checks its settings. Where the topic exists (a
     * restart) that is one round trip: its description and settings are asked together, and the
     * cluster's size, needed only to create it, rides along. Where it is missing, the settings come
     * back with the CreateTopics response (KIP-525), so only the wait for its leaders follows.
     */
    private TopicState ensureTopic(Runnable whenMissing) throws Exception {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        KafkaFuture<TopicDescription> described = admin.describeTopics(List.of(topic)).topicNameValues().get(topic);
        KafkaFuture<Config> configured = admin.describeConfigs(List.of(resource)).values().get(resource);
        KafkaFuture<Collection<Node>> nodes = admin.describeCluster().nodes();
        Optional<TopicDescription> existing = onBaselineTopic(describeTopic(), () -> present(described));
        if (existing.isPresent()) {
            verifyTopicConfig(onBaselineTopic(aclOnTopic("DescribeConfigs"), () -> topicConfig(configured, resource)));
            return new TopicState(existing.get().partitions().size(), false);
        }
        whenMissing.run();
        Optional<Short> replicas = createdReplicationFactor(nodes);
        Map<String, String> configs = new HashMap<>(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT,
                TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG, "LogAppendTime"));
        // Replicated: an acknowledged baseline record is on two brokers (as the ack ledger's topics).
        replicas.filter(rf -> rf > 1).ifPresent(rf -> configs.put(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, "2"));
        NewTopic newTopic = new NewTopic(topic, Optional.of(baselineTopic.partitionsWhenCreated()), replicas).configs(configs);
        CreateTopicsResult creation = admin.createTopics(List.of(newTopic));
        boolean created = false;
        try {
            onBaselineTopic("Create on topic " + topic + " (or on the cluster), or create the topic beforehand",
                    () -> creation.all().get(timeout.toMillis(), TimeUnit.MILLISECONDS));
            created = true;
            log.info("Created the group baseline topic {} ({} partition(s), replication factor {}, {}compacted, LogAppendTime)", topic,
                    baselineTopic.partitionsWhenCreated(), replicas.map(String::valueOf).orElse("of the broker's default"),
                    configs.containsKey(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG) ? "min.insync.replicas 2, " : "");
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw e;
            }
        }
        log.debug("Group {}: CreateTopics answered (created: {})", group, created);
        existing = onBaselineTopic(describeTopic(), this::awaitBaselineTopic);
        Optional<Config> returned = created ? createdConfig(creation) : Optional.empty();
        verifyTopicConfig(returned.isPresent() ? returned.get()
                : onBaselineTopic(aclOnTopic("DescribeConfigs"), () -> topicConfig(admin.describeConfigs(List.of(resource)).values().get(resource), resource)));
        return new TopicState(existing.orElseThrow().partitions().size(), created);
    }

    /** The topic's settings; asked once more when the first answer predates the topic (created by another member meanwhile). */
    private Config topicConfig(KafkaFuture<Config> first, ConfigResource resource) throws Exception {
        try {
            return first.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                throw e;
            }
            return admin.describeConfigs(List.of(resource)).values().get(resource).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /** The settings the CreateTopics response carried, when it carried the one that matters (it does not without DescribeConfigs). */
    private Optional<Config> createdConfig(CreateTopicsResult creation) throws InterruptedException, TimeoutException {
        try {
            Config config = creation.config(topic).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return config.get(TopicConfig.CLEANUP_POLICY_CONFIG) == null ? Optional.empty() : Optional.of(config);
        } catch (ExecutionException e) {
            return Optional.empty();
        }
    }

    /**
     * As many replicas as the cluster has brokers, up to three (Kafka's own internal topics use
     * three); the broker's default where the cluster cannot be described.
     */
    private Optional<Short> createdReplicationFactor(KafkaFuture<Collection<Node>> nodes) throws Exception {
        try {
            int brokers = nodes.get(timeout.toMillis(), TimeUnit.MILLISECONDS).size();
            return brokers < 1 ? Optional.empty() : Optional.of((short) Math.min(MAX_CREATED_REPLICAS, brokers));
        } catch (ExecutionException e) {
            log.debug("Cannot describe the cluster to choose the replication factor of {}; the broker's default applies", topic, e);
            return Optional.empty();
        }
    }

    /** Waits until a topic just created has a leader for every partition, asking again after 5 ms, 10 ms, ... up to 100 ms. */
    private Optional<TopicDescription> awaitBaselineTopic() throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        KafkaBackoff backoff = new KafkaBackoff(5, 2, 100, 0.2);
        for (long attempt = 0; System.nanoTime() < deadline; attempt++) {
            Optional<TopicDescription> d = describeBaselineTopic();
            if (d.isPresent() && d.get().partitions().stream().allMatch(p -> p.leader() != null)) {
                return d;
            }
            Thread.sleep(backoff.backoff(attempt));
        }
        throw new TimeoutException("baseline topic " + topic + " has no leaders after creation");
    }

    private Optional<TopicDescription> describeBaselineTopic() throws Exception {
        return present(admin.describeTopics(List.of(topic)).topicNameValues().get(topic));
    }

    private Optional<TopicDescription> present(KafkaFuture<TopicDescription> description) throws Exception {
        try {
            return Optional.of(description.get(timeout.toMillis(), TimeUnit.MILLISECONDS));
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                return Optional.empty();
            }
            throw e;
        }
    }

    private void verifyTopicConfig(Config config) {
        ConfigEntry cleanup = config.get(TopicConfig.CLEANUP_POLICY_CONFIG);
        if (cleanup == null || !cleanup.value().contains(TopicConfig.CLEANUP_POLICY_COMPACT)
                || cleanup.value().contains(TopicConfig.CLEANUP_POLICY_DELETE)) {
            throw new BaselineUnavailableException("Group baseline topic " + topic + " has cleanup.policy="
                    + (cleanup == null ? "unknown" : cleanup.value()) + "; it must be compact only, or baselines expire"
                    + " with retention and old partitions would be classified as new");
        }
        ConfigEntry tsType = config.get(TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG);
        if (tsType != null && !"LogAppendTime".equals(tsType.value())) {
            log.warn("Group baseline topic {} has message.timestamp.type={}; group creation times then come from client"
                    + " clocks instead of the broker's (LogAppendTime recommended)", topic, tsType.value());
        }
    }

    private BaselineUnavailableException unavailable(String what, Exception e) {
        Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
        if (cause instanceof BaselineUnavailableException bue) {
            return bue;
        }
        String why = cause instanceof TimeoutException ? "timed out after " + timeout.toMillis() + " ms ("
                + io.gapless.kafka.core.GaplessConsumerConfig.BASELINE_TIMEOUT_MS_CONFIG + ")" : cause.toString();
        return new BaselineUnavailableException("Cannot " + what + " the group baseline of group " + group + " in topic "
                + topic + ": " + why, cause);
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
        closeTimeout = timeout;
        closed = true;
        if (lock.tryLock()) {
            try {
                if (!clientsClosed) {
                    closeClients(timeout);
                }
            } finally {
                lock.unlock();
            }
        }
    }

    private void closeClients(Duration timeout) {
        clientsClosed = true;
        closeQuietly(reader, timeout);
        closeQuietly(producer, timeout);
        closeQuietly(admin, timeout);
    }

    private static void closeQuietly(AutoCloseable c, Duration timeout) {
        if (c == null) {
            return;
        }
        try {
            if (c instanceof KafkaProducer<?, ?> p) {
                p.close(timeout);
            } else if (c instanceof KafkaConsumer<?, ?> k) {
                k.close(org.apache.kafka.clients.consumer.CloseOptions.timeout(timeout));
            } else if (c instanceof Admin a) {
                a.close(timeout);
            } else {
                c.close();
            }
        } catch (Exception e) {
            log.debug("Ignoring failure closing a baseline client", e);
        }
    }
}
