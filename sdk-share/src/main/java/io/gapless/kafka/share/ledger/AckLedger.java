package io.gapless.kafka.share.ledger;

import io.gapless.kafka.core.spi.ConnectionConfigs;
import io.gapless.kafka.core.spi.MetricDefinition;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.admin.SharePartitionOffsetInfo;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
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
 * and the {@code bytes-since-snapshot} metric. Helper clients are created on first use, with the
 * connection settings of the client that owns the ledger. Used from one thread at a time.
 */
public final class AckLedger implements AutoCloseable {
    public static final String METRIC_GROUP = "gapless-share-ledger";
    private static final MetricDefinition BYTES_SINCE_SNAPSHOT = new MetricDefinition("bytes-since-snapshot", METRIC_GROUP, "gapless.share",
            MetricDefinition.Type.GAUGE, "Ledger entry bytes read from this ack-ledger partition since its last snapshot (KIP-1349's rule).",
            List.of("client-id", "topic", "partition"));
    /** Every metric of {@code TransactionalShareProducer} on the ack ledger, for the generated reference. */
    public static final List<MetricDefinition> METRIC_DEFINITIONS = List.of(BYTES_SINCE_SNAPSHOT);
    private static final Logger log = LoggerFactory.getLogger(AckLedger.class);

    private final Map<String, Object> clientConfig;
    private final LedgerSettings settings;
    private final Metrics metrics;
    private Admin admin;
    private LedgerView committed;
    private LedgerView uncommitted;
    private KafkaProducer<byte[], byte[]> snapshotProducer;
    private Integer partitionCount;
    private final Set<Integer> metered = new HashSet<>();

    /**
     * @param clientConfig the owning client's Kafka settings (only connection and security settings are used)
     * @param clientId     the owning client's id; helper clients derive theirs from it
     * @param metrics      where {@code bytes-since-snapshot} is registered; null for none
     */
    public AckLedger(Map<String, Object> clientConfig, LedgerSettings settings, String clientId, Metrics metrics) {
        this.clientConfig = new HashMap<>(clientConfig);
        this.clientConfig.put(CommonClientConfigs.CLIENT_ID_CONFIG, clientId);
        this.settings = settings;
        this.metrics = metrics;
    }

    /** A helper client's connection settings, with the client id {@code <owner>-<suffix>}. */
    private Map<String, Object> helperConfig(String suffix) {
        return ConnectionConfigs.from(clientConfig, suffix);
    }

    public String topic() {
        return settings.topic();
    }

    /** The ledger partition of every entry of {@code group}; creates the ledger topic on first use. */
    public int partitionFor(String group) {
        if (partitionCount == null) {
            partitionCount = LedgerTopic.ensure(admin(), settings);
        }
        return partitionOf(group, partitionCount);
    }

    /** The ledger topic that holds {@code group}'s entries. */
    static String topicOf(LedgerSettings settings, String group) {
        return settings.topic();
    }

    /** The partition of a ledger topic with {@code partitions} partitions that holds {@code group}'s entries. */
    static int partitionOf(String group, int partitions) {
        return Utils.toPositive(Utils.murmur2(group.getBytes(StandardCharsets.UTF_8))) % partitions;
    }

    public ProducerRecord<byte[], byte[]> entryRecord(int partition, String group, LedgerEntry entry) {
        return new ProducerRecord<>(topic(), partition, group.getBytes(StandardCharsets.UTF_8), LedgerCodec.encodeEntry(entry));
    }

    /** The read_committed view: entries whose transaction committed, and snapshots. */
    public LedgerView committed() {
        if (committed == null) {
            committed = new LedgerView(helperConfig("ledger-committed"), topic(), IsolationLevel.READ_COMMITTED);
        }
        return committed;
    }

    /** The read_uncommitted view: every entry written, whatever its transaction's fate. */
    public LedgerView uncommitted() {
        if (uncommitted == null) {
            uncommitted = new LedgerView(helperConfig("ledger-all"), topic(), IsolationLevel.READ_UNCOMMITTED);
        }
        return uncommitted;
    }

    /** Registers the bytes-since-snapshot gauge of {@code partition} (once). */
    public void meter(int partition) {
        if (metrics == null || !metered.add(partition)) {
            return;
        }
        LedgerIndex index = committed().index(partition);
        MetricName name = BYTES_SINCE_SNAPSHOT.in(metrics, Map.of("client-id", String.valueOf(clientConfig.get(CommonClientConfigs.CLIENT_ID_CONFIG)),
                "topic", topic(), "partition", Integer.toString(partition)));
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
        if (index.bytesSinceSnapshot() < settings.maxBytesBetweenSnapshots()) {
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
        Map<String, Object> props = helperConfig("fencer");
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        try (KafkaProducer<byte[], byte[]> fencer = new KafkaProducer<>(props)) {
            fencer.initTransactions();
        }
        log.info("Fenced transactional.id {}: its holder lost records to a newer delivery", transactionalId);
    }

    private Admin admin() {
        if (admin == null) {
            admin = Admin.create(helperConfig("ledger-admin"));
        }
        return admin;
    }

    private KafkaProducer<byte[], byte[]> snapshotProducer() {
        if (snapshotProducer == null) {
            Map<String, Object> props = helperConfig("ledger-snapshots");
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
