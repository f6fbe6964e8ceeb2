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
package io.gapless.kafka.share.txn;

import io.gapless.kafka.core.spi.ClientCompatibility;
import io.gapless.kafka.core.spi.ClientIds;
import io.gapless.kafka.share.ledger.AckLedger;
import io.gapless.kafka.share.ledger.SnapshotPhase;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.errors.InvalidRecordStateException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.apache.kafka.common.metrics.JmxReporter;
import org.apache.kafka.common.metrics.KafkaMetricsContext;
import org.apache.kafka.common.metrics.MetricConfig;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.common.utils.Utils;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * A drop-in transactional {@link Producer} around {@link KafkaProducer} with KIP-1289's
 * {@link #sendShareAcknowledgementsToTransaction(Map, ShareGroupMetadata)}: the acknowledgements
 * of records from a {@code GaplessShareConsumer} (with {@code share.acknowledgement.mode=transactional})
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
 * {@code send} is {@code KafkaProducer.send}: the serializers and a custom partitioner run inside
 * Kafka's producer, with the application's key object. Use the producer and its consumer from one thread.
 *
 * <p>Built from parts: {@link TransactionalShareProducerConfig} (settings), {@link AckPath} (the
 * path, chosen once), a transaction state machine per path and {@link ForwardingProducer} (every
 * method without a feature, {@code send} included). Only the transaction methods, {@code metrics}
 * and {@code close} are overridden here.
 *
 * @since 0.1.0
 */
public class TransactionalShareProducer<K, V> extends ForwardingProducer<K, V> {
    // One Kafka producer, seen twice: typed for the application, and as bytes for the ledger entries in its transactions.
    private final Producer<K, V> application;
    private final Producer<byte[], byte[]> delegate;
    // Reported to JMX too (under gapless.share), tagged with the Kafka producer's own client id.
    private final Metrics sdkMetrics = new Metrics(new MetricConfig(), List.of(new JmxReporter()), Time.SYSTEM,
            new KafkaMetricsContext("gapless.share"));
    private final ShareTransaction transaction;
    private final ShareTransaction.LedgerCheck ledgerCheck;
    private final AckModeRegistry modes;

    /**
     * Like {@link KafkaProducer#KafkaProducer(Map)}; SDK keys ({@code gapless.*}) are removed first.
     *
     * @throws org.apache.kafka.common.config.ConfigException if a setting is invalid, naming the key and the value
     * @throws org.apache.kafka.common.errors.UnsupportedVersionException if transactional acknowledgements cannot run and
     *         {@code gapless.share.transactional.fallback=fail}
     * @throws io.gapless.kafka.core.UnsupportedClientVersionException if the kafka-clients on the classpath is older than 4.2
     * @throws org.apache.kafka.common.KafkaException if the Kafka producer cannot be created, as {@code KafkaProducer} throws it
     */
    public TransactionalShareProducer(Map<String, Object> configs) {
        this(configs, null, null);
    }

    /**
     * Like {@link KafkaProducer#KafkaProducer(Map, Serializer, Serializer)}.
     *
     * @throws org.apache.kafka.common.config.ConfigException if a setting is invalid, naming the key and the value
     * @throws org.apache.kafka.common.errors.UnsupportedVersionException if transactional acknowledgements cannot run and
     *         {@code gapless.share.transactional.fallback=fail}
     * @throws io.gapless.kafka.core.UnsupportedClientVersionException if the kafka-clients on the classpath is older than 4.2
     * @throws org.apache.kafka.common.KafkaException if the Kafka producer cannot be created, as {@code KafkaProducer} throws it
     */
    public TransactionalShareProducer(Map<String, Object> configs, Serializer<K> keySerializer, Serializer<V> valueSerializer) {
        this(configs, keySerializer, valueSerializer, null, null);
    }

    /**
     * Like {@link KafkaProducer#KafkaProducer(Properties)}.
     *
     * @throws org.apache.kafka.common.config.ConfigException if a setting is invalid, naming the key and the value
     * @throws org.apache.kafka.common.errors.UnsupportedVersionException if transactional acknowledgements cannot run and
     *         {@code gapless.share.transactional.fallback=fail}
     * @throws io.gapless.kafka.core.UnsupportedClientVersionException if the kafka-clients on the classpath is older than 4.2
     * @throws org.apache.kafka.common.KafkaException if the Kafka producer cannot be created, as {@code KafkaProducer} throws it
     */
    public TransactionalShareProducer(Properties properties) {
        this(Utils.propsToMap(properties), null, null);
    }

    /**
     * Like {@link KafkaProducer#KafkaProducer(Properties, Serializer, Serializer)}.
     *
     * @throws org.apache.kafka.common.config.ConfigException if a setting is invalid, naming the key and the value
     * @throws org.apache.kafka.common.errors.UnsupportedVersionException if transactional acknowledgements cannot run and
     *         {@code gapless.share.transactional.fallback=fail}
     * @throws io.gapless.kafka.core.UnsupportedClientVersionException if the kafka-clients on the classpath is older than 4.2
     * @throws org.apache.kafka.common.KafkaException if the Kafka producer cannot be created, as {@code KafkaProducer} throws it
     */
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
        ClientCompatibility.require(ClientCompatibility.EntryPoint.TRANSACTIONAL_SHARE_PRODUCER);
        TransactionalShareProducerConfig config = new TransactionalShareProducerConfig(configs);
        String configuredId = config.clientId();
        NativeShareTransactions nativeSupport = injectedNative != null ? injectedNative
                : NativeShareTransactions.reflective(config.kafkaConfigs());
        AckPath path = AckPath.choose(nativeSupport, config.fallback(), "Producer " + configuredId, config.ledger().describe());
        Serializer<K> keys = keySerializer != null ? keySerializer
                : (Serializer<K>) config.serializer(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, true);
        Serializer<V> values = valueSerializer != null ? valueSerializer
                : (Serializer<V>) config.serializer(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, false);
        LedgerAwareSerializer<K> keyRoute = new LedgerAwareSerializer<>(keys, config.ledger()::isLedgerTopic);
        LedgerAwareSerializer<V> valueRoute = new LedgerAwareSerializer<>(values, config.ledger()::isLedgerTopic);
        if (injected != null) {
            this.delegate = injected;
            this.application = new SerializingProducer<>(injected, keyRoute, valueRoute);
        } else {
            KafkaProducer<Object, Object> kafka = new KafkaProducer<>(config.kafkaConfigs(), keyRoute, valueRoute);
            this.delegate = (Producer<byte[], byte[]>) (Producer<?, ?>) kafka;
            this.application = (Producer<K, V>) (Producer<?, ?>) kafka;
        }
        // The SDK's metrics and the ledger's clients go by the Kafka producer's own client id.
        String clientId = ClientIds.fromMetrics(delegate.metrics()).orElse(configuredId);
        TransactionPhase.Listener phases = config.phaseListener();
        // A producer that could go native still serves, with the ledger, consumers whose group has not moved to native.
        Map<String, Object> helperConfig = new LinkedHashMap<>(config.kafkaConfigs());
        helperConfig.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
        this.modes = new AckModeRegistry(helperConfig, config.modeTopicPrefix(), config.ledger().replicationFactor());
        if (path == AckPath.AT_LEAST_ONCE) {
            this.ledgerCheck = null;
        } else {
            AckLedger ackLedger = new AckLedger(config.kafkaConfigs(), config.ledger(), clientId, sdkMetrics, phase -> phases.reached(
                    phase == SnapshotPhase.WRITTEN ? TransactionPhase.SNAPSHOT_WRITTEN : TransactionPhase.SNAPSHOT_DELETE_ISSUED));
            this.ledgerCheck = new LedgerCommitProtocol(ackLedger, delegate, config.transactionalId(), phases,
                    new LedgerBindingCheck(modes, ackLedger, clientId));
        }
        this.transaction = new ShareTransaction(delegate, config.transactionalId(), config.maxBlockMs(), path, nativeSupport,
                ledgerCheck, phases, this::refuseMovedGroups);
    }

    // Emulated members never commit into a group that moved to native KIP-1289 (sdk-share/RATIONALE.md).
    private void refuseMovedGroups(List<String> groups) {
        for (String group : groups) {
            modes.nativeClaim(group).ifPresent(claim -> {
                throw new UnsupportedVersionException(claim.describe() + "; this member still emulates it with the ack ledger, "
                        + "which would break exactly-once, so its transaction was aborted and its consumer stops. Run every member "
                        + "with a kafka-clients that has KIP-1289 against a broker with share.version>=3 and transaction.version>=2, "
                        + "or stop every member and return the group to the emulation with TransactionalShareGroups.returnToEmulation "
                        + "(MIGRATION.md)");
            });
        }
    }

    /** Kafka's producer, typed for the application: {@code send} and every method without a feature go straight to it. */
    @Override
    protected Producer<K, V> delegate() {
        return application;
    }

    /**
     * Stages share acknowledgements in the current transaction: on commit ACCEPT records are
     * acknowledged and REJECT records archived, on abort all of them come back for redelivery.
     *
     * @param acknowledgements per partition, ranges of offsets the consumer holds from its last poll
     * @param metadata         {@code GaplessShareConsumer.shareGroupMetadata()} of that consumer
     * @throws IllegalStateException       if the producer is not transactional, no transaction is in
     *                                     progress, or the consumer is not in transactional mode
     * @throws InvalidRecordStateException if a type other than ACCEPT or REJECT is used, or the
     *                                     consumer does not hold an offset (nothing is staged then)
     * @throws IllegalArgumentException    if {@code metadata} was not handed out by an open transactional consumer
     * @throws ProducerFencedException     if this producer was fenced
     */
    public void sendShareAcknowledgementsToTransaction(Map<TopicIdPartition, List<AcknowledgementBatch>> acknowledgements,
                                                       ShareGroupMetadata metadata) throws ProducerFencedException {
        transaction.stage(acknowledgements, metadata);
    }

    /**
     * KIP-1289's call as Kafka ships it ({@code Producer.sendShareAcknowledgementsToTransaction(ShareAcknowledgements,
     * ShareGroupMetadata)}): stages {@code acknowledgements}, usually
     * {@code GaplessShareConsumer.acknowledgementsForTransaction()}, in the current transaction.
     * Otherwise as {@link #sendShareAcknowledgementsToTransaction(Map, ShareGroupMetadata)}.
     *
     * @throws InvalidRecordStateException also for a type id that is no {@code AcknowledgeType}
     */
    public void sendShareAcknowledgementsToTransaction(ShareAcknowledgements acknowledgements, ShareGroupMetadata metadata)
            throws ProducerFencedException {
        transaction.stage(acknowledgements, metadata);
    }

    @Override
    public void beginTransaction() throws ProducerFencedException {
        transaction.begin();
    }

    /**
     * Commits the transaction, then acknowledges the staged records on their consumer. On the
     * emulated path the ledger check runs first; when it finds a record committed elsewhere or
     * redelivered, this method aborts the transaction, settles those records, releases the rest
     * and throws {@link InvalidRecordStateException}.
     *
     * @throws InvalidRecordStateException if a staged record was committed by another transaction or
     *         delivered again meanwhile; the transaction is aborted, a following {@code abortTransaction()} is a no-op
     * @throws ProducerFencedException if this producer was fenced (also for Kafka's
     *         {@code InvalidProducerEpochException}/{@code InvalidTxnStateException} after a fencing abort);
     *         close it and create a new one
     * @throws org.apache.kafka.common.KafkaException anything {@code KafkaProducer.commitTransaction()} throws, and
     *         Kafka's own {@code *AuthorizationException} naming the ACL when the ack ledger refuses this principal
     */
    @Override
    public void commitTransaction() throws ProducerFencedException {
        transaction.commit();
    }

    /** Aborts the transaction and releases every staged record for redelivery. */
    @Override
    public void abortTransaction() throws ProducerFencedException {
        transaction.abort();
    }

    /**
     * The Kafka producer's metrics plus the SDK's ({@code gapless-share-ledger} group:
     * {@code bytes-since-snapshot}, tagged with the producer's {@code client-id}; also in JMX under {@code gapless.share}).
     */
    @Override
    public Map<MetricName, ? extends Metric> metrics() {
        Map<MetricName, Metric> all = new LinkedHashMap<>(delegate.metrics());
        all.putAll(sdkMetrics.metrics());
        return Collections.unmodifiableMap(all);
    }

    @Override
    public void close() {
        close(Duration.ofMillis(Long.MAX_VALUE));
    }

    @Override
    public void close(Duration timeout) {
        try {
            transaction.close();
            application.close(timeout); // closes the serializers too, as KafkaProducer does
        } finally {
            if (ledgerCheck != null) {
                ledgerCheck.close();
            }
            Utils.closeQuietly(modes, "KIP-1289 mode registry");
            sdkMetrics.close();
        }
    }
}
