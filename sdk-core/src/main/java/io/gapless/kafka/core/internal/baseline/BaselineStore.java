package io.gapless.kafka.core.internal.baseline;

import io.gapless.kafka.core.BaselineUnavailableException;
import io.gapless.kafka.core.internal.ConnectionConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
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
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Kafka I/O for one group's baseline: the compacted baseline topic (created on first use), the
 * group's partition of it, and the facts about user topics that classification needs. Owned by
 * one consumer; its methods hold the store's monitor so that the consumer can warm it up in the
 * background while it joins its group.
 */
public final class BaselineStore implements AutoCloseable, io.gapless.kafka.core.internal.PolicyOffsets.Lookup {
    private static final Logger log = LoggerFactory.getLogger(BaselineStore.class);
    /** Partitions of a baseline topic the SDK creates; a group's records all go to one of them. */
    static final int CREATED_PARTITIONS = 4;

    private final String topic;
    private final String group;
    private final Map<String, Object> connection;
    private final Duration timeout;
    private final Runnable onRead;
    private final Runnable onWrite;
    private final GroupType groupType;

    private Admin admin;
    private KafkaProducer<byte[], byte[]> producer;
    private KafkaConsumer<byte[], byte[]> reader;
    private TopicPartition groupPartition;
    private GroupBaseline baseline;

    /**
     * @param connection the user's connection settings (see {@code ConnectionConfigs})
     * @param onRead     counts baseline reads, for metrics
     * @param onWrite    counts baseline writes, for metrics
     */
    public BaselineStore(String topic, String group, Map<String, Object> connection, Duration timeout,
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

    public BaselineStore(String topic, String group, GroupType groupType, Map<String, Object> connection, Duration timeout,
                         Runnable onRead, Runnable onWrite) {
        this.groupType = groupType;
        this.topic = topic;
        this.group = group;
        this.connection = connection;
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

    /**
     * Opens the clients, creates or checks the topic and reads the group's records, so that the
     * first assignment pays only for what is left. Failures are left for the real call to report.
     */
    public synchronized void warmUp() {
        try {
            read();
            producer.partitionsFor(topic);
        } catch (RuntimeException e) {
            log.debug("Warming up the baseline of group {} failed; the first real use reports it", group, e);
        }
    }

    /** Reads the group's partition from where the last read stopped up to its current end. */
    public synchronized GroupBaseline read() {
        try {
            ensureOpen();
            long end = reader.endOffsets(List.of(groupPartition), timeout).get(groupPartition);
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
        } catch (BaselineUnavailableException e) {
            throw e;
        } catch (Exception e) {
            throw unavailable("read", e);
        }
    }

    /** Appends records to the group's partition and waits until they are acknowledged by all in-sync replicas. */
    public synchronized void append(List<BaselineRecord> records) {
        try {
            ensureOpen();
            List<Future<?>> sends = new ArrayList<>();
            for (BaselineRecord r : records) {
                sends.add(producer.send(new ProducerRecord<>(topic, groupPartition.partition(), BaselineRecord.key(r), BaselineRecord.value(r))));
            }
            for (Future<?> f : sends) {
                f.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            }
            onWrite.run();
        } catch (BaselineUnavailableException e) {
            throw e;
        } catch (Exception e) {
            throw unavailable("write", e);
        }
    }

    /** Current id and partition count of user topics; topics that do not exist are left out. */
    public synchronized Map<String, TopicDescription> describeTopics(Collection<String> topics) {
        try {
            ensureAdmin();
            Map<String, TopicDescription> out = new HashMap<>();
            var result = admin.describeTopics(topics).topicNameValues();
            for (Map.Entry<String, org.apache.kafka.common.KafkaFuture<TopicDescription>> e : result.entrySet()) {
                try {
                    out.put(e.getKey(), e.getValue().get(timeout.toMillis(), TimeUnit.MILLISECONDS));
                } catch (ExecutionException ex) {
                    if (!(ex.getCause() instanceof UnknownTopicOrPartitionException)) {
                        throw ex;
                    }
                }
            }
            return out;
        } catch (Exception e) {
            throw unavailable("describe topics " + topics + " for", e);
        }
    }

    /**
     * Whether the group already made progress before it used the SDK (KIP-1327's upgrade rule):
     * committed offsets for a consumer group, initialized start offsets for a share group.
     */
    public synchronized boolean groupHasCommittedOffsets() {
        try {
            ensureAdmin();
            if (groupType == GroupType.SHARE) {
                return admin.listShareGroupOffsets(Map.of(group, new org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec()))
                        .partitionsToOffsetInfo(group).get(timeout.toMillis(), TimeUnit.MILLISECONDS)
                        .values().stream().anyMatch(java.util.Objects::nonNull);
            }
            return !admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata()
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS).isEmpty();
        } catch (Exception e) {
            throw unavailable("list committed offsets of group " + group + " for", e);
        }
    }

    /**
     * Whether {@code partition} holds no record older than {@code timeMs}: empty, or its first
     * record at or after that time is its first record.
     */
    public synchronized Map<TopicPartition, Boolean> noRecordBefore(Collection<TopicPartition> partitions, long timeMs) {
        try {
            ensureOpen();
            Map<TopicPartition, Long> query = new HashMap<>();
            partitions.forEach(tp -> query.put(tp, timeMs));
            Map<TopicPartition, OffsetAndTimestamp> found = reader.offsetsForTimes(query, timeout);
            Map<TopicPartition, Long> begin = reader.beginningOffsets(partitions, timeout);
            Map<TopicPartition, Long> end = reader.endOffsets(partitions, timeout);
            Map<TopicPartition, Boolean> out = new HashMap<>();
            for (TopicPartition tp : partitions) {
                long b = begin.get(tp);
                OffsetAndTimestamp at = found.get(tp);
                boolean empty = b >= end.get(tp);
                out.put(tp, empty || (at != null && at.offset() <= b));
            }
            return out;
        } catch (Exception e) {
            throw unavailable("look up record times of " + partitions + " for", e);
        }
    }

    /** Log start offsets, for policies that resolve to {@code earliest}. */
    @Override
    public synchronized Map<TopicPartition, Long> beginningOffsets(Collection<TopicPartition> partitions) {
        try {
            ensureOpen();
            return reader.beginningOffsets(partitions, timeout);
        } catch (Exception e) {
            throw unavailable("look up start offsets of " + partitions + " for", e);
        }
    }

    /** Log end offsets, for policies that resolve to {@code latest}. */
    @Override
    public synchronized Map<TopicPartition, Long> endOffsets(Collection<TopicPartition> partitions) {
        try {
            ensureOpen();
            return reader.endOffsets(partitions, timeout);
        } catch (Exception e) {
            throw unavailable("look up end offsets of " + partitions + " for", e);
        }
    }

    /** The first offset at or after {@code timeMs} per partition; absent where no record is that recent. */
    @Override
    public synchronized Map<TopicPartition, OffsetAndTimestamp> offsetsForTimes(Map<TopicPartition, Long> times) {
        try {
            ensureOpen();
            return reader.offsetsForTimes(times, timeout);
        } catch (Exception e) {
            throw unavailable("look up offsets by time of " + times.keySet() + " for", e);
        }
    }

    private void ensureAdmin() {
        if (admin == null) {
            admin = Admin.create(ConnectionConfigs.withClientIdSuffix(connection, "admin"));
        }
    }

    private void ensureOpen() throws Exception {
        if (reader != null) {
            return;
        }
        ensureAdmin();
        int partitions = ensureTopic();
        groupPartition = new TopicPartition(topic, Utils.toPositive(Utils.murmur2(group.getBytes(StandardCharsets.UTF_8))) % partitions);
        Map<String, Object> p = ConnectionConfigs.withClientIdSuffix(connection, "producer");
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
        Map<String, Object> c = ConnectionConfigs.withClientIdSuffix(connection, "reader");
        c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted");
        // The reader only reads up to a known end offset: a long-polling fetch in flight would delay the next read.
        c.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 10);
        reader = new KafkaConsumer<>(c, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        reader.assign(List.of(groupPartition));
        reader.seekToBeginning(List.of(groupPartition));
        log.debug("Group {} keeps its baseline in {}", group, groupPartition);
    }

    /** Creates the baseline topic when missing and checks its settings; returns its partition count. */
    private int ensureTopic() throws Exception {
        Optional<TopicDescription> existing = describeBaselineTopic();
        if (existing.isEmpty()) {
            NewTopic newTopic = new NewTopic(topic, Optional.of(CREATED_PARTITIONS), Optional.empty()).configs(Map.of(
                    TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT,
                    TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG, "LogAppendTime"));
            try {
                admin.createTopics(List.of(newTopic)).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
                log.info("Created the group baseline topic {} ({} partitions, compacted, LogAppendTime)", topic, CREATED_PARTITIONS);
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof TopicExistsException)) {
                    throw e;
                }
            }
            existing = awaitBaselineTopic();
        }
        verifyTopicConfig();
        return existing.orElseThrow().partitions().size();
    }

    private Optional<TopicDescription> awaitBaselineTopic() throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            Optional<TopicDescription> d = describeBaselineTopic();
            if (d.isPresent() && d.get().partitions().stream().allMatch(p -> p.leader() != null)) {
                return d;
            }
            Thread.sleep(50);
        }
        throw new TimeoutException("baseline topic " + topic + " has no leaders after creation");
    }

    private Optional<TopicDescription> describeBaselineTopic() throws Exception {
        try {
            return Optional.of(admin.describeTopics(List.of(topic)).allTopicNames()
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS).get(topic));
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                return Optional.empty();
            }
            throw e;
        }
    }

    private void verifyTopicConfig() throws Exception {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        Config config = admin.describeConfigs(List.of(resource)).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS).get(resource);
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
        return new BaselineUnavailableException("Cannot " + what + " the group baseline of group " + group + " in topic "
                + topic + ": " + cause, cause);
    }

    @Override
    public synchronized void close() {
        closeQuietly(reader);
        closeQuietly(producer);
        closeQuietly(admin);
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c == null) {
            return;
        }
        try {
            if (c instanceof KafkaProducer<?, ?> p) {
                p.close(Duration.ofSeconds(5));
            } else {
                c.close();
            }
        } catch (Exception e) {
            log.debug("Ignoring failure closing a baseline client", e);
        }
    }
}
