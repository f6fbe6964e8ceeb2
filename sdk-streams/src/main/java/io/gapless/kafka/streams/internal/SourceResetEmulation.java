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
import io.gapless.kafka.core.internal.BaselineSession;
import io.gapless.kafka.core.internal.BaselineWorker;
import io.gapless.kafka.core.internal.OffsetResetHandler;
import io.gapless.kafka.core.internal.RegisteringRebalanceListener;
import io.gapless.kafka.core.internal.ResetMetrics;
import io.gapless.kafka.core.internal.baseline.BaselineStore;
import io.gapless.kafka.core.internal.baseline.GroupBaselineClassifier;
import io.gapless.kafka.core.spi.ConnectionConfigs;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.InvalidOffsetException;
import org.apache.kafka.clients.consumer.NoOffsetForPartitionException;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.common.utils.Timer;
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
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The reset emulation of one Streams main consumer (one stream thread): sdk-core's
 * {@link OffsetResetHandler} with the plan's per-topic policies and the SDK's metrics; when some
 * source needs classification, the group baseline (group = application id) with its own
 * background worker, so that registration, classification and offset look-ups never block the
 * stream thread beyond its poll timeout. The main consumer runs with {@code auto.offset.reset=none};
 * {@link #poll} and {@link #position} resolve the source partitions it reports and pass every other
 * partition's {@link InvalidOffsetException} on to Kafka Streams; {@link #resetRequestedByStreams}
 * answers Kafka Streams' own resets of source partitions (task recovery). Used from the stream
 * thread only.
 */
public final class SourceResetEmulation implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(SourceResetEmulation.class);
    private static final long DEFAULT_API_TIMEOUT_MS = 60_000L;

    private final ResetPlan plan;
    private final Map<String, Object> consumerConfig;
    private final String group;
    private final ResetMetrics metrics;
    private final OffsetResetHandler handler;
    private final GroupBaselineClassifier classifier;
    private final BaselineWorker worker;
    private final BaselineSession session;

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
        this.metrics = new ResetMetrics(client, plan.decision().kind());
        if (plan.needsClassification()) {
            BaselineStore store = new BaselineStore(plan.baselineTopic(), group, BaselineStore.GroupType.CONSUMER,
                    ConnectionConfigs.from(consumerConfig, "baseline"), isolationLevel(consumerConfig), plan.baselineTimeout(),
                    metrics::recordBaselineRead, metrics::recordBaselineWrite);
            this.classifier = new GroupBaselineClassifier(store);
            this.worker = new BaselineWorker("gapless-baseline-" + client);
            this.handler = new OffsetResetHandler(plan, () -> classifier, store, worker, plan.unavailablePolicy(), metrics, Time.SYSTEM);
            this.session = new BaselineSession(classifier, worker, plan.unavailablePolicy(), client);
        } else {
            // Base and new-partitions policies agree everywhere: no baseline, the consumer's own look-ups.
            this.classifier = null;
            this.worker = null;
            this.session = null;
            this.handler = new OffsetResetHandler(plan, () -> {
                throw new IllegalStateException("no source of " + group + " needs classification");
            }, plan.unavailablePolicy(), metrics, Time.SYSTEM);
        }
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
        Timer timer = Time.SYSTEM.timer(timeout.toMillis());
        if (session != null) {
            throwAsyncFailure();
            session.maybeCheckProgress();
        }
        registerAssigned(delegate.assignment());
        applyCompleted(delegate);
        while (true) {
            try {
                ConsumerRecords<K, V> records = delegate.poll(Duration.ofMillis(timer.remainingMs()));
                handler.pollReturned();
                return records;
            } catch (InvalidOffsetException e) {
                timer.update();
                boolean again;
                try {
                    again = resolve(delegate, e, Duration.ofMillis(timer.remainingMs()));
                } catch (TimeoutException t) {
                    log.warn("Could not position {} of application {} within the poll: {}; retrying on the next poll",
                            e.partitions(), group, t.getMessage());
                    return ConsumerRecords.empty();
                }
                timer.update();
                if (!again || timer.isExpired()) {
                    return ConsumerRecords.empty();
                }
            }
        }
    }

    /** {@code delegate.position(partition, timeout)}, resolving a source partition without a valid offset; a {@link TimeoutException} when not positioned in time. */
    public long position(Consumer<?, ?> delegate, TopicPartition partition, Duration timeout) {
        Timer timer = Time.SYSTEM.timer(timeout.toMillis());
        applyCompleted(delegate);
        while (true) {
            try {
                return delegate.position(partition, Duration.ofMillis(timer.remainingMs()));
            } catch (InvalidOffsetException e) {
                timer.update();
                resolve(delegate, e, Duration.ofMillis(timer.remainingMs()));
                timer.update();
                if (timer.isExpired()) {
                    throw new TimeoutException("Timeout of " + timeout.toMillis() + "ms expired before the position for partition "
                            + partition + " could be determined");
                }
            }
        }
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
        handler.forget(mine);
        if (!resolve(delegate, new NoOffsetForPartitionException(mine), defaultApiTimeout())) {
            throw new TimeoutException("Could not position " + mine + " of application " + group + " within "
                    + defaultApiTimeout().toMillis() + " ms (" + ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG + ")");
        }
    }

    /** Kafka Streams positioned {@code partitions} itself ({@code seek} to a committed offset): a stale report must not move them. */
    public void positionedByCaller(Collection<TopicPartition> partitions, long offset) {
        handler.positionedByCaller(partitions, offset);
    }

    /** Ends a wait for the SDK's look-ups early ({@code wakeup()}). */
    public void wakeup() {
        handler.wakeup();
    }

    /** The handler's decision for {@code e}'s partitions; converts what Kafka Streams must not see (see {@link #poll}). */
    private boolean resolve(Consumer<?, ?> delegate, InvalidOffsetException e, Duration timeout) {
        try {
            return handler.handle(delegate, e, timeout); // throws for partitions Kafka Streams must reset itself
        } catch (RuntimeException failure) {
            throw translate(failure);
        }
    }

    private void applyCompleted(Consumer<?, ?> delegate) {
        try {
            handler.applyCompleted(delegate);
        } catch (RuntimeException failure) {
            throw translate(failure);
        }
    }

    private RuntimeException translate(RuntimeException failure) {
        if (failure instanceof InvalidOffsetException left) {
            Set<TopicPartition> mine = left.partitions().stream().filter(this::owned).collect(Collectors.toCollection(LinkedHashSet::new));
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
        return new RegisteringRebalanceListener(streamsListener, this::registerAssigned, handler::forget);
    }

    /** Partitions left the assignment: when assigned again they are resolved afresh. */
    public void forget(Collection<TopicPartition> partitions) {
        handler.forget(partitions);
    }

    /** New subscription or assignment: forget everything; the baseline is warmed up while the consumer joins. */
    public void forgetAll() {
        handler.forgetAll();
        if (session != null) {
            session.newSession();
        }
    }

    /**
     * Records the assigned source topics in the group baseline before their partitions are
     * positioned (only when some source needs classification), on the baseline worker: the stream
     * thread does not wait for it. Repartition and other internal topics are never registered.
     */
    public void registerAssigned(Collection<TopicPartition> partitions) {
        if (session == null || partitions.isEmpty()) {
            return;
        }
        session.register(partitions.stream().map(TopicPartition::topic)
                .filter(t -> plan.policiesFor(t).filter(p -> p.newPartitions().isPresent()).isPresent())
                .collect(Collectors.toSet()));
    }

    /**
     * A registration that failed on the worker under {@code gapless.baseline.unavailable=fail}
     * fails the thread, unless it only timed out: then the stream thread goes on and classification
     * registers the topics when it needs them.
     */
    private void throwAsyncFailure() {
        try {
            session.throwAsyncFailure();
        } catch (BaselineUnavailableException e) {
            if (!causedByTimeout(e)) {
                throw e;
            }
            log.warn("Could not record source topics of application {} in the group baseline in time: {}", group, e.getMessage());
        }
    }

    /** The delegate's metrics plus the SDK's reset metrics. */
    public Map<MetricName, ? extends Metric> metrics(Map<MetricName, ? extends Metric> delegateMetrics) {
        Map<MetricName, Metric> all = new HashMap<>(delegateMetrics);
        all.putAll(metrics.metrics());
        return Collections.unmodifiableMap(all);
    }

    @Override
    public void close() {
        close(Duration.ofSeconds(30));
    }

    /** Stops the baseline worker and closes the baseline's clients within {@code timeout}. */
    public void close(Duration timeout) {
        Timer timer = Time.SYSTEM.timer(timeout.toMillis());
        try {
            if (worker != null) {
                worker.close(Duration.ofMillis(timer.remainingMs()));
            }
            if (classifier != null) {
                timer.update();
                classifier.close(Duration.ofMillis(timer.remainingMs()));
            }
        } finally {
            metrics.close();
        }
    }
}
