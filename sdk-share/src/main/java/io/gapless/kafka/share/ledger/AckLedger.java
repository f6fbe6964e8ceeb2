package io.gapless.kafka.share.ledger;

import io.gapless.kafka.share.GaplessShareConfig;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.admin.SharePartitionOffsetInfo;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.metrics.Measurable;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.utils.Utils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * The ack-ledger topic as one client sees it: its partitioning (one group, one ledger partition,
 * so all entries of a share-partition are totally ordered), its read views, snapshots, fencing
 * and the {@code bytes-since-snapshot} metric. Used from one thread at a time.
 */
public final class AckLedger implements AutoCloseable {
    public static final String METRIC_GROUP = "gapless-share-ledger";
    private static final Logger log = LoggerFactory.getLogger(AckLedger.class);

    private final Map<String, Object> commonConfig;
    private final GaplessShareConfig config;
    private final String clientId;
    private final Metrics metrics;
    private Admin admin;
    private LedgerView committed;
    private LedgerView uncommitted;
    private KafkaProducer<byte[], byte[]> snapshotProducer;
    private Integer partitionCount;
    private final Set<Integer> metered = new HashSet<>();

    public AckLedger(Map<String, Object> clientConfig, GaplessShareConfig config, String clientId, Metrics metrics) {
        this.commonConfig = commonClientConfig(clientConfig);
        this.config = config;
        this.clientId = clientId;
        this.metrics = metrics;
    }

    /** Client settings every Kafka client accepts (bootstrap, security, timeouts), from any client's config. */
    public static Map<String, Object> commonClientConfig(Map<String, Object> clientConfig) {
        Set<String> common = new HashSet<>(ConsumerConfig.configNames());
        common.retainAll(ProducerConfig.configNames());
        common.retainAll(AdminClientConfig.configNames());
        common.remove(ConsumerConfig.CLIENT_ID_CONFIG);
        return clientConfig.entrySet().stream().filter(e -> common.contains(e.getKey()) && e.getValue() != null)
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }

    public String topic() {
        return config.ledgerTopic();
    }

    /** The ledger partition of every entry of {@code group}; creates the ledger topic on first use. */
    public int partitionFor(String group) {
        if (partitionCount == null) {
            partitionCount = ensureTopic();
        }
        return Utils.toPositive(Utils.murmur2(group.getBytes(StandardCharsets.UTF_8))) % partitionCount;
    }

    public ProducerRecord<byte[], byte[]> entryRecord(int partition, String group, LedgerEntry entry) {
        return new ProducerRecord<>(topic(), partition, group.getBytes(StandardCharsets.UTF_8), LedgerCodec.encodeEntry(entry));
    }

    /** The read_committed view: entries whose transaction committed, and snapshots. */
    public LedgerView committed() {
        if (committed == null) {
            committed = new LedgerView(commonConfig, topic(), IsolationLevel.READ_COMMITTED, clientId + "-ledger-committed");
        }
        return committed;
    }

    /** The read_uncommitted view: every entry written, whatever its transaction's fate. */
    public LedgerView uncommitted() {
        if (uncommitted == null) {
            uncommitted = new LedgerView(commonConfig, topic(), IsolationLevel.READ_UNCOMMITTED, clientId + "-ledger-all");
        }
        return uncommitted;
    }

    /** Registers the bytes-since-snapshot gauge of {@code partition} (once). */
    public void meter(int partition) {
        if (metrics == null || !metered.add(partition)) {
            return;
        }
        LedgerIndex index = committed().index(partition);
        MetricName name = metrics.metricName("bytes-since-snapshot", METRIC_GROUP,
                "Ledger entry bytes read from this ack-ledger partition since its last snapshot (KIP-1349's rule).",
                Map.of("topic", topic(), "partition", Integer.toString(partition)));
        metrics.addMetric(name, (Measurable) (cfg, now) -> index.bytesSinceSnapshot());
    }

    /**
     * Writes a snapshot of ledger partition {@code partition} when the committed view has read at
     * least the configured bytes since the last one, pruned below the share-partition start
     * offsets, then deletes the records it covers.
     */
    public void maybeSnapshot(int partition, long deadlineNanos) {
        LedgerView view = committed();
        view.catchUpToEnd(partition, deadlineNanos);
        LedgerIndex index = view.index(partition);
        if (index.bytesSinceSnapshot() < config.maxBytesBetweenSnapshots()) {
            return;
        }
        long coversBelow = view.position(partition);
        LedgerSnapshot snapshot = index.snapshot(coversBelow, startOffsets(index.keys()));
        try {
            long offset = snapshotProducer().send(new ProducerRecord<>(topic(), partition, null, LedgerCodec.encodeSnapshot(snapshot)))
                    .get(timeoutMs(deadlineNanos), TimeUnit.MILLISECONDS).offset();
            // Everything below coversBelow is in the snapshot, which sits above it: readers that
            // start at the new log start read the snapshot before anything they could miss.
            admin().deleteRecords(Map.of(new TopicPartition(topic(), partition), RecordsToDelete.beforeOffset(coversBelow)))
                    .all().get(timeoutMs(deadlineNanos), TimeUnit.MILLISECONDS);
            log.info("Ack ledger {}-{}: snapshot at offset {} covers offsets below {} ({} ranges kept, {} share-partitions pruned)",
                    topic(), partition, offset, coversBelow, snapshot.ranges().values().stream().mapToInt(List::size).sum(),
                    snapshot.watermarks().size());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaException("Interrupted while snapshotting the ack ledger", e);
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            // A failed snapshot only delays pruning; the next commit tries again.
            log.warn("Ack ledger {}-{}: snapshot failed, will retry after the next commit: {}", topic(), partition, e.toString());
        }
    }

    /** Share-partition start offsets: every offset below is acknowledged or archived for good. */
    private Map<ShareKey, Long> startOffsets(Set<ShareKey> keys) {
        Map<String, ListShareGroupOffsetsSpec> specs = new HashMap<>();
        keys.stream().collect(Collectors.groupingBy(ShareKey::group)).forEach((group, list) -> specs.put(group,
                new ListShareGroupOffsetsSpec().topicPartitions(list.stream()
                        .map(k -> new TopicPartition(k.topic(), k.partition())).collect(Collectors.toSet()))));
        Map<ShareKey, Long> result = new HashMap<>();
        if (specs.isEmpty()) {
            return result;
        }
        try {
            Map<String, Map<TopicPartition, SharePartitionOffsetInfo>> all = admin().listShareGroupOffsets(specs).all().get(30, TimeUnit.SECONDS);
            for (ShareKey key : keys) {
                SharePartitionOffsetInfo info = Optional.ofNullable(all.get(key.group()))
                        .map(m -> m.get(new TopicPartition(key.topic(), key.partition()))).orElse(null);
                // The topic id is not in the answer: a topic re-created under the same name keeps
                // its old ledger ranges until their own keys are pruned by a later snapshot.
                if (info != null && info.startOffset() >= 0 && currentTopicId(key)) {
                    result.put(key, info.startOffset());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaException("Interrupted while listing share-group offsets", e);
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            log.warn("Cannot list share-group start offsets; snapshot without pruning: {}", e.toString());
        }
        return result;
    }

    private boolean currentTopicId(ShareKey key) {
        try {
            return admin().describeTopics(List.of(key.topic())).allTopicNames().get(30, TimeUnit.SECONDS)
                    .get(key.topic()).topicId().equals(key.topicId());
        } catch (Exception e) {
            return false;
        }
    }

    /**
     * Makes every earlier producer with {@code transactionalId} unable to commit, and resolves its
     * open transaction (aborted, or completed if it was already committing).
     */
    public void fence(String transactionalId) {
        Map<String, Object> props = new HashMap<>(commonConfig);
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        props.put(ProducerConfig.CLIENT_ID_CONFIG, clientId + "-fencer");
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        try (KafkaProducer<byte[], byte[]> fencer = new KafkaProducer<>(props)) {
            fencer.initTransactions();
        }
        log.info("Fenced transactional.id {}: its holder lost records to a newer delivery", transactionalId);
    }

    private int ensureTopic() {
        NewTopic topic = new NewTopic(topic(), Optional.of(config.ledgerPartitions()),
                config.ledgerReplicationFactor() == -1 ? Optional.empty() : Optional.of(config.ledgerReplicationFactor()))
                .configs(Map.of("cleanup.policy", "delete", "retention.ms", "-1", "retention.bytes", "-1"));
        try {
            admin().createTopics(List.of(topic)).all().get(30, TimeUnit.SECONDS);
            log.info("Created ack-ledger topic {} with {} partition(s)", topic(), config.ledgerPartitions());
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new KafkaException("Cannot create the ack-ledger topic " + topic(), e.getCause());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaException("Interrupted while creating the ack-ledger topic", e);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new org.apache.kafka.common.errors.TimeoutException("Timed out creating the ack-ledger topic " + topic(), e);
        }
        // Metadata of a topic just created reaches every broker a little later: retry until its
        // partitions have leaders, so the first transaction does not start on a missing partition.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try {
                List<org.apache.kafka.common.TopicPartitionInfo> partitions = admin().describeTopics(List.of(topic())).allTopicNames()
                        .get(30, TimeUnit.SECONDS).get(topic()).partitions();
                if (partitions.stream().allMatch(p -> p.leader() != null && !p.leader().isEmpty())) {
                    if (partitions.size() != config.ledgerPartitions()) {
                        log.info("Ack-ledger topic {} has {} partitions (configured {}); using {}", topic(), partitions.size(),
                                config.ledgerPartitions(), partitions.size());
                    }
                    return partitions.size();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new KafkaException("Interrupted while describing the ack-ledger topic", e);
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof org.apache.kafka.common.errors.RetriableException) || System.nanoTime() > deadline) {
                    throw new KafkaException("Cannot describe the ack-ledger topic " + topic(), e.getCause());
                }
            } catch (java.util.concurrent.TimeoutException e) {
                throw new org.apache.kafka.common.errors.TimeoutException("Timed out describing the ack-ledger topic " + topic(), e);
            }
            if (System.nanoTime() > deadline) {
                throw new org.apache.kafka.common.errors.TimeoutException("Ack-ledger topic " + topic() + " has partitions without a leader");
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new KafkaException("Interrupted while waiting for the ack-ledger topic", e);
            }
        }
    }

    private Admin admin() {
        if (admin == null) {
            Map<String, Object> props = new HashMap<>(commonConfig);
            props.put(AdminClientConfig.CLIENT_ID_CONFIG, clientId + "-ledger-admin");
            admin = Admin.create(props);
        }
        return admin;
    }

    private KafkaProducer<byte[], byte[]> snapshotProducer() {
        if (snapshotProducer == null) {
            Map<String, Object> props = new HashMap<>(commonConfig);
            props.put(ProducerConfig.CLIENT_ID_CONFIG, clientId + "-ledger-snapshots");
            props.put(ProducerConfig.ACKS_CONFIG, "all");
            props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
            props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
            props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
            snapshotProducer = new KafkaProducer<>(props);
        }
        return snapshotProducer;
    }

    private static long timeoutMs(long deadlineNanos) {
        return Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime()));
    }

    @Override
    public void close() {
        Duration t = Duration.ofSeconds(5);
        if (committed != null) {
            committed.close();
        }
        if (uncommitted != null) {
            uncommitted.close();
        }
        if (snapshotProducer != null) {
            snapshotProducer.close(t);
        }
        if (admin != null) {
            admin.close(t);
        }
    }
}
