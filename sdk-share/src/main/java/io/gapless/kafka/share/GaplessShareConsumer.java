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
package io.gapless.kafka.share;

import io.gapless.kafka.core.spi.ClientCompatibility;
import io.gapless.kafka.share.reset.ShareNewPartitionsReset;
import io.gapless.kafka.share.txn.AckPath;
import io.gapless.kafka.share.txn.ConsumerTransactionSupport;
import io.gapless.kafka.share.txn.LedgerHistoryFilter;
import io.gapless.kafka.share.txn.NativeHandOver;
import io.gapless.kafka.share.txn.NativeShareTransactions;
import io.gapless.kafka.share.txn.NativeTransactionalMode;
import io.gapless.kafka.share.txn.ShareAcknowledgements;
import io.gapless.kafka.share.txn.ShareGroupMetadata;
import io.gapless.kafka.share.txn.TopicIdResolver;
import io.gapless.kafka.share.txn.TransactionalShareProducer;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.consumer.ShareConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.utils.Utils;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.function.Function;

/**
 * A drop-in {@link ShareConsumer} around {@link KafkaShareConsumer} that adds KIP-1289's
 * {@link #shareGroupMetadata()} and acknowledgements that commit or abort with a
 * {@link TransactionalShareProducer}'s transaction, in two shapes:
 *
 * <p><b>KIP-1289 as Kafka ships it</b>, with {@code share.acknowledgement.mode=explicit}: acknowledge
 * as usual, then take those acknowledgements for the transaction with
 * {@link #acknowledgementsForTransaction()}:
 * <pre>{@code
 * consumer.acknowledge(record, AcknowledgeType.ACCEPT);
 * producer.sendShareAcknowledgementsToTransaction(consumer.acknowledgementsForTransaction(), consumer.shareGroupMetadata());
 * producer.commitTransaction();
 * }</pre>
 * Acknowledgements not taken reach Kafka at the next {@code poll}, {@code commitSync},
 * {@code commitAsync} or {@code close}, as with {@link KafkaShareConsumer}. Taken ones are settled
 * by the transaction: acknowledged on commit, released for redelivery on abort, released at the
 * next poll if no transaction staged them.
 *
 * <p><b>The seed KIP's form</b>, with {@code share.acknowledgement.mode=transactional}: every record
 * handed out belongs to the transaction ({@code ShareAcknowledgements.fromRecords}); the Kafka
 * consumer underneath runs in {@code explicit} mode, and:
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
 * group baseline, and records below it are acknowledged without being returned). See docs/share-groups.md.
 *
 * <p>The settings are {@link GaplessShareConfig}. Every method without a feature is forwarded
 * unchanged by {@link ForwardingShareConsumer}.
 *
 * @since 0.1.0
 */
public class GaplessShareConsumer<K, V> extends ForwardingShareConsumer<K, V> {
    private final ShareConsumer<K, V> delegate;
    private final ShareGroupMetadata metadata;
    private final ShareNewPartitionsReset newPartitionsReset;     // null unless KIP-1327 is asked for
    private final ConsumerTransactionSupport<K, V> transactions;  // null unless KIP-1289 is emulated or at-least-once
    private final NativeShareTransactions nativeTransactions;     // null unless KIP-1289 is native
    private final LedgerHistoryFilter<K, V> ledgerHistory;         // native in a group that emulated before, else null
    private final NativeTransactionalMode<K, V> nativeTransactional; // transactional mode on the native path, else null
    private final AckPath ackPath;                                 // null unless the consumer can take part in transactions
    private final List<RecordFilter<K, V>> pollStages = new ArrayList<>();

    /**
     * Like {@link KafkaShareConsumer#KafkaShareConsumer(Map)}; SDK keys ({@code gapless.*}) are removed first.
     *
     * @throws org.apache.kafka.common.config.ConfigException if a setting is invalid, naming the key and the value (for example
     *         a new-partitions policy or {@code share.acknowledgement.mode=transactional} without {@code group.id},
     *         {@code none} as the new-partitions policy, {@code gapless.new.partitions.mode=native} without broker support)
     * @throws org.apache.kafka.common.errors.UnsupportedVersionException if transactional acknowledgements cannot run and
     *         {@code gapless.share.transactional.fallback=fail}
     * @throws io.gapless.kafka.core.UnsupportedClientVersionException if the kafka-clients on the classpath is older than 4.2
     * @throws org.apache.kafka.common.KafkaException if the Kafka share consumer cannot be created, or a call the SDK makes
     *         at construction is refused (Kafka's own {@code *AuthorizationException} naming the ACL)
     */
    public GaplessShareConsumer(Map<String, Object> configs) {
        this(configs, null, null);
    }

    /**
     * Like {@link KafkaShareConsumer#KafkaShareConsumer(Properties)}.
     *
     * @throws org.apache.kafka.common.config.ConfigException if a setting is invalid, naming the key and the value (for example
     *         a new-partitions policy or {@code share.acknowledgement.mode=transactional} without {@code group.id},
     *         {@code none} as the new-partitions policy, {@code gapless.new.partitions.mode=native} without broker support)
     * @throws org.apache.kafka.common.errors.UnsupportedVersionException if transactional acknowledgements cannot run and
     *         {@code gapless.share.transactional.fallback=fail}
     * @throws io.gapless.kafka.core.UnsupportedClientVersionException if the kafka-clients on the classpath is older than 4.2
     * @throws org.apache.kafka.common.KafkaException if the Kafka share consumer cannot be created, or a call the SDK makes
     *         at construction is refused (Kafka's own {@code *AuthorizationException} naming the ACL)
     */
    public GaplessShareConsumer(Properties properties) {
        this(Utils.propsToMap(properties), null, null);
    }

    /**
     * Like {@link KafkaShareConsumer#KafkaShareConsumer(Properties, Deserializer, Deserializer)}.
     *
     * @throws org.apache.kafka.common.config.ConfigException if a setting is invalid, naming the key and the value (for example
     *         a new-partitions policy or {@code share.acknowledgement.mode=transactional} without {@code group.id},
     *         {@code none} as the new-partitions policy, {@code gapless.new.partitions.mode=native} without broker support)
     * @throws org.apache.kafka.common.errors.UnsupportedVersionException if transactional acknowledgements cannot run and
     *         {@code gapless.share.transactional.fallback=fail}
     * @throws io.gapless.kafka.core.UnsupportedClientVersionException if the kafka-clients on the classpath is older than 4.2
     * @throws org.apache.kafka.common.KafkaException if the Kafka share consumer cannot be created, or a call the SDK makes
     *         at construction is refused (Kafka's own {@code *AuthorizationException} naming the ACL)
     */
    public GaplessShareConsumer(Properties properties, Deserializer<K> keyDeserializer, Deserializer<V> valueDeserializer) {
        this(Utils.propsToMap(properties), keyDeserializer, valueDeserializer);
    }

    /**
     * Like {@link KafkaShareConsumer#KafkaShareConsumer(Map, Deserializer, Deserializer)}.
     *
     * @throws org.apache.kafka.common.config.ConfigException if a setting is invalid, naming the key and the value (for example
     *         a new-partitions policy or {@code share.acknowledgement.mode=transactional} without {@code group.id},
     *         {@code none} as the new-partitions policy, {@code gapless.new.partitions.mode=native} without broker support)
     * @throws org.apache.kafka.common.errors.UnsupportedVersionException if transactional acknowledgements cannot run and
     *         {@code gapless.share.transactional.fallback=fail}
     * @throws io.gapless.kafka.core.UnsupportedClientVersionException if the kafka-clients on the classpath is older than 4.2
     * @throws org.apache.kafka.common.KafkaException if the Kafka share consumer cannot be created, or a call the SDK makes
     *         at construction is refused (Kafka's own {@code *AuthorizationException} naming the ACL)
     */
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
        this(configs, settings -> delegate, topicIds, nativeSupport, NativeHandOver::decide);
    }

    /** For tests: also injects the native hand-over decision. */
    GaplessShareConsumer(ShareConsumer<K, V> delegate, Map<String, Object> configs, TopicIdResolver topicIds,
                         NativeShareTransactions nativeSupport, NativeHandOver.Decider handOver) {
        this(configs, settings -> delegate, topicIds, nativeSupport, handOver);
    }

    private GaplessShareConsumer(Map<String, Object> configs, Function<Map<String, Object>, ShareConsumer<K, V>> factory,
                                 TopicIdResolver topicIds, NativeShareTransactions nativeSupport) {
        this(configs, factory, topicIds, nativeSupport, NativeHandOver::decide);
    }

    // The assembly: settings, the acknowledgement path (chosen once), each feature, the poll stages in order.
    private GaplessShareConsumer(Map<String, Object> configs, Function<Map<String, Object>, ShareConsumer<K, V>> factory,
                                 TopicIdResolver topicIds, NativeShareTransactions nativeSupport, NativeHandOver.Decider handOver) {
        ClientCompatibility.require(ClientCompatibility.EntryPoint.GAPLESS_SHARE_CONSUMER);
        GaplessShareConfig config = new GaplessShareConfig(new HashMap<>(configs));
        // Both acknowledgement modes that can take part in a transaction choose their path once, here.
        boolean participant = config.transactional() || (config.explicitMode() && config.groupId() != null);
        NativeShareTransactions capability = !participant ? null
                : nativeSupport != null ? nativeSupport : NativeShareTransactions.reflective(config.kafkaConsumerConfigs());
        AckPath path = participant ? ackPath(config, capability) : null;
        // Native only where the group runs natively or can move now: emulated and native members never mix.
        NativeHandOver.Decision decision = path != AckPath.NATIVE ? null : handOver.decide(config.groupId(), config.clientId(),
                config.kafkaConsumerConfigs(), config.modeTopicPrefix(), config.ledger(), config.transactionalFallback());
        if (decision != null) {
            path = decision.path();
        }
        this.ackPath = path;
        this.newPartitionsReset = config.newPartitionsReset().map(options -> ShareNewPartitionsReset.create(options,
                config.kafkaConsumerConfigs(), config.groupId(), config.clientId(), config.explicitAcknowledgement())).orElse(null);
        this.delegate = createDelegate(factory, config);
        this.nativeTransactions = path == AckPath.NATIVE ? capability : null;
        this.nativeTransactional = path == AckPath.NATIVE && config.transactional() ? new NativeTransactionalMode<>(delegate, capability) : null;
        this.ledgerHistory = path == AckPath.NATIVE && decision.ledgerHistory() ? new LedgerHistoryFilter<>(config.groupId(),
                config.clientId(), config.kafkaConsumerConfigs(), config.ledger(), topicIds) : null;
        this.transactions = path == null || path == AckPath.NATIVE ? null : new ConsumerTransactionSupport<>(path, config.explicitMode(),
                delegate, config.groupId(), config.clientId(), config.kafkaConsumerConfigs(), config.ledger(), topicIds);
        this.metadata = transactions != null ? transactions.metadata()
                : config.groupId() == null ? null : new ShareGroupMetadata(config.groupId(), "gapless-" + Uuid.randomUuid(), 0);
        if (newPartitionsReset != null) {
            // First: records below a partition's start never reach the later stages.
            pollStages.add(records -> newPartitionsReset.filter(records, delegate));
        }
        if (transactions != null) {
            pollStages.add(transactions::dedup);
        }
        if (ledgerHistory != null) {
            pollStages.add(records -> ledgerHistory.apply(records, delegate));
        }
    }

    private static AckPath ackPath(GaplessShareConfig config, NativeShareTransactions nativeSupport) {
        return AckPath.choose(nativeSupport, config.transactionalFallback(), "Share consumer " + config.clientId(), config.ledgerTopic());
    }

    private ShareConsumer<K, V> createDelegate(Function<Map<String, Object>, ShareConsumer<K, V>> factory, GaplessShareConfig config) {
        try {
            return factory.apply(config.kafkaConsumerConfigs());
        } catch (RuntimeException e) {
            if (newPartitionsReset != null) {
                newPartitionsReset.close();
            }
            throw e;
        }
    }

    @Override
    protected ShareConsumer<K, V> delegate() {
        return delegate;
    }

    /**
     * This consumer's share-group identity for
     * {@link TransactionalShareProducer#sendShareAcknowledgementsToTransaction(Map, ShareGroupMetadata)}:
     * pass this instance, it leads the producer to this consumer. Immutable; the member id is
     * assigned by the SDK per consumer instance.
     *
     * @throws IllegalStateException if the consumer has no {@code group.id}
     */
    public ShareGroupMetadata shareGroupMetadata() {
        if (nativeTransactional != null) {
            return nativeTransactional.metadata();
        }
        if (nativeTransactions != null) {
            return nativeTransactions.shareGroupMetadata(delegate);
        }
        if (metadata == null) {
            throw new IllegalStateException("This share consumer has no group.id");
        }
        return metadata;
    }

    /**
     * How this consumer's transactional acknowledgements are delivered, decided at construction:
     * {@code native} (Kafka's KIP-1289), {@code emulate} (the ack ledger), {@code at-least-once}, or
     * {@code off} (neither {@code explicit} nor {@code transactional} mode, or no {@code group.id}).
     */
    public String transactionalAcknowledgementsMode() {
        if (ackPath == null) {
            return "off";
        }
        return switch (ackPath) {
            case NATIVE -> "native";
            case LEDGER -> "emulate";
            case AT_LEAST_ONCE -> "at-least-once";
        };
    }

    /**
     * KIP-1289 as Kafka ships it: takes the acknowledgements given with {@code acknowledge} since
     * the last poll, commit or call of this method, for
     * {@link TransactionalShareProducer#sendShareAcknowledgementsToTransaction(ShareAcknowledgements, ShareGroupMetadata)}.
     * Kafka's consumer will not send them itself: the transaction settles them (acknowledged as
     * given on commit, released for redelivery on abort); taken acknowledgements that no
     * transaction staged are released at the next poll. Records not acknowledged stay in flight.
     *
     * @return the acknowledgements, with their topic ids; {@link ShareAcknowledgements#empty()} if there are none
     * @throws IllegalStateException if the consumer does not run with {@code share.acknowledgement.mode=explicit}
     *                               and a {@code group.id}
     */
    public ShareAcknowledgements acknowledgementsForTransaction() {
        if (nativeTransactions != null && nativeTransactional == null) {
            return nativeTransactions.acknowledgementsForTransaction(delegate);
        }
        if (transactions == null) {
            throw new IllegalStateException("acknowledgementsForTransaction() needs share.acknowledgement.mode=explicit and a group.id"
                    + (nativeTransactional != null ? "; with transactional every record handed out belongs to the transaction: use "
                    + "ShareAcknowledgements.fromRecords" : ""));
        }
        return transactions.acknowledgementsForTransaction();
    }

    /**
     * {@link KafkaShareConsumer#poll(Duration)}; records below a new partition's chosen start, and
     * redelivered records a committed transaction already settled, are acknowledged without being
     * returned.
     *
     * @throws IllegalStateException if records of the previous poll are staged in a transaction that is
     *         still open (commit or abort it first)
     * @throws org.apache.kafka.common.KafkaException anything {@link KafkaShareConsumer#poll(Duration)} throws, and
     *         Kafka's own {@code *AuthorizationException} naming the ACL when a call of the SDK is refused
     */
    @Override
    public ConsumerRecords<K, V> poll(Duration timeout) {
        if (transactions != null) {
            transactions.beforePoll();
        }
        if (nativeTransactional != null) {
            nativeTransactional.beforePoll();
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            if (newPartitionsReset != null) {
                newPartitionsReset.beforePoll();
            }
            long remaining = Math.max(0, deadline - System.nanoTime());
            ConsumerRecords<K, V> polled = delegate.poll(Duration.ofNanos(remaining));
            ConsumerRecords<K, V> records = polled;
            for (RecordFilter<K, V> stage : pollStages) {
                records = stage.apply(records);
            }
            // Everything filtered out: poll again within the caller's timeout (acks ride along).
            if (!records.isEmpty() || polled.isEmpty() || deadline - System.nanoTime() <= 0) {
                if (transactions != null) {
                    transactions.hold(records);
                }
                if (nativeTransactional != null) {
                    nativeTransactional.hold(records);
                }
                return records;
            }
        }
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
        acknowledge(record, AcknowledgeType.ACCEPT);
    }

    /**
     * {@link KafkaShareConsumer#acknowledge(ConsumerRecord, AcknowledgeType)}. In explicit mode the
     * acknowledgement reaches Kafka with the next poll, commit or close, unless
     * {@link #acknowledgementsForTransaction()} takes it for a transaction first.
     */
    @Override
    public void acknowledge(ConsumerRecord<K, V> record, AcknowledgeType type) {
        if (transactions != null) {
            transactions.acknowledge(record, type);
            return;
        }
        delegate.acknowledge(record, type);
        if (nativeTransactional != null) {
            nativeTransactional.forget(record);
        }
    }

    @Override
    public Map<TopicIdPartition, Optional<KafkaException>> commitSync() {
        flush();
        return delegate.commitSync();
    }

    @Override
    public Map<TopicIdPartition, Optional<KafkaException>> commitSync(Duration timeout) {
        flush();
        return delegate.commitSync(timeout);
    }

    @Override
    public void commitAsync() {
        flush();
        delegate.commitAsync();
    }

    private void flush() {
        if (transactions != null) {
            transactions.flush();
        }
    }

    /**
     * The Kafka consumer's metrics plus the SDK's: {@code gapless-share-reset-metrics} (with KIP-1327),
     * {@code gapless-share-transactions} (transactional mode, emulated or at-least-once).
     */
    @Override
    public Map<MetricName, ? extends Metric> metrics() {
        if (newPartitionsReset == null && transactions == null) {
            return delegate.metrics();
        }
        Map<MetricName, Metric> all = new HashMap<>(delegate.metrics());
        if (newPartitionsReset != null) {
            all.putAll(newPartitionsReset.metrics());
        }
        if (transactions != null) {
            all.putAll(transactions.metrics());
        }
        return Collections.unmodifiableMap(all);
    }

    @Override
    public void close() {
        try {
            flush();
            delegate.close();
        } finally {
            closeFeatures();
        }
    }

    @Override
    public void close(Duration timeout) {
        try {
            flush();
            delegate.close(timeout);
        } finally {
            closeFeatures();
        }
    }

    private void closeFeatures() {
        if (transactions != null) {
            transactions.close();
        }
        if (ledgerHistory != null) {
            Utils.closeQuietly(ledgerHistory, "ack-ledger history");
        }
        if (newPartitionsReset != null) {
            Utils.closeQuietly(newPartitionsReset, "share new-partitions reset");
        }
    }
}
