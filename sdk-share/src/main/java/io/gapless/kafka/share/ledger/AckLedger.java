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
package io.gapless.kafka.share.ledger;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.gapless.kafka.core.spi.Authorization;
import io.gapless.kafka.core.spi.ConnectionConfigs;
import io.gapless.kafka.core.spi.MetricDefinition;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DeleteRecordsResult;
import org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.admin.SharePartitionOffsetInfo;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.metrics.Measurable;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.ByteArraySerializer;
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
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * The ack ledger as one client sees it: the ledger topic of each share group (one partition,
 * created and checked on first use, re-checked every few minutes), its read views, snapshots,
 * confirmations, fencing and the {@code bytes-since-snapshot} metric. Helper clients are created
 * on first use, with the connection settings of the client that owns the ledger. Used from one
 * thread at a time.
 *
 * @since 0.1.0
 */
public final class AckLedger implements AutoCloseable {
    public static final String METRIC_GROUP = "gapless-share-ledger";
    private static final MetricDefinition BYTES_SINCE_SNAPSHOT = new MetricDefinition("bytes-since-snapshot", METRIC_GROUP, "gapless.share",
            MetricDefinition.Type.GAUGE, "Ledger entry bytes read from this ack-ledger partition since its last snapshot (KIP-1349's rule).",
            List.of("client-id", "topic", "partition"));
    /** Every metric of {@code TransactionalShareProducer} on the ack ledger, for the generated reference. */
    public static final List<MetricDefinition> METRIC_DEFINITIONS = List.of(BYTES_SINCE_SNAPSHOT);
    private static final Logger log = LoggerFactory.getLogger(AckLedger.class);
    /** How long a checked ledger topic is trusted before its partitions and settings are checked again. */
    private static final Duration RECHECK = Duration.ofMinutes(5);

    private final Map<String, Object> clientConfig;
    private final LedgerSettings settings;
    private final Metrics metrics;
    private final Consumer<SnapshotPhase> snapshotPhases;
    private final Cache<String, Boolean> checkedTopics = Caffeine.newBuilder().expireAfterWrite(RECHECK).build();
    // Once a ledger topic exists it exists; a missing one is looked for again after a while.
    private final Cache<String, Boolean> existing = Caffeine.newBuilder().expireAfterWrite(Duration.ofSeconds(1)).build();
    private Admin admin;
    private LedgerView committed;
    private LedgerView uncommitted;
    private KafkaProducer<byte[], byte[]> snapshotProducer;
    private final Set<TopicPartition> metered = new HashSet<>();

    /**
     * @param clientConfig   the owning client's Kafka settings (only connection and security settings are used)
     * @param clientId       the owning client's id; helper clients derive theirs from it
     * @param metrics        where {@code bytes-since-snapshot} is registered; null for none
     * @param snapshotPhases told when a snapshot reaches a {@link SnapshotPhase} (tests)
     */
    public AckLedger(Map<String, Object> clientConfig, LedgerSettings settings, String clientId, Metrics metrics,
                     Consumer<SnapshotPhase> snapshotPhases) {
        this.clientConfig = new HashMap<>(clientConfig);
        this.clientConfig.put(CommonClientConfigs.CLIENT_ID_CONFIG, clientId);
        this.settings = settings;
        this.metrics = metrics;
        this.snapshotPhases = snapshotPhases;
    }

    /** A helper client's connection settings, with the client id {@code <owner>-<suffix>}. */
    private Map<String, Object> helperConfig(String suffix) {
        return ConnectionConfigs.from(clientConfig, suffix);
    }

    /** The ledger partition of every entry of {@code group} (no I/O). */
    public TopicPartition partitionOf(String group) {
        return partitionOf(settings, group);
    }

    /** The ledger partition that holds {@code group}'s entries under {@code settings} (no I/O). */
    static TopicPartition partitionOf(LedgerSettings settings, String group) {
        return new TopicPartition(settings.topicFor(group), 0);
    }

    /**
     * Makes sure the ledger topic of {@code group} exists and cannot lose or reorder committed
     * entries: creates it on first use, checks it then and every few minutes.
     *
     * @throws IllegalStateException naming the topic and the setting when it is unsafe
     */
    public void ensureSafe(String group) {
        checkedTopics.get(settings.topicFor(group), topic -> {
            LedgerTopic.ensure(admin(), topic, settings);
            existing.put(topic, Boolean.TRUE);
            return Boolean.TRUE;
        });
    }

    /** The ledger topic of {@code group} (no I/O). */
    public String topicOf(String group) {
        return settings.topicFor(group);
    }

    /** The topic id of {@code group}'s ledger topic as the cluster reports it now, or empty when the topic does not exist. */
    public Optional<Uuid> topicId(String group) {
        return LedgerTopic.topicId(admin(), settings.topicFor(group));
    }

    /** Forgets that the ledger topic of {@code group} was checked: the next {@link #ensureSafe} checks it again. */
    public void recheck(String group) {
        checkedTopics.invalidate(settings.topicFor(group));
        existing.invalidate(settings.topicFor(group));
    }

    /** Whether the ledger topic of {@code group} exists (nothing was ever committed for the group otherwise). */
    public boolean exists(String group) {
        String topic = settings.topicFor(group);
        Boolean known = existing.getIfPresent(topic);
        if (known != null) {
            return known;
        }
        boolean exists = LedgerTopic.exists(admin(), topic);
        existing.put(topic, exists);
        return exists;
    }

    public ProducerRecord<byte[], byte[]> entryRecord(TopicPartition partition, String group, LedgerEntry entry) {
        return new ProducerRecord<>(partition.topic(), partition.partition(), group.getBytes(StandardCharsets.UTF_8),
                LedgerCodec.encodeEntry(entry));
    }

    /** The read_committed view: entries whose transaction committed, snapshots and confirmations. */
    public LedgerView committed() {
        if (committed == null) {
            committed = new LedgerView(helperConfig("ledger-committed"), IsolationLevel.READ_COMMITTED);
        }
        return committed;
    }

    /** The read_uncommitted view: every entry written, whatever its transaction's fate. */
    public LedgerView uncommitted() {
        if (uncommitted == null) {
            uncommitted = new LedgerView(helperConfig("ledger-all"), IsolationLevel.READ_UNCOMMITTED);
        }
        return uncommitted;
    }

    /** Registers the bytes-since-snapshot gauge of {@code partition} (once). */
    public void meter(TopicPartition partition) {
        if (metrics == null || !metered.add(partition)) {
            return;
        }
        // The view the commit path reads every time (the committed one is read only when needed).
        LedgerIndex index = uncommitted().index(partition);
        MetricName name = BYTES_SINCE_SNAPSHOT.in(metrics, Map.of("client-id", String.valueOf(clientConfig.get(CommonClientConfigs.CLIENT_ID_CONFIG)),
                "topic", partition.topic(), "partition", Integer.toString(partition.partition())));
        metrics.addMetric(name, (Measurable) (cfg, now) -> index.bytesSinceSnapshot());
    }

    /**
     * Writes a snapshot of ledger partition {@code partition} when the "all" view has read at
     * least the configured bytes since the last one (no I/O otherwise), pruned below the share-partition start
     * offsets and without share-partitions of deleted topics, then deletes the records it covers.
     */
    public void maybeSnapshot(TopicPartition partition, long deadlineNanos) {
        // The trigger is counted on the "all" view, which the commit check has just read up to its
        // own entry: no request unless a snapshot is due (aborted entries count, as log bytes do).
        if (uncommitted().index(partition).bytesSinceSnapshot() < settings.maxBytesBetweenSnapshots()) {
            return;
        }
        LedgerView view = committed();
        view.catchUpToEnd(partition, deadlineNanos);
        LedgerIndex index = view.index(partition);
        long coversBelow = view.position(partition);
        Set<ShareKey> keys = index.keys();
        Set<ShareKey> dead = deadKeys(keys);
        Set<ShareKey> live = new HashSet<>(keys);
        live.removeAll(dead);
        LedgerSnapshot snapshot = index.snapshot(coversBelow, startOffsets(live), dead);
        try {
            long offset = snapshotProducer().send(new ProducerRecord<>(partition.topic(), partition.partition(), null,
                    LedgerCodec.encodeSnapshot(snapshot))).get(timeoutMs(deadlineNanos), TimeUnit.MILLISECONDS).offset();
            snapshotPhases.accept(SnapshotPhase.WRITTEN);
            // Everything below coversBelow is in the snapshot, which sits above it: readers that
            // start at the new log start read a snapshot that covers it before anything they could miss.
            DeleteRecordsResult deleted = admin().deleteRecords(Map.of(partition, RecordsToDelete.beforeOffset(coversBelow)));
            snapshotPhases.accept(SnapshotPhase.DELETE_ISSUED);
            deleted.all().get(timeoutMs(deadlineNanos), TimeUnit.MILLISECONDS);
            log.info("Ack ledger {}: snapshot at offset {} covers offsets below {} ({} ranges kept, {} watermarks, {} dead share-partitions)",
                    partition, offset, coversBelow, snapshot.ranges().values().stream().mapToInt(List::size).sum(),
                    snapshot.watermarks().size(), dead.size());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaException("Interrupted while snapshotting the ack ledger", e);
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            // A failed snapshot only delays pruning; the next commit tries again.
            log.warn("Ack ledger {}: snapshot failed, will retry after the next commit: {}", partition, e.toString());
        }
    }

    /**
     * Writes confirmations outside any transaction (a closing producer's last ones), waiting at
     * most {@code timeout}; a failure only leaves those entries unconfirmed.
     */
    public void writeConfirmations(TopicPartition partition, List<LedgerConfirmation> confirmations, Duration timeout) {
        if (confirmations.isEmpty()) {
            return;
        }
        try {
            snapshotProducer().send(new ProducerRecord<>(partition.topic(), partition.partition(), null,
                    LedgerCodec.encodeConfirmations(confirmations))).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | java.util.concurrent.TimeoutException | KafkaException e) {
            log.warn("Ack ledger {}: could not write {} confirmation(s): {}", partition, confirmations.size(), e.toString());
        }
    }

    /** Share-partitions whose topic no longer exists under that id (deleted, or deleted and re-created). */
    private Set<ShareKey> deadKeys(Set<ShareKey> keys) {
        Set<String> topics = keys.stream().map(ShareKey::topic).collect(Collectors.toSet());
        Set<ShareKey> dead = new HashSet<>();
        if (topics.isEmpty()) {
            return dead;
        }
        Map<String, KafkaFuture<TopicDescription>> futures = admin().describeTopics(topics).topicNameValues();
        Map<String, Optional<Uuid>> current = new HashMap<>();
        for (String topic : topics) {
            try {
                current.put(topic, Optional.of(futures.get(topic).get(30, TimeUnit.SECONDS).topicId()));
            } catch (ExecutionException e) {
                if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                    current.put(topic, Optional.empty());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new KafkaException("Interrupted while describing topics", e);
            } catch (java.util.concurrent.TimeoutException e) {
                log.debug("Cannot describe {}; its share-partitions are kept", topic);
            }
        }
        for (ShareKey key : keys) {
            Optional<Uuid> id = current.get(key.topic());
            if (id != null && (id.isEmpty() || !id.get().equals(key.topicId()))) {
                dead.add(key);
            }
        }
        return dead;
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
                // Only live keys are asked for: the answer (by topic name) is about the current topic id.
                if (info != null && info.startOffset() >= 0) {
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
        } catch (AuthorizationException e) {
            throw Authorization.explain(e, "Write on transactional id " + transactionalId + " (fencing the group member that holds "
                    + "records of this transaction in an open one)", ResourceType.TRANSACTIONAL_ID, transactionalId);
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
