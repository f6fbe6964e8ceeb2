package io.gapless.kafka.core;

import io.gapless.kafka.core.spi.ConnectionConfigs;
import io.gapless.kafka.core.spi.ModeDecision;
import io.gapless.kafka.core.internal.OffsetResetHandler;
import io.gapless.kafka.core.internal.RegisteringRebalanceListener;
import io.gapless.kafka.core.internal.ResetMetrics;
import io.gapless.kafka.core.internal.TopicResetPolicies;
import io.gapless.kafka.core.internal.baseline.BaselineStore;
import io.gapless.kafka.core.internal.baseline.GroupBaselineClassifier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.InvalidOffsetException;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.SubscriptionPattern;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.common.utils.Utils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

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
 * {@link GaplessConsumerConfig#BASELINE_TOPIC_CONFIG}), seeks them and retries within the caller's
 * timeout. Every reset is logged at INFO and counted in {@link #metrics()}. Without
 * {@code auto.offset.reset.new.partitions} the class is a plain pass-through.
 *
 * <p>Like {@code KafkaConsumer}, an instance is not safe for use by several threads, except
 * {@link #wakeup()}.
 */
public class GaplessConsumer<K, V> extends ForwardingConsumer<K, V> {
    private static final Logger log = LoggerFactory.getLogger(GaplessConsumer.class);
    private static final AtomicInteger CLIENT_SEQUENCE = new AtomicInteger();

    private final Consumer<K, V> delegate;
    private final ModeDecision decision;
    private final OffsetResetHandler resetHandler;
    private final GroupBaselineClassifier classifier;
    private final ResetMetrics resetMetrics;
    private final BaselineUnavailablePolicy unavailablePolicy;
    private final Set<String> registeredTopics = new HashSet<>();
    private final String clientId;
    private Set<String> pendingManualTopics = Set.of();
    private Thread warmUp;

    /** Same as {@link KafkaConsumer#KafkaConsumer(Map)}, plus the SDK's settings. */
    public GaplessConsumer(Map<String, Object> configs) {
        this(configs, (Deserializer<K>) null, (Deserializer<V>) null);
    }

    /** Same as {@link KafkaConsumer#KafkaConsumer(Properties)}, plus the SDK's settings. */
    public GaplessConsumer(Properties properties) {
        this(properties, (Deserializer<K>) null, (Deserializer<V>) null);
    }

    /** Same as {@link KafkaConsumer#KafkaConsumer(Properties, Deserializer, Deserializer)}, plus the SDK's settings. */
    public GaplessConsumer(Properties properties, Deserializer<K> keyDeserializer, Deserializer<V> valueDeserializer) {
        this(Utils.propsToMap(properties), keyDeserializer, valueDeserializer);
    }

    /** Same as {@link KafkaConsumer#KafkaConsumer(Map, Deserializer, Deserializer)}, plus the SDK's settings. */
    public GaplessConsumer(Map<String, Object> configs, Deserializer<K> keyDeserializer, Deserializer<V> valueDeserializer) {
        this(configs, cfg -> new KafkaConsumer<>(cfg, keyDeserializer, valueDeserializer), BrokerCapabilities.clientOnly(),
                GaplessConsumer::probeBroker);
    }

    /** For tests: the delegate, the client's and the broker's capabilities are injected (Kafka's {@code MockConsumer}, fixed capabilities). */
    GaplessConsumer(Map<String, Object> configs, Function<Map<String, Object>, Consumer<K, V>> delegateFactory,
                    BrokerCapabilities clientCapabilities, Function<Map<String, Object>, BrokerCapabilities> brokerProbe) {
        Map<String, Object> userConfig = new HashMap<>(configs);
        GaplessConsumerConfig config = new GaplessConsumerConfig(userConfig);
        Optional<ResetPolicy> newPolicy = config.newPartitionsPolicy();
        this.decision = ModeDecision.decide(newPolicy.isPresent(), config.mode(), clientCapabilities,
                () -> brokerProbe.apply(userConfig));
        this.unavailablePolicy = config.baselineUnavailablePolicy();
        Map<String, Object> delegateConfig = GaplessConsumerConfig.withoutSdkKeys(userConfig);
        String clientId = clientId(userConfig);
        this.clientId = clientId;
        switch (decision.kind()) {
            case NATIVE -> delegateConfig.put(GaplessConsumerConfig.AUTO_OFFSET_RESET_NEW_PARTITIONS_CONFIG, newPolicy.orElseThrow().toString());
            case EMULATE -> delegateConfig.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, ResetPolicy.NONE.toString());
            default -> { }
        }
        this.resetMetrics = new ResetMetrics(clientId, decision.kind().label());
        if (decision.kind() == ModeDecision.Kind.EMULATE) {
            String group = String.valueOf(userConfig.get(ConsumerConfig.GROUP_ID_CONFIG));
            BaselineStore store = new BaselineStore(config.baselineTopic(), group, ConnectionConfigs.from(userConfig, "baseline"),
                    Duration.ofMillis(config.baselineTimeoutMs()), resetMetrics::recordBaselineRead, resetMetrics::recordBaselineWrite);
            this.classifier = new GroupBaselineClassifier(store);
            TopicResetPolicies policies = new TopicResetPolicies(config.basePolicy(), newPolicy);
            this.resetHandler = new OffsetResetHandler(topic -> Optional.of(policies), () -> classifier,
                    unavailablePolicy, resetMetrics, Time.SYSTEM);
        } else {
            this.classifier = null;
            this.resetHandler = null;
        }
        Consumer<K, V> created;
        try {
            created = delegateFactory.apply(delegateConfig);
        } catch (RuntimeException e) {
            closeQuietly();
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

    private boolean emulating() {
        return resetHandler != null;
    }

    // ---- methods that carry the feature ----

    @Override
    public ConsumerRecords<K, V> poll(Duration timeout) {
        if (!emulating()) {
            return delegate.poll(timeout);
        }
        long deadline = deadline(timeout);
        registerManualAssignment();
        while (true) {
            try {
                return delegate.poll(remaining(deadline));
            } catch (InvalidOffsetException e) {
                resetHandler.handle(delegate, e);
                if (remaining(deadline).isZero()) {
                    return ConsumerRecords.empty();
                }
            }
        }
    }

    @Override
    public long position(TopicPartition partition) {
        return position(partition, Duration.ofMillis(Long.MAX_VALUE));
    }

    @Override
    public long position(TopicPartition partition, Duration timeout) {
        if (!emulating()) {
            return delegate.position(partition, timeout);
        }
        long deadline = deadline(timeout);
        registerManualAssignment();
        while (true) {
            try {
                return delegate.position(partition, remaining(deadline));
            } catch (InvalidOffsetException e) {
                resetHandler.handle(delegate, e);
            }
        }
    }

    @Override
    public void subscribe(Collection<String> topics) {
        if (emulating()) {
            subscribe(topics, (ConsumerRebalanceListener) null);
        } else {
            delegate.subscribe(topics);
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
        if (emulating()) {
            delegate.subscribe(pattern, listenerFor(null));
        } else {
            delegate.subscribe(pattern);
        }
    }

    @Override
    public void subscribe(SubscriptionPattern pattern, ConsumerRebalanceListener callback) {
        delegate.subscribe(pattern, listenerFor(callback));
    }

    @Override
    public void subscribe(SubscriptionPattern pattern) {
        if (emulating()) {
            delegate.subscribe(pattern, listenerFor(null));
        } else {
            delegate.subscribe(pattern);
        }
    }

    /**
     * The listener to hand to Kafka for a new subscription: the user's own when not emulating;
     * otherwise the SDK's wrapper around it, with the baseline warming up and old resolutions forgotten.
     */
    private ConsumerRebalanceListener listenerFor(ConsumerRebalanceListener user) {
        if (!emulating()) {
            return user;
        }
        startWarmUp();
        resetHandler.forgetAll();
        return new RegisteringRebalanceListener(user, this::registerAssigned, resetHandler::forget);
    }

    @Override
    public void assign(Collection<TopicPartition> partitions) {
        if (emulating()) {
            startWarmUp();
            resetHandler.forgetAll();
            pendingManualTopics = partitions.stream().map(TopicPartition::topic).collect(Collectors.toSet());
        }
        delegate.assign(partitions);
    }

    @Override
    public void unsubscribe() {
        if (emulating()) {
            resetHandler.forgetAll();
            pendingManualTopics = Set.of();
        }
        delegate.unsubscribe();
    }

    @Override
    public Map<MetricName, ? extends Metric> metrics() {
        Map<MetricName, Metric> all = new HashMap<>(delegate.metrics());
        all.putAll(resetMetrics.metrics());
        return Collections.unmodifiableMap(all);
    }

    @Override
    public void close() {
        try {
            delegate.close();
        } finally {
            closeQuietly();
        }
    }

    /** Forwarded as Kafka defines it; deprecated there in favour of {@link #close(CloseOptions)}. */
    @Override
    @Deprecated
    @SuppressWarnings("deprecation")
    public void close(Duration timeout) {
        try {
            delegate.close(timeout);
        } finally {
            closeQuietly();
        }
    }

    @Override
    public void close(CloseOptions option) {
        try {
            delegate.close(option);
        } finally {
            closeQuietly();
        }
    }

    /** Opens the baseline's clients while the consumer joins its group, off the polling thread. */
    private void startWarmUp() {
        if (warmUp == null) {
            warmUp = new Thread(classifier.store()::warmUp, "gapless-baseline-warmup-" + clientId);
            warmUp.setDaemon(true);
            warmUp.start();
        }
    }

    /** Records the assigned topics in the group baseline before any partition is positioned. */
    private void registerAssigned(Collection<TopicPartition> partitions) {
        Set<String> topics = partitions.stream().map(TopicPartition::topic)
                .filter(t -> !registeredTopics.contains(t)).collect(Collectors.toSet());
        if (topics.isEmpty()) {
            return;
        }
        try {
            classifier.register(topics);
            registeredTopics.addAll(topics);
        } catch (BaselineUnavailableException e) {
            if (unavailablePolicy == BaselineUnavailablePolicy.FAIL) {
                throw e;
            }
            log.warn("Could not record topics {} in the group baseline: {}", topics, e.getMessage());
        }
    }

    private void registerManualAssignment() {
        if (!pendingManualTopics.isEmpty()) {
            Set<String> topics = pendingManualTopics;
            registerAssigned(topics.stream().map(t -> new TopicPartition(t, 0)).toList());
            pendingManualTopics = Set.of();
        }
    }

    private void closeQuietly() {
        if (classifier != null) {
            classifier.close();
        }
        if (resetMetrics != null) {
            resetMetrics.close();
        }
    }

    private static long deadline(Duration timeout) {
        long now = System.nanoTime();
        long nanos = timeout.compareTo(Duration.ofDays(365)) > 0 ? Long.MAX_VALUE / 4 : timeout.toNanos();
        return now + nanos;
    }

    private static Duration remaining(long deadline) {
        return Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
    }

    private static String clientId(Map<String, Object> config) {
        Object id = config.get(ConsumerConfig.CLIENT_ID_CONFIG);
        if (id != null && !id.toString().isBlank()) {
            return id.toString();
        }
        return "gapless-consumer-" + config.getOrDefault(ConsumerConfig.GROUP_ID_CONFIG, "") + "-" + CLIENT_SEQUENCE.incrementAndGet();
    }

    private static BrokerCapabilities probeBroker(Map<String, Object> userConfig) {
        try (Admin admin = Admin.create(ConnectionConfigs.from(userConfig, "probe"))) {
            return BrokerCapabilities.probe(admin, Duration.ofSeconds(30));
        }
    }
}
