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
package io.gapless.kafka.streams.internal;

import io.gapless.kafka.core.BaselineUnavailableException;
import io.gapless.kafka.core.spi.NewPartitionsEmulation;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.InvalidOffsetException;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.streams.errors.StreamsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The reset emulation of one Streams main consumer (one stream thread): sdk-core's
 * {@link NewPartitionsEmulation} with the plan's per-topic policies, seen as Kafka Streams
 * expects it. When some source needs classification, the emulation keeps the group baseline
 * (group = application id) with its own background worker, so that registration, classification
 * and offset look-ups never block the stream thread beyond its poll timeout. The main consumer
 * runs with {@code auto.offset.reset=none}; {@link #poll} and {@link #position} resolve the source
 * partitions it reports and pass every other partition's {@link InvalidOffsetException} on to
 * Kafka Streams; {@link #resetRequestedByStreams} answers Kafka Streams' own resets of source
 * partitions (task recovery). Used from the stream thread only.
 */
public final class SourceResetEmulation implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(SourceResetEmulation.class);
    private static final long DEFAULT_API_TIMEOUT_MS = 60_000L;

    private final ResetPlan plan;
    private final Map<String, Object> consumerConfig;
    private final String group;
    private final NewPartitionsEmulation emulation;

    /**
     * @param consumerConfig the main consumer's configuration as Kafka Streams built it (connection
     *                       settings, {@code group.id} = application id, {@code client.id})
     */
    public SourceResetEmulation(ResetPlan plan, Map<String, Object> consumerConfig) {
        this.plan = plan;
        this.consumerConfig = new HashMap<>(consumerConfig);
        Object groupId = consumerConfig.get(ConsumerConfig.GROUP_ID_CONFIG);
        this.group = groupId == null ? plan.applicationId() : groupId.toString();
        Object clientId = consumerConfig.get(ConsumerConfig.CLIENT_ID_CONFIG);
        String client = clientId == null ? group + "-main-consumer" : clientId.toString();
        // Without classification (base and new-partitions policies agree everywhere): no baseline, the consumer's own look-ups.
        this.emulation = NewPartitionsEmulation.emulate(new NewPartitionsEmulation.Settings(client, plan.decision().kind(), group, plan,
                plan.needsClassification() ? Optional.of(plan.baselineTopic()) : Optional.empty(), consumerConfig,
                isolationLevel(consumerConfig), plan.baselineTimeout(), plan.unavailablePolicy(), false, new StreamsFailures()));
    }

    /**
     * {@code delegate.poll(timeout)}, resolving the source partitions it cannot position within the
     * timeout; what is not resolved in time stays unpositioned and the next poll goes on with it
     * (as Kafka's own consumer does), so a slow broker never ends the poll with a
     * {@code TimeoutException}. A source partition whose policy is {@code none} fails the stream
     * thread as Kafka Streams does ({@link StreamsException}); other partitions'
     * {@link InvalidOffsetException} goes to Kafka Streams, which resets them itself.
     */
    public <K, V> ConsumerRecords<K, V> poll(Consumer<K, V> delegate, Duration timeout) {
        registerAssigned(delegate.assignment());
        return emulation.poll(delegate, timeout);
    }

    /** {@code delegate.position(partition, timeout)}, resolving a source partition without a valid offset; a {@link TimeoutException} when not positioned in time. */
    public long position(Consumer<?, ?> delegate, TopicPartition partition, Duration timeout) {
        return emulation.position(delegate, partition, timeout);
    }

    /**
     * Kafka Streams resets {@code partitions} itself ({@code seekToBeginning}/{@code seekToEnd} in
     * {@code StreamThread.resetOffsets}): on task recovery it re-positions each input partition of a
     * revived task that has no committed offset by the topology's policy, with no
     * {@code InvalidOffsetException} on the way. The SDK's source partitions among them are
     * positioned by the SDK's decision (as partitions without a committed offset, afresh), waiting
     * at most {@code default.api.timeout.ms}; the others are passed to {@code streamsReset}. When
     * not positioned in time: a {@link TimeoutException}, on which Kafka Streams retries the task's
     * initialization later (within {@code task.timeout.ms}).
     */
    public void resetRequestedByStreams(Consumer<?, ?> delegate, Collection<TopicPartition> partitions,
                                        java.util.function.Consumer<Collection<TopicPartition>> streamsReset) {
        List<TopicPartition> mine = new ArrayList<>();
        List<TopicPartition> others = new ArrayList<>();
        partitions.forEach(tp -> (owned(tp) ? mine : others).add(tp));
        if (!others.isEmpty()) {
            streamsReset.accept(others);
        }
        if (mine.isEmpty()) {
            return;
        }
        log.info("Kafka Streams asks to reset {} of application {} (a revived task's partitions without a committed offset):"
                + " positioning them by the SDK's policies", mine, group);
        // Per partition: another partition positioned in the same call says nothing about these (input lost otherwise).
        if (!emulation.positionAfresh(delegate, mine, defaultApiTimeout())) {
            throw new TimeoutException("Could not position " + mine + " of application " + group + " within "
                    + defaultApiTimeout().toMillis() + " ms (" + ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG + ")");
        }
    }

    /** Kafka Streams positioned {@code partitions} itself ({@code seek} to a committed offset): a stale report must not move them. */
    public void positionedByCaller(Collection<TopicPartition> partitions, long offset) {
        emulation.seeked(partitions, offset);
    }

    /** Ends a wait for the SDK's look-ups early ({@code wakeup()}). */
    public void wakeup() {
        emulation.wakeup();
    }

    /** What Kafka Streams must see of the emulation's failures (see {@link #poll}). */
    private final class StreamsFailures implements NewPartitionsEmulation.Failures {
        @Override
        public RuntimeException translate(RuntimeException failure) {
            if (failure instanceof InvalidOffsetException left) {
                Set<TopicPartition> mine = left.partitions().stream().filter(SourceResetEmulation.this::owned)
                        .collect(Collectors.toCollection(LinkedHashSet::new));
                if (!mine.isEmpty()) {
                    // Policy none: fail as Kafka Streams fails, here, rather than let Streams reset them by the policy the SDK handed it.
                    return new StreamsException(String.format("No valid committed offset found for input [%s] and no valid reset policy"
                            + " configured: partitions %s have the reset policy none (GaplessStreams; set a policy on the source,"
                            + " auto.offset.reset, or auto.offset.reset.new.partitions for new partitions)",
                            mine.stream().map(TopicPartition::topic).distinct().collect(Collectors.joining(",")), mine), left);
                }
                return left;
            }
            if (failure instanceof BaselineUnavailableException b && causedByTimeout(b)) {
                return new TimeoutException("Group baseline of " + group + " not reachable in time: " + b.getMessage(), b);
            }
            return failure;
        }

        /** A look-up that timed out within a poll is retried on the next poll: a slow broker never ends a poll with it. */
        @Override
        public boolean retryOnNextPoll(RuntimeException translated) {
            return translated instanceof TimeoutException;
        }
    }

    private boolean owned(TopicPartition tp) {
        return plan.policiesFor(tp.topic()).isPresent();
    }

    private static boolean causedByTimeout(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof TimeoutException || c instanceof java.util.concurrent.TimeoutException) {
                return true;
            }
        }
        return false;
    }

    /** The main consumer's {@code default.api.timeout.ms}: the bound of {@code position(partition)} without a timeout, as in Kafka's consumer. */
    public Duration defaultApiTimeout() {
        Object v = consumerConfig.get(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG);
        return Duration.ofMillis(v == null ? DEFAULT_API_TIMEOUT_MS
                : ((Number) ConfigDef.parseType(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, v, ConfigDef.Type.INT)).longValue());
    }

    private static IsolationLevel isolationLevel(Map<String, Object> config) {
        Object v = config.get(ConsumerConfig.ISOLATION_LEVEL_CONFIG);
        return v == null ? IsolationLevel.READ_UNCOMMITTED : IsolationLevel.valueOf(v.toString().toUpperCase(Locale.ROOT));
    }

    /** Wraps Kafka Streams' rebalance listener (classic protocol): registers assigned source topics, forgets revoked partitions. */
    public ConsumerRebalanceListener wrap(ConsumerRebalanceListener streamsListener) {
        return emulation.listenerFor(null, streamsListener);
    }

    /** Partitions left the assignment: when assigned again they are resolved afresh. */
    public void forget(Collection<TopicPartition> partitions) {
        emulation.forget(partitions);
    }

    /** New subscription or assignment: forget everything; the baseline is warmed up while the consumer joins. */
    public void forgetAll() {
        emulation.newSession();
    }

    /**
     * Records the assigned source topics in the group baseline before their partitions are
     * positioned (only when some source needs classification), on the baseline worker: the stream
     * thread does not wait for it. Repartition and other internal topics are never registered.
     */
    public void registerAssigned(Collection<TopicPartition> partitions) {
        emulation.register(partitions);
    }

    /** The delegate's metrics plus the SDK's reset metrics. */
    public Map<MetricName, ? extends Metric> metrics(Map<MetricName, ? extends Metric> delegateMetrics) {
        Map<MetricName, Metric> all = new HashMap<>(delegateMetrics);
        all.putAll(emulation.metrics());
        return Collections.unmodifiableMap(all);
    }

    @Override
    public void close() {
        close(Duration.ofSeconds(30));
    }

    /** Stops the baseline worker and closes the baseline's clients within {@code timeout}. */
    public void close(Duration timeout) {
        emulation.close(timeout);
    }
}
