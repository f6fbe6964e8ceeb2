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
package io.gapless.kafka.core;

import io.gapless.kafka.core.spi.ClientCompatibility;
import io.gapless.kafka.core.spi.ClientIds;
import io.gapless.kafka.core.spi.ConnectionConfigs;
import io.gapless.kafka.core.spi.ModeDecision;
import io.gapless.kafka.core.spi.NewPartitionsEmulation;
import io.gapless.kafka.core.spi.TopicResetPolicies;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.InvalidOffsetException;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.SubscriptionPattern;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.common.utils.Timer;
import org.apache.kafka.common.utils.Utils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * A drop-in replacement for {@link KafkaConsumer} that adds KIP-1327's
 * {@code auto.offset.reset.new.partitions}: partitions created after the consumer group was
 * created, and that have no committed offset, are positioned by that policy instead of
 * {@code auto.offset.reset}. With {@code auto.offset.reset=latest} and
 * {@code auto.offset.reset.new.partitions=earliest}, a group skips the history that predates it
 * but never loses a record written to a partition added to its topics later.
 *
 * <pre>{@code
 * props.put("auto.offset.reset", "latest");
 * props.put("auto.offset.reset.new.partitions", "earliest");
 * try (Consumer<String, String> consumer = new GaplessConsumer<>(props)) { ... }
 * }</pre>
 *
 * <p>Where kafka-clients and the broker support KIP-1327 the setting is passed to Kafka. Otherwise
 * (every released broker) the SDK runs the inner {@link KafkaConsumer} with
 * {@code auto.offset.reset=none}, catches its {@link InvalidOffsetException}s in {@link #poll} and
 * {@link #position}, classifies the partitions against the group's durable baseline (see
 * {@link GaplessConsumerConfig#BASELINE_TOPIC_PREFIX_CONFIG}) and positions each by its policy:
 * {@code earliest} and {@code latest} through Kafka's own reset of that partition, so a partition
 * whose leader is down waits alone while the others are fetched, as with {@code KafkaConsumer}.
 * Classification and the SDK's own look-ups run on one background thread, so no call blocks
 * beyond its timeout, and the baseline is consulted only where a decision depends on it: a member
 * whose partitions all have committed offsets never fails because of it. Every reset is logged at
 * INFO and counted in {@link #metrics()}. Without {@code auto.offset.reset.new.partitions} the
 * class is a plain pass-through.
 *
 * <p>Like {@code KafkaConsumer}, an instance is not safe for use by several threads, except
 * {@link #wakeup()}.
 *
 * @since 0.1.0
 */
public class GaplessConsumer<K, V> extends ForwardingConsumer<K, V> {
    private static final Logger log = LoggerFactory.getLogger(GaplessConsumer.class);
    /** KafkaConsumer's own default for {@code close()} without a timeout. */
    private static final Duration DEFAULT_CLOSE_TIMEOUT = Duration.ofSeconds(30);

    private final Consumer<K, V> delegate;
    private final ModeDecision decision;
    // Chosen once: the emulation, or its pass-through variant where Kafka (or nothing) delivers the policy.
    private final NewPartitionsEmulation emulation;
    private final Duration defaultApiTimeout;

    /**
     * Same as {@link KafkaConsumer#KafkaConsumer(Map)}, plus the SDK's settings.
     *
     * @throws org.apache.kafka.common.config.ConfigException if a setting is invalid, naming the key and the value: a Kafka
     *         setting as {@code KafkaConsumer} refuses it, {@code none} or an unparsable duration as
     *         the new-partitions policy, a new-partitions policy without {@code group.id}, or
     *         {@code gapless.new.partitions.mode=native} where kafka-clients or the broker lack KIP-1327
     * @throws UnsupportedClientVersionException if the kafka-clients on the classpath is older than 4.1
     * @throws org.apache.kafka.common.KafkaException if the Kafka consumer cannot be created, as {@code KafkaConsumer} throws it
     */
    public GaplessConsumer(Map<String, Object> configs) {
        this(configs, (Deserializer<K>) null, (Deserializer<V>) null);
    }

    /**
     * Same as {@link KafkaConsumer#KafkaConsumer(Properties)}, plus the SDK's settings.
     *
     * @throws org.apache.kafka.common.config.ConfigException if a setting is invalid, naming the key and the value: a Kafka
     *         setting as {@code KafkaConsumer} refuses it, {@code none} or an unparsable duration as
     *         the new-partitions policy, a new-partitions policy without {@code group.id}, or
     *         {@code gapless.new.partitions.mode=native} where kafka-clients or the broker lack KIP-1327
     * @throws UnsupportedClientVersionException if the kafka-clients on the classpath is older than 4.1
     * @throws org.apache.kafka.common.KafkaException if the Kafka consumer cannot be created, as {@code KafkaConsumer} throws it
     */
    public GaplessConsumer(Properties properties) {
        this(properties, (Deserializer<K>) null, (Deserializer<V>) null);
    }

    /**
     * Same as {@link KafkaConsumer#KafkaConsumer(Properties, Deserializer, Deserializer)}, plus the SDK's settings.
     *
     * @throws org.apache.kafka.common.config.ConfigException if a setting is invalid, naming the key and the value: a Kafka
     *         setting as {@code KafkaConsumer} refuses it, {@code none} or an unparsable duration as
     *         the new-partitions policy, a new-partitions policy without {@code group.id}, or
     *         {@code gapless.new.partitions.mode=native} where kafka-clients or the broker lack KIP-1327
     * @throws UnsupportedClientVersionException if the kafka-clients on the classpath is older than 4.1
     * @throws org.apache.kafka.common.KafkaException if the Kafka consumer cannot be created, as {@code KafkaConsumer} throws it
     */
    public GaplessConsumer(Properties properties, Deserializer<K> keyDeserializer, Deserializer<V> valueDeserializer) {
        this(Utils.propsToMap(properties), keyDeserializer, valueDeserializer);
    }

    /**
     * Same as {@link KafkaConsumer#KafkaConsumer(Map, Deserializer, Deserializer)}, plus the SDK's settings.
     *
     * @throws org.apache.kafka.common.config.ConfigException if a setting is invalid, naming the key and the value: a Kafka
     *         setting as {@code KafkaConsumer} refuses it, {@code none} or an unparsable duration as
     *         the new-partitions policy, a new-partitions policy without {@code group.id}, or
     *         {@code gapless.new.partitions.mode=native} where kafka-clients or the broker lack KIP-1327
     * @throws UnsupportedClientVersionException if the kafka-clients on the classpath is older than 4.1
     * @throws org.apache.kafka.common.KafkaException if the Kafka consumer cannot be created, as {@code KafkaConsumer} throws it
     */
    public GaplessConsumer(Map<String, Object> configs, Deserializer<K> keyDeserializer, Deserializer<V> valueDeserializer) {
        this(configs, cfg -> new KafkaConsumer<>(cfg, keyDeserializer, valueDeserializer), BrokerCapabilities.clientOnly(),
                GaplessConsumer::probeBroker);
    }

    /** For tests: the delegate, the client's and the broker's capabilities are injected (Kafka's {@code MockConsumer}, fixed capabilities). */
    GaplessConsumer(Map<String, Object> configs, Function<Map<String, Object>, Consumer<K, V>> delegateFactory,
                    BrokerCapabilities clientCapabilities, Function<Map<String, Object>, BrokerCapabilities> brokerProbe) {
        ClientCompatibility.require(ClientCompatibility.EntryPoint.GAPLESS_CONSUMER);
        Map<String, Object> userConfig = new HashMap<>(configs);
        // Kafka's own client id, pinned on the delegate: its metrics, the SDK's and the helper clients' ids agree.
        String clientId = ClientIds.consumer(userConfig);
        userConfig.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        GaplessConsumerConfig config = new GaplessConsumerConfig(userConfig);
        Optional<ResetPolicy> newPolicy = config.newPartitionsPolicy();
        Object groupProtocol = userConfig.getOrDefault(ConsumerConfig.GROUP_PROTOCOL_CONFIG, ConsumerConfig.DEFAULT_GROUP_PROTOCOL);
        this.decision = ModeDecision.decide(newPolicy.isPresent(), config.mode(), String.valueOf(groupProtocol), clientCapabilities,
                () -> brokerProbe.apply(userConfig));
        this.defaultApiTimeout = Duration.ofMillis(config.defaultApiTimeoutMs());
        Map<String, Object> delegateConfig = GaplessConsumerConfig.withoutSdkKeys(userConfig);
        switch (decision.kind()) {
            case NATIVE -> delegateConfig.put(GaplessConsumerConfig.AUTO_OFFSET_RESET_NEW_PARTITIONS_CONFIG, newPolicy.orElseThrow().toString());
            case EMULATE -> delegateConfig.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, ResetPolicy.NONE.toString());
            default -> { }
        }
        if (decision.kind() == ModeDecision.Kind.EMULATE) {
            String group = String.valueOf(userConfig.get(ConsumerConfig.GROUP_ID_CONFIG));
            TopicResetPolicies policies = new TopicResetPolicies(config.basePolicy(), newPolicy);
            this.emulation = NewPartitionsEmulation.emulate(new NewPartitionsEmulation.Settings(clientId, decision.kind(), group,
                    topic -> Optional.of(policies), Optional.of(config.baselineTopicOf(group)), userConfig, config.isolationLevel(),
                    Duration.ofMillis(config.baselineTimeoutMs()), config.baselineUnavailablePolicy(), true,
                    NewPartitionsEmulation.Failures.AS_IS));
        } else {
            this.emulation = NewPartitionsEmulation.off(clientId, decision.kind());
        }
        Consumer<K, V> created;
        try {
            created = delegateFactory.apply(delegateConfig);
        } catch (RuntimeException e) {
            closeSdk(Duration.ZERO);
            throw e;
        }
        this.delegate = created;
        if (decision.kind() != ModeDecision.Kind.OFF) {
            log.info("GaplessConsumer {}: {}={} (base {}) delivered by {} ({})", clientId,
                    GaplessConsumerConfig.AUTO_OFFSET_RESET_NEW_PARTITIONS_CONFIG, newPolicy.orElseThrow(), config.basePolicy(),
                    decision.kind().label(), decision.reason());
        }
    }

    @Override
    protected Consumer<K, V> delegate() {
        return delegate;
    }

    /** How {@code auto.offset.reset.new.partitions} is delivered by this instance: {@code off}, {@code native} or {@code emulate}. */
    public String newPartitionsMode() {
        return decision.kind().label();
    }

    // ---- methods that carry the feature ----

    /**
     * {@link KafkaConsumer#poll(Duration)}. Partitions the SDK is still positioning stay
     * unpositioned until a later call, as with Kafka's own reset: no call blocks on the group
     * baseline or on offset look-ups beyond {@code timeout}.
     *
     * @throws BaselineUnavailableException if the group baseline cannot be read or written (its cause
     *         names why, for example a missing ACL) and {@code gapless.baseline.unavailable=fail}; no
     *         partition is positioned and no record handed out
     * @throws org.apache.kafka.clients.consumer.NoOffsetForPartitionException if a pre-existing
     *         partition has no committed offset and {@code auto.offset.reset=none}
     * @throws org.apache.kafka.clients.consumer.OffsetOutOfRangeException if a committed offset is out
     *         of range and {@code auto.offset.reset=none}
     * @throws org.apache.kafka.common.KafkaException anything else {@link KafkaConsumer#poll(Duration)} throws
     */
    @Override
    public ConsumerRecords<K, V> poll(Duration timeout) {
        return emulation.poll(delegate, timeout);
    }

    /**
     * {@link KafkaConsumer#position(TopicPartition)}: waits at most {@code default.api.timeout.ms}.
     *
     * @throws TimeoutException if the partition is not positioned within {@code default.api.timeout.ms}
     * @throws BaselineUnavailableException as {@link #poll(Duration)} throws it
     */
    @Override
    public long position(TopicPartition partition) {
        return position(partition, defaultApiTimeout);
    }

    /**
     * {@link KafkaConsumer#position(TopicPartition, Duration)}.
     *
     * @throws TimeoutException if the partition is not positioned within {@code timeout}
     * @throws BaselineUnavailableException as {@link #poll(Duration)} throws it
     */
    @Override
    public long position(TopicPartition partition, Duration timeout) {
        return emulation.position(delegate, partition, timeout);
    }

    @Override
    public void seek(TopicPartition partition, long offset) {
        delegate.seek(partition, offset);
        emulation.seeked(List.of(partition), offset);
    }

    @Override
    public void seek(TopicPartition partition, OffsetAndMetadata offsetAndMetadata) {
        delegate.seek(partition, offsetAndMetadata);
        emulation.seeked(List.of(partition), offsetAndMetadata.offset());
    }

    @Override
    public void seekToBeginning(Collection<TopicPartition> partitions) {
        delegate.seekToBeginning(partitions);
        emulation.seeked(partitions, NewPartitionsEmulation.UNKNOWN_OFFSET);
    }

    @Override
    public void seekToEnd(Collection<TopicPartition> partitions) {
        delegate.seekToEnd(partitions);
        emulation.seeked(partitions, NewPartitionsEmulation.UNKNOWN_OFFSET);
    }

    @Override
    public void commitSync() {
        delegate.commitSync();
        committed();
    }

    @Override
    public void commitSync(Duration timeout) {
        delegate.commitSync(timeout);
        committed();
    }

    @Override
    public void commitSync(Map<TopicPartition, OffsetAndMetadata> offsets) {
        delegate.commitSync(offsets);
        committed();
    }

    @Override
    public void commitSync(Map<TopicPartition, OffsetAndMetadata> offsets, Duration timeout) {
        delegate.commitSync(offsets, timeout);
        committed();
    }

    @Override
    public void wakeup() {
        delegate.wakeup();
        emulation.wakeup();
    }

    @Override
    public void subscribe(Collection<String> topics) {
        ConsumerRebalanceListener listener = listenerFor(null);
        if (listener == null) {
            delegate.subscribe(topics);
        } else {
            delegate.subscribe(topics, listener);
        }
    }

    @Override
    public void subscribe(Collection<String> topics, ConsumerRebalanceListener callback) {
        delegate.subscribe(topics, listenerFor(callback));
    }

    @Override
    public void subscribe(Pattern pattern, ConsumerRebalanceListener callback) {
        delegate.subscribe(pattern, listenerFor(callback));
    }

    @Override
    public void subscribe(Pattern pattern) {
        ConsumerRebalanceListener listener = listenerFor(null);
        if (listener == null) {
            delegate.subscribe(pattern);
        } else {
            delegate.subscribe(pattern, listener);
        }
    }

    @Override
    public void subscribe(SubscriptionPattern pattern, ConsumerRebalanceListener callback) {
        delegate.subscribe(pattern, listenerFor(callback));
    }

    @Override
    public void subscribe(SubscriptionPattern pattern) {
        ConsumerRebalanceListener listener = listenerFor(null);
        if (listener == null) {
            delegate.subscribe(pattern);
        } else {
            delegate.subscribe(pattern, listener);
        }
    }

    /**
     * The listener to hand to Kafka for a new subscription: the user's own when not emulating
     * ({@code null} for none); otherwise the SDK's wrapper around it, with the baseline warming up
     * and old resolutions forgotten.
     */
    private ConsumerRebalanceListener listenerFor(ConsumerRebalanceListener user) {
        emulation.newSession();
        return emulation.listenerFor(delegate, user);
    }

    @Override
    public void assign(Collection<TopicPartition> partitions) {
        emulation.assigned(partitions);
        delegate.assign(partitions);
    }

    @Override
    public void unsubscribe() {
        emulation.forgetAll();
        delegate.unsubscribe();
    }

    @Override
    public Map<MetricName, ? extends Metric> metrics() {
        Map<MetricName, Metric> all = new HashMap<>(delegate.metrics());
        all.putAll(emulation.metrics());
        return Collections.unmodifiableMap(all);
    }

    /** Like {@link KafkaConsumer#close()}: within 30 seconds, the SDK's baseline clients included. */
    @Override
    public void close() {
        Timer timer = Time.SYSTEM.timer(DEFAULT_CLOSE_TIMEOUT.toMillis());
        try {
            delegate.close();
        } finally {
            timer.update();
            closeSdk(Duration.ofMillis(timer.remainingMs()));
        }
    }

    /**
     * Forwarded as Kafka defines it; deprecated there in favour of {@link #close(CloseOptions)}.
     * The baseline's background work gets what is left of {@code timeout}, and none of it waits
     * for a warm-up in progress.
     */
    @Override
    @Deprecated
    @SuppressWarnings("deprecation")
    public void close(Duration timeout) {
        Timer timer = Time.SYSTEM.timer(timeout.toMillis());
        try {
            delegate.close(timeout);
        } finally {
            timer.update();
            closeSdk(Duration.ofMillis(timer.remainingMs()));
        }
    }

    @Override
    public void close(CloseOptions option) {
        Timer timer = Time.SYSTEM.timer(option.timeout().orElse(DEFAULT_CLOSE_TIMEOUT).toMillis());
        try {
            delegate.close(option);
        } finally {
            timer.update();
            closeSdk(Duration.ofMillis(timer.remainingMs()));
        }
    }

    /** The user committed: the baseline records once that this incarnation of the group has progress. */
    private void committed() {
        emulation.committed();
    }

    private void closeSdk(Duration timeout) {
        emulation.close(timeout);
    }

    private static BrokerCapabilities probeBroker(Map<String, Object> userConfig) {
        try (Admin admin = Admin.create(ConnectionConfigs.from(userConfig, "probe"))) {
            return BrokerCapabilities.probe(admin, Duration.ofSeconds(30));
        }
    }
}
