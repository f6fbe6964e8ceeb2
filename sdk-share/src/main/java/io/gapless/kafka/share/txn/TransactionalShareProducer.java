package io.gapless.kafka.share.txn;

import io.gapless.kafka.share.internal.CommitCheck;
import io.gapless.kafka.share.internal.LedgerCommitProtocol;
import io.gapless.kafka.share.internal.NativeShareTransactions;
import io.gapless.kafka.share.internal.ReflectiveNativeShareTransactions;
import io.gapless.kafka.share.internal.ShareAckParticipant;
import io.gapless.kafka.share.internal.ShareParticipants;
import io.gapless.kafka.share.internal.TransactionPhases;
import io.gapless.kafka.share.internal.ledger.AckLedger;
import io.gapless.kafka.share.internal.ledger.LedgerRange;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.InvalidRecordStateException;
import org.apache.kafka.common.errors.InvalidTxnStateException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.metrics.KafkaMetric;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.utils.Utils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * A drop-in transactional {@link Producer} around {@link KafkaProducer} with KIP-1289's
 * {@link #sendShareAcknowledgementsToTransaction(Map, ShareGroupMetadata)}: the acknowledgements
 * of records from a {@link GaplessShareConsumer} (with {@code share.acknowledgement.mode=transactional})
 * commit or abort together with the records this producer sends in the same transaction.
 *
 * <pre>{@code
 * producer.initTransactions();
 * while (running) {
 *     ConsumerRecords<String, String> records = consumer.poll(Duration.ofSeconds(1));
 *     if (records.isEmpty()) continue;
 *     producer.beginTransaction();
 *     try {
 *         for (ConsumerRecord<String, String> r : records) producer.send(transform(r));
 *         producer.sendShareAcknowledgementsToTransaction(
 *                 ShareAcknowledgements.fromRecords(records, AcknowledgeType.ACCEPT), consumer.shareGroupMetadata());
 *         producer.commitTransaction();
 *     } catch (ProducerFencedException fatal) {
 *         throw fatal;                       // close this producer, create a new one
 *     } catch (KafkaException e) {
 *         producer.abortTransaction();       // the records come back
 *     }
 * }
 * }</pre>
 *
 * <p><b>Paths.</b> When kafka-clients has the native API and the broker supports it, calls go to
 * Kafka. Otherwise {@code gapless.share.transactional.fallback} decides: {@code emulate}
 * (default) writes the acknowledgements to the ack ledger in the transaction and acknowledges
 * after the commit, with the ledger check of {@code sdk-share/RATIONALE.md} so that no record is
 * committed twice, even by a holder whose lock expired; {@code at-least-once} acknowledges after
 * the commit without a ledger (a crash in between delivers the records again); {@code fail}
 * throws {@link UnsupportedVersionException} from the constructor.
 *
 * <p>On the emulated path {@link #commitTransaction()} may abort the transaction itself and throw
 * {@link InvalidRecordStateException} when a record it would commit was already committed by
 * another member or redelivered to one; a following {@link #abortTransaction()} is then a no-op.
 * The records' keys and values are serialized by this class, so a custom partitioner sees the
 * serialized key as the key object. Use the producer and its consumer from one thread.
 */
public class TransactionalShareProducer<K, V> implements Producer<K, V> {
    private static final Logger log = LoggerFactory.getLogger(TransactionalShareProducer.class);

    private enum Path { NATIVE, EMULATE, AT_LEAST_ONCE }

    private final Producer<byte[], byte[]> delegate;
    private final Serializer<K> keySerializer;
    private final Serializer<V> valueSerializer;
    private final String transactionalId;
    private final Path path;
    private final NativeShareTransactions nativeSupport;
    private final Metrics sdkMetrics = new Metrics();
    private final AckLedger ledger;
    private final long maxBlockMs;
    private final Map<ShareAckParticipant, Map<TopicIdPartition, List<LedgerRange>>> staged = new LinkedHashMap<>();
    private boolean inTransaction;
    private boolean abortedBySdk;
    private boolean verified;
    private boolean fenced;

    /** Like {@link KafkaProducer#KafkaProducer(Map)}; SDK keys ({@code gapless.*}) are removed first. */
    public TransactionalShareProducer(Map<String, Object> configs) {
        this(configs, null, null);
    }

    /** Like {@link KafkaProducer#KafkaProducer(Map, Serializer, Serializer)}. */
    public TransactionalShareProducer(Map<String, Object> configs, Serializer<K> keySerializer, Serializer<V> valueSerializer) {
        this(configs, keySerializer, valueSerializer, null, null);
    }

    /** Like {@link KafkaProducer#KafkaProducer(Properties)}. */
    public TransactionalShareProducer(Properties properties) {
        this(Utils.propsToMap(properties), null, null);
    }

    /** Like {@link KafkaProducer#KafkaProducer(Properties, Serializer, Serializer)}. */
    public TransactionalShareProducer(Properties properties, Serializer<K> keySerializer, Serializer<V> valueSerializer) {
        this(Utils.propsToMap(properties), keySerializer, valueSerializer);
    }

    /** For tests: wraps {@code delegate} (e.g. Kafka's MockProducer) and injects the native capability. */
    TransactionalShareProducer(Producer<byte[], byte[]> delegate, Map<String, Object> configs, Serializer<K> keySerializer,
                               Serializer<V> valueSerializer, NativeShareTransactions nativeSupport) {
        this(configs, keySerializer, valueSerializer, delegate, nativeSupport);
    }

    @SuppressWarnings("unchecked")
    private TransactionalShareProducer(Map<String, Object> configs, Serializer<K> keySerializer, Serializer<V> valueSerializer,
                                       Producer<byte[], byte[]> injected, NativeShareTransactions injectedNative) {
        Map<String, Object> original = new HashMap<>(configs);
        GaplessShareConfig sdk = new GaplessShareConfig(original);
        Map<String, Object> settings = GaplessShareConfig.withoutSdkKeys(original);
        Object txnId = settings.get(ProducerConfig.TRANSACTIONAL_ID_CONFIG);
        this.transactionalId = txnId == null ? null : txnId.toString();
        this.maxBlockMs = Long.parseLong(String.valueOf(settings.getOrDefault(ProducerConfig.MAX_BLOCK_MS_CONFIG, 60_000)));
        String clientId = String.valueOf(settings.getOrDefault(ProducerConfig.CLIENT_ID_CONFIG,
                "gapless-share-producer-" + (transactionalId == null ? Uuid.randomUuid() : transactionalId)));
        this.nativeSupport = injectedNative != null ? injectedNative
                : new ReflectiveNativeShareTransactions(AckLedger.commonClientConfig(settings));
        this.path = choosePath(sdk, clientId);

        this.keySerializer = keySerializer != null ? keySerializer
                : (Serializer<K>) serializer(settings, ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, true);
        this.valueSerializer = valueSerializer != null ? valueSerializer
                : (Serializer<V>) serializer(settings, ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, false);
        Map<String, Object> raw = new HashMap<>(settings);
        raw.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        raw.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        this.delegate = injected != null ? injected : new KafkaProducer<>(raw);
        this.ledger = path == Path.EMULATE ? new AckLedger(settings, sdk, clientId, sdkMetrics) : null;
    }

    private Path choosePath(GaplessShareConfig sdk, String clientId) {
        if (nativeSupport.clientSupports() && nativeSupport.brokerSupports()) {
            log.info("Producer {}: transactional share acknowledgements are native (KIP-1289)", clientId);
            return Path.NATIVE;
        }
        switch (sdk.fallback()) {
            case GaplessShareConfig.FALLBACK_FAIL:
                throw new UnsupportedVersionException("Transactional share acknowledgements (KIP-1289) are not supported by "
                        + (nativeSupport.clientSupports() ? "the broker" : "kafka-clients on the classpath")
                        + " and " + GaplessShareConfig.FALLBACK_CONFIG + "=fail");
            case GaplessShareConfig.FALLBACK_AT_LEAST_ONCE:
                log.warn("Producer {}: transactional share acknowledgements run at-least-once ({}=at-least-once): "
                        + "records are acknowledged after the commit, a crash in between delivers them again", clientId,
                        GaplessShareConfig.FALLBACK_CONFIG);
                return Path.AT_LEAST_ONCE;
            default:
                log.info("Producer {}: transactional share acknowledgements emulated with the ack ledger {}", clientId, sdk.ledgerTopic());
                return Path.EMULATE;
        }
    }

    private static Serializer<?> serializer(Map<String, Object> settings, String key, boolean isKey) {
        Object value = settings.get(key);
        if (value == null) {
            throw new ConfigException(key, null, "a serializer is required when none is passed to the constructor");
        }
        Serializer<?> s;
        try {
            if (value instanceof Serializer<?> instance) {
                s = instance;
            } else if (value instanceof Class<?> cls) {
                s = (Serializer<?>) Utils.newInstance(cls);
            } else {
                s = Utils.newInstance(value.toString().trim(), Serializer.class);
            }
        } catch (ClassNotFoundException | RuntimeException e) {
            throw new ConfigException(key, value, "cannot instantiate the serializer: " + e);
        }
        s.configure(settings, isKey);
        return s;
    }

    /**
     * Stages share acknowledgements in the current transaction: on commit ACCEPT records are
     * acknowledged and REJECT records archived, on abort all of them come back for redelivery.
     *
     * @param acknowledgements per partition, ranges of offsets the consumer holds from its last poll
     * @param metadata         {@link GaplessShareConsumer#shareGroupMetadata()} of that consumer
     * @throws IllegalStateException       if the producer is not transactional, no transaction is in
     *                                     progress, or the consumer is not in transactional mode
     * @throws InvalidRecordStateException if a type other than ACCEPT or REJECT is used, or the
     *                                     consumer does not hold an offset (nothing is staged then)
     * @throws IllegalArgumentException    if {@code metadata} belongs to no open consumer of this JVM
     * @throws ProducerFencedException     if this producer was fenced
     */
    public void sendShareAcknowledgementsToTransaction(Map<TopicIdPartition, List<AcknowledgementBatch>> acknowledgements,
                                                       ShareGroupMetadata metadata) throws ProducerFencedException {
        Objects.requireNonNull(acknowledgements, "acknowledgements");
        Objects.requireNonNull(metadata, "metadata");
        if (transactionalId == null) {
            throw new IllegalStateException("Share acknowledgements need a transactional producer: set "
                    + ProducerConfig.TRANSACTIONAL_ID_CONFIG);
        }
        if (fenced) {
            throw new ProducerFencedException("Producer with transactional.id " + transactionalId
                    + " was fenced by a newer instance; close it and create a new one");
        }
        if (!inTransaction) {
            throw new IllegalStateException("No transaction in progress: call beginTransaction() before "
                    + "sendShareAcknowledgementsToTransaction()");
        }
        acknowledgements.forEach((tip, batches) -> {
            for (AcknowledgementBatch b : batches) {
                if (b.acknowledgeType() != AcknowledgeType.ACCEPT && b.acknowledgeType() != AcknowledgeType.REJECT) {
                    throw new InvalidRecordStateException("Acknowledge type " + b.acknowledgeType() + " for " + tip.topicPartition()
                            + " offsets " + b.firstOffset() + ".." + b.lastOffset()
                            + " is not allowed in a transaction: only ACCEPT and REJECT are");
                }
            }
        });
        if (path == Path.NATIVE) {
            nativeSupport.sendShareAcknowledgementsToTransaction(delegate, acknowledgements, metadata);
            return;
        }
        ShareAckParticipant participant = ShareParticipants.lookup(metadata);
        Map<TopicIdPartition, List<LedgerRange>> ranges = participant.stage(acknowledgements, transactionalId);
        Map<TopicIdPartition, List<LedgerRange>> mine = staged.computeIfAbsent(participant, p -> new LinkedHashMap<>());
        ranges.forEach((tip, list) -> mine.computeIfAbsent(tip, t -> new java.util.ArrayList<>()).addAll(list));
    }

    /** Same as {@link #sendShareAcknowledgementsToTransaction(Map, ShareGroupMetadata)} with {@code acknowledgements.batches()}. */
    public void sendShareAcknowledgementsToTransaction(ShareAcknowledgements acknowledgements, ShareGroupMetadata metadata)
            throws ProducerFencedException {
        Objects.requireNonNull(acknowledgements, "acknowledgements");
        sendShareAcknowledgementsToTransaction(acknowledgements.batches(), metadata);
    }

    @Override
    public void initTransactions() {
        delegate.initTransactions();
    }

    @Override
    public void beginTransaction() throws ProducerFencedException {
        guardFenced(delegate::beginTransaction);
        inTransaction = true;
        abortedBySdk = false;
        verified = false;
    }

    @Override
    public void sendOffsetsToTransaction(Map<TopicPartition, OffsetAndMetadata> offsets, ConsumerGroupMetadata groupMetadata)
            throws ProducerFencedException {
        delegate.sendOffsetsToTransaction(offsets, groupMetadata);
    }

    /**
     * Commits the transaction, then acknowledges the staged records on their consumer. On the
     * emulated path the ledger check runs first; when it finds a record committed elsewhere or
     * redelivered, this method aborts the transaction, settles those records, releases the rest
     * and throws {@link InvalidRecordStateException}.
     */
    @Override
    public void commitTransaction() throws ProducerFencedException {
        if (staged.isEmpty() || path == Path.NATIVE) {
            guardFenced(delegate::commitTransaction);
            inTransaction = false;
            return;
        }
        if (path == Path.EMULATE && !verified) {
            CommitCheck check;
            try {
                LedgerCommitProtocol protocol = new LedgerCommitProtocol(ledger, delegate, transactionalId);
                check = protocol.writeAndCheck(staged, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(maxBlockMs));
                if (!check.conflict()) {
                    verified = true;
                    TransactionPhases.reached(TransactionPhases.CHECKED);
                    commitAndSettle();
                    snapshotQuietly(protocol);
                    return;
                }
            } catch (ProducerFencedException e) {
                onFenced();
                throw e;
            } catch (KafkaException e) {
                if (fatal(e)) {
                    throw fencedBy(e);
                }
                if (!(e instanceof TimeoutException) || !verified) {
                    abortQuietly(e);
                }
                throw e;
            }
            delegate.abortTransaction();
            inTransaction = false;
            abortedBySdk = true;
            check.onAbort().forEach(ShareAckParticipant::settle);
            staged.clear();
            throw new InvalidRecordStateException("Transaction of transactional.id " + transactionalId
                    + " was aborted by the ack-ledger check: " + check.reason()
                    + ". Records committed elsewhere were acknowledged as recorded, the others released for redelivery.");
        }
        commitAndSettle();
    }

    private void snapshotQuietly(LedgerCommitProtocol protocol) {
        // The transaction is committed; a snapshot problem must not look like a commit failure.
        for (int p : protocol.touchedPartitions()) {
            try {
                ledger.maybeSnapshot(p, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(maxBlockMs));
            } catch (KafkaException e) {
                log.warn("Ack-ledger snapshot of partition {} failed, will retry after a later commit: {}", p, e.toString());
            }
        }
    }

    private void commitAndSettle() {
        try {
            delegate.commitTransaction();
        } catch (ProducerFencedException e) {
            onFenced();
            throw e;
        } catch (TimeoutException e) {
            // Kafka allows retrying commitTransaction() after a timeout; keep the staged records.
            throw e;
        } catch (KafkaException e) {
            if (fatal(e)) {
                throw fencedBy(e);
            }
            releaseStaged();
            throw e;
        }
        inTransaction = false;
        TransactionPhases.reached(TransactionPhases.COMMITTED);
        staged.forEach((participant, ranges) -> participant.settle(outcome(ranges)));
        staged.clear();
        TransactionPhases.reached(TransactionPhases.ACKNOWLEDGED);
    }

    private static Map<TopicIdPartition, Map<Long, AcknowledgeType>> outcome(Map<TopicIdPartition, List<LedgerRange>> ranges) {
        Map<TopicIdPartition, Map<Long, AcknowledgeType>> result = new LinkedHashMap<>();
        ranges.forEach((tip, list) -> {
            Map<Long, AcknowledgeType> byOffset = new LinkedHashMap<>();
            for (LedgerRange r : list) {
                for (long o = r.first(); o <= r.last(); o++) {
                    byOffset.put(o, AcknowledgeType.forId(r.ackType()));
                }
            }
            result.put(tip, byOffset);
        });
        return result;
    }

    /** Aborts the transaction and releases every staged record for redelivery. */
    @Override
    public void abortTransaction() throws ProducerFencedException {
        if (!inTransaction) {
            // Already aborted (by the ledger check or a failed commit): nothing left to undo.
            abortedBySdk = false;
            return;
        }
        try {
            guardFenced(delegate::abortTransaction);
        } finally {
            inTransaction = false;
            releaseStaged();
        }
    }

    private void abortQuietly(KafkaException cause) {
        try {
            delegate.abortTransaction();
            abortedBySdk = true;
        } catch (KafkaException e) {
            cause.addSuppressed(e);
        }
        inTransaction = false;
        releaseStaged();
    }

    private void onFenced() {
        fenced = true;
        inTransaction = false;
        releaseStaged();
    }

    private void releaseStaged() {
        staged.forEach((participant, ranges) -> {
            Map<TopicIdPartition, Map<Long, AcknowledgeType>> release = outcome(ranges);
            release.values().forEach(m -> m.replaceAll((o, t) -> AcknowledgeType.RELEASE));
            try {
                participant.settle(release);
            } catch (RuntimeException e) {
                log.warn("Could not release staged records of {}: {}", participant.metadata(), e.toString());
            }
        });
        staged.clear();
        verified = false;
    }

    private void guardFenced(Runnable call) {
        try {
            call.run();
        } catch (ProducerFencedException e) {
            onFenced();
            throw e;
        } catch (KafkaException e) {
            if (fatal(e)) {
                throw fencedBy(e);
            }
            throw e;
        }
    }

    /**
     * Whether the Kafka producer can no longer run transactions: its epoch was bumped by a newer
     * instance or by the coordinator (InvalidProducerEpochException, InvalidTxnStateException after
     * a fencing abort), possibly wrapped in "we are in an error state".
     */
    private static boolean fatal(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof InvalidProducerEpochException || t instanceof InvalidTxnStateException) {
                return true;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return false;
    }

    /**
     * With transaction version 2 a producer whose epoch was bumped by a newer instance (or by the
     * coordinator) sees InvalidProducerEpochException or InvalidTxnStateException; either way its
     * transaction is gone and it cannot continue, so the SDK reports Kafka's fencing error.
     */
    private ProducerFencedException fencedBy(KafkaException cause) {
        if (cause instanceof ProducerFencedException pfe) {
            onFenced();
            return pfe;
        }
        try {
            delegate.abortTransaction();
        } catch (KafkaException ignored) {
            // Fenced producers cannot abort; the coordinator already aborted the transaction.
        }
        onFenced();
        ProducerFencedException e = new ProducerFencedException("Producer with transactional.id " + transactionalId
                + " was fenced (its epoch is no longer current): " + cause.getMessage());
        e.initCause(cause);
        return e;
    }

    @Override
    public void registerMetricForSubscription(KafkaMetric metric) {
        delegate.registerMetricForSubscription(metric);
    }

    @Override
    public void unregisterMetricFromSubscription(KafkaMetric metric) {
        delegate.unregisterMetricFromSubscription(metric);
    }

    @Override
    public Future<RecordMetadata> send(ProducerRecord<K, V> record) {
        return send(record, null);
    }

    @Override
    public Future<RecordMetadata> send(ProducerRecord<K, V> record, Callback callback) {
        // The record's own headers, as KafkaProducer uses them: serializers may add to them, and no copy per record.
        Headers headers = record.headers();
        byte[] key = keySerializer.serialize(record.topic(), headers, record.key());
        byte[] value = valueSerializer.serialize(record.topic(), headers, record.value());
        return delegate.send(new ProducerRecord<>(record.topic(), record.partition(), record.timestamp(), key, value, headers), callback);
    }

    @Override
    public void flush() {
        delegate.flush();
    }

    @Override
    public List<PartitionInfo> partitionsFor(String topic) {
        return delegate.partitionsFor(topic);
    }

    /** The Kafka producer's metrics plus the SDK's ({@code gapless-share-ledger} group: {@code bytes-since-snapshot}). */
    @Override
    public Map<MetricName, ? extends Metric> metrics() {
        Map<MetricName, Metric> all = new LinkedHashMap<>(delegate.metrics());
        all.putAll(sdkMetrics.metrics());
        return Collections.unmodifiableMap(all);
    }

    @Override
    public Uuid clientInstanceId(Duration timeout) {
        return delegate.clientInstanceId(timeout);
    }

    @Override
    public void close() {
        close(Duration.ofMillis(Long.MAX_VALUE));
    }

    @Override
    public void close(Duration timeout) {
        try {
            delegate.close(timeout);
        } finally {
            if (ledger != null) {
                Utils.closeQuietly(ledger, "ack ledger");
            }
            Utils.closeQuietly(keySerializer, "key serializer");
            Utils.closeQuietly(valueSerializer, "value serializer");
            sdkMetrics.close();
        }
    }
}
