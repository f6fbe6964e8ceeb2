package io.gapless.kafka.share;

import io.gapless.kafka.core.internal.ClientIds;
import io.gapless.kafka.share.internal.AdminTopicIdResolver;
import io.gapless.kafka.share.internal.ConsumerTransactionSupport;
import io.gapless.kafka.share.internal.LedgerDedupFilter;
import io.gapless.kafka.share.internal.NativeShareTransactions;
import io.gapless.kafka.share.internal.RecordFilter;
import io.gapless.kafka.share.internal.ReflectiveNativeShareTransactions;
import io.gapless.kafka.share.internal.ShareParticipants;
import io.gapless.kafka.share.internal.TopicIdResolver;
import io.gapless.kafka.share.internal.ledger.AckLedger;
import io.gapless.kafka.share.internal.reset.ShareNewPartitionsReset;
import io.gapless.kafka.share.internal.reset.ShareResetSettings;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.AcknowledgementCommitCallback;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.consumer.ShareConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.apache.kafka.common.metrics.KafkaMetric;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.utils.Utils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;

/**
 * A drop-in {@link ShareConsumer} around {@link KafkaShareConsumer} that adds KIP-1289's
 * {@link #shareGroupMetadata()} and, with {@code share.acknowledgement.mode=transactional},
 * acknowledgements that commit or abort with a {@link TransactionalShareProducer}'s transaction.
 *
 * <p>In transactional mode the Kafka consumer underneath runs in {@code explicit} mode, and:
 * <ul>
 *   <li>records are settled by the producer: on commit they are acknowledged as staged, on abort
 *       released for redelivery;</li>
 *   <li>records of a poll that no transaction staged are released at the next {@code poll()};
 *       polling while records are staged in an open transaction throws
 *       {@link IllegalStateException};</li>
 *   <li>on the emulated path ({@code gapless.share.transactional.fallback=emulate}, the default on
 *       brokers without KIP-1289), a redelivered record whose acknowledgement a committed
 *       transaction already recorded in the ack ledger is acknowledged as recorded and not
 *       returned. First deliveries pay nothing.</li>
 * </ul>
 * Use the consumer and its producer from one thread.
 *
 * <p>With {@code share.auto.offset.reset.new.partitions} (KIP-1327; {@code earliest}, {@code latest}
 * or {@code by_duration:<ISO-8601>}) set next to {@code share.auto.offset.reset}, partitions created
 * after the share group start by the new-partitions policy and the others by the base policy:
 * natively where the broker knows the group config, otherwise emulated (the group's base policy is
 * steered to {@code earliest}, each partition's start offset is chosen once and recorded in the
 * group baseline, and records below it are acknowledged without being returned). See README.
 *
 * <p>Every other method is forwarded unchanged.
 */
public class GaplessShareConsumer<K, V> implements ShareConsumer<K, V> {
    private static final Logger log = LoggerFactory.getLogger(GaplessShareConsumer.class);

    private final ShareConsumer<K, V> delegate;
    private final List<RecordFilter<K, V>> filters = new ArrayList<>();
    private final ShareGroupMetadata metadata;
    private final ConsumerTransactionSupport<K, V> transactions;
    private final List<AutoCloseable> resources = new ArrayList<>();
    private AckLedger ledger;
    private final ShareNewPartitionsReset newPartitionsReset;

    /** Like {@link KafkaShareConsumer#KafkaShareConsumer(Map)}; SDK keys ({@code gapless.*}) are removed first. */
    public GaplessShareConsumer(Map<String, Object> configs) {
        this(configs, null, null);
    }

    /** Like {@link KafkaShareConsumer#KafkaShareConsumer(Properties)}. */
    public GaplessShareConsumer(Properties properties) {
        this(Utils.propsToMap(properties), null, null);
    }

    /** Like {@link KafkaShareConsumer#KafkaShareConsumer(Properties, Deserializer, Deserializer)}. */
    public GaplessShareConsumer(Properties properties, Deserializer<K> keyDeserializer, Deserializer<V> valueDeserializer) {
        this(Utils.propsToMap(properties), keyDeserializer, valueDeserializer);
    }

    /** Like {@link KafkaShareConsumer#KafkaShareConsumer(Map, Deserializer, Deserializer)}. */
    public GaplessShareConsumer(Map<String, Object> configs, Deserializer<K> keyDeserializer, Deserializer<V> valueDeserializer) {
        this(configs, settings -> new KafkaShareConsumer<>(settings, keyDeserializer, valueDeserializer), null, null);
    }

    /** For tests: wraps {@code delegate} (e.g. Kafka's MockShareConsumer); {@code configs} supplies group and SDK settings. */
    GaplessShareConsumer(ShareConsumer<K, V> delegate, Map<String, Object> configs) {
        this(configs, settings -> delegate, null, null);
    }

    /** For tests: also injects the topic-id lookup and the native capability. */
    GaplessShareConsumer(ShareConsumer<K, V> delegate, Map<String, Object> configs, TopicIdResolver topicIds,
                         NativeShareTransactions nativeSupport) {
        this(configs, settings -> delegate, topicIds, nativeSupport);
    }

    private interface DelegateFactory<K, V> {
        ShareConsumer<K, V> create(Map<String, Object> settings);
    }

    private GaplessShareConsumer(Map<String, Object> configs, DelegateFactory<K, V> factory, TopicIdResolver topicIds,
                                 NativeShareTransactions nativeSupport) {
        Map<String, Object> original = new HashMap<>(configs);
        GaplessShareConfig sdk = new GaplessShareConfig(original);
        Map<String, Object> settings = GaplessShareConfig.withoutSdkKeys(original);
        Object mode = settings.get(GaplessShareConfig.ACKNOWLEDGEMENT_MODE_CONFIG);
        boolean transactional = mode != null && GaplessShareConfig.ACKNOWLEDGEMENT_MODE_TRANSACTIONAL.equalsIgnoreCase(mode.toString().trim());
        Object groupId = settings.get(ConsumerConfig.GROUP_ID_CONFIG);
        // Kafka's own client id, pinned on the delegate: its metrics, the SDK's and the helper clients' ids agree.
        String clientId = ClientIds.consumer(settings);
        settings.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        original.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        this.metadata = groupId == null ? null : new ShareGroupMetadata(groupId.toString(), "gapless-" + Uuid.randomUuid(), 0);

        boolean emulate = false;
        if (transactional) {
            if (groupId == null) {
                throw new ConfigException(ConsumerConfig.GROUP_ID_CONFIG, null, "a transactional share consumer needs a group.id");
            }
            NativeShareTransactions nat = nativeSupport != null ? nativeSupport
                    : new ReflectiveNativeShareTransactions(AckLedger.helperConfig(settings, clientId + "-share-probe"));
            boolean nativePath = nat.clientSupports() && nat.brokerSupports();
            if (nativePath) {
                log.info("Share consumer {}: transactional acknowledgements are native (KIP-1289)", clientId);
            } else {
                switch (sdk.fallback()) {
                    case GaplessShareConfig.FALLBACK_FAIL -> throw new UnsupportedVersionException(
                            "Transactional share acknowledgements (KIP-1289) are not supported by this kafka-clients/broker and "
                                    + GaplessShareConfig.FALLBACK_CONFIG + "=fail");
                    case GaplessShareConfig.FALLBACK_AT_LEAST_ONCE -> {
                        log.warn("Share consumer {}: transactional acknowledgements run at-least-once ({}=at-least-once): "
                                + "a crash after a commit delivers its records again", clientId, GaplessShareConfig.FALLBACK_CONFIG);
                        settings.put(GaplessShareConfig.ACKNOWLEDGEMENT_MODE_CONFIG, "explicit");
                    }
                    default -> {
                        log.info("Share consumer {}: transactional acknowledgements emulated with the ack ledger {}",
                                clientId, sdk.ledgerTopic());
                        settings.put(GaplessShareConfig.ACKNOWLEDGEMENT_MODE_CONFIG, "explicit");
                        emulate = true;
                    }
                }
            }
            transactional = !nativePath;
        }
        // KIP-1327 for share groups: configured on the consumer, kept from the Kafka client underneath.
        settings.keySet().removeIf(ShareResetSettings::isResetKey);
        boolean explicitAcks = "explicit".equalsIgnoreCase(String.valueOf(settings.get(GaplessShareConfig.ACKNOWLEDGEMENT_MODE_CONFIG)).trim());
        this.newPartitionsReset = ShareNewPartitionsReset.create(original, groupId == null ? null : groupId.toString(), clientId, explicitAcks)
                .orElse(null);
        try {
            this.delegate = factory.create(settings);
        } catch (RuntimeException e) {
            if (newPartitionsReset != null) {
                newPartitionsReset.close();
            }
            throw e;
        }
        if (newPartitionsReset != null) {
            resources.add(newPartitionsReset);
            ShareNewPartitionsReset reset = newPartitionsReset;
            filters.add(reset::filter); // first: records below a partition's start never reach the later stages
        }
        if (transactional) {
            TopicIdResolver ids = topicIds;
            if (ids == null) {
                AdminTopicIdResolver resolver = new AdminTopicIdResolver(AckLedger.commonClientConfig(settings), clientId);
                resources.add(resolver);
                ids = resolver;
            }
            this.transactions = new ConsumerTransactionSupport<>(delegate, metadata, ids);
            if (emulate) {
                Map<String, Object> ledgerConfig = settings;
                String group = metadata.groupId();
                filters.add(new LedgerDedupFilter<>(group, () -> ledger(ledgerConfig, sdk, clientId), ids));
            }
            ShareParticipants.register(transactions);
        } else {
            this.transactions = null;
        }
    }

    private AckLedger ledger(Map<String, Object> settings, GaplessShareConfig sdk, String clientId) {
        if (ledger == null) {
            ledger = new AckLedger(settings, sdk, clientId, null);
        }
        return ledger;
    }

    /** Adds a stage to the poll path (internal: used by SDK features that filter records). */
    void addRecordFilter(RecordFilter<K, V> filter) {
        filters.add(filter);
    }

    /**
     * This consumer's share-group identity for
     * {@link TransactionalShareProducer#sendShareAcknowledgementsToTransaction(Map, ShareGroupMetadata)}.
     * Immutable; the member id is assigned by the SDK per consumer instance.
     *
     * @throws IllegalStateException if the consumer has no {@code group.id}
     */
    public ShareGroupMetadata shareGroupMetadata() {
        if (metadata == null) {
            throw new IllegalStateException("This share consumer has no group.id");
        }
        return metadata;
    }

    @Override
    public ConsumerRecords<K, V> poll(Duration timeout) {
        if (transactions != null) {
            transactions.beforePoll();
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            if (newPartitionsReset != null) {
                newPartitionsReset.beforePoll();
            }
            long remaining = Math.max(0, deadline - System.nanoTime());
            ConsumerRecords<K, V> polled = delegate.poll(Duration.ofNanos(remaining));
            ConsumerRecords<K, V> records = polled;
            for (RecordFilter<K, V> filter : filters) {
                records = filter.apply(records, delegate);
            }
            // Everything filtered out: poll again within the caller's timeout (acks ride along).
            if (!records.isEmpty() || polled.isEmpty() || deadline - System.nanoTime() <= 0) {
                if (transactions != null) {
                    transactions.hold(records);
                }
                return records;
            }
        }
    }

    @Override
    public Set<String> subscription() {
        return delegate.subscription();
    }

    @Override
    public void subscribe(Collection<String> topics) {
        delegate.subscribe(topics);
        if (newPartitionsReset != null) {
            newPartitionsReset.subscribed(topics);
        }
    }

    @Override
    public void unsubscribe() {
        delegate.unsubscribe();
        if (newPartitionsReset != null) {
            newPartitionsReset.subscribed(List.of());
        }
    }

    @Override
    public void acknowledge(ConsumerRecord<K, V> record) {
        delegate.acknowledge(record);
        if (transactions != null) {
            transactions.forget(record);
        }
    }

    @Override
    public void acknowledge(ConsumerRecord<K, V> record, AcknowledgeType type) {
        delegate.acknowledge(record, type);
        if (transactions != null) {
            transactions.forget(record);
        }
    }

    @Override
    public void acknowledge(String topic, int partition, long offset, AcknowledgeType type) {
        delegate.acknowledge(topic, partition, offset, type);
    }

    @Override
    public Map<TopicIdPartition, Optional<KafkaException>> commitSync() {
        return delegate.commitSync();
    }

    @Override
    public Map<TopicIdPartition, Optional<KafkaException>> commitSync(Duration timeout) {
        return delegate.commitSync(timeout);
    }

    @Override
    public void commitAsync() {
        delegate.commitAsync();
    }

    @Override
    public void setAcknowledgementCommitCallback(AcknowledgementCommitCallback callback) {
        delegate.setAcknowledgementCommitCallback(callback);
    }

    @Override
    public Uuid clientInstanceId(Duration timeout) {
        return delegate.clientInstanceId(timeout);
    }

    @Override
    public Optional<Integer> acquisitionLockTimeoutMs() {
        return delegate.acquisitionLockTimeoutMs();
    }

    @Override
    public Map<MetricName, ? extends Metric> metrics() {
        if (newPartitionsReset == null) {
            return delegate.metrics();
        }
        Map<MetricName, Metric> all = new HashMap<>(delegate.metrics());
        all.putAll(newPartitionsReset.metrics());
        return java.util.Collections.unmodifiableMap(all);
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
    public void close() {
        try {
            delegate.close();
        } finally {
            closeResources();
        }
    }

    @Override
    public void close(Duration timeout) {
        try {
            delegate.close(timeout);
        } finally {
            closeResources();
        }
    }

    private void closeResources() {
        if (transactions != null) {
            ShareParticipants.unregister(transactions);
        }
        if (ledger != null) {
            resources.add(ledger);
        }
        for (AutoCloseable r : resources) {
            Utils.closeQuietly(r, "gapless share consumer resource");
        }
        resources.clear();
    }

    @Override
    public void wakeup() {
        delegate.wakeup();
    }
}
