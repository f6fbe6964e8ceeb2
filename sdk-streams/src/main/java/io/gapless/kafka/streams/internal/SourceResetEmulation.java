package io.gapless.kafka.streams.internal;

import io.gapless.kafka.core.BaselineUnavailableException;
import io.gapless.kafka.core.BaselineUnavailablePolicy;
import io.gapless.kafka.core.internal.ConnectionConfigs;
import io.gapless.kafka.core.internal.OffsetResetHandler;
import io.gapless.kafka.core.internal.RegisteringRebalanceListener;
import io.gapless.kafka.core.internal.ResetMetrics;
import io.gapless.kafka.core.internal.baseline.BaselineStore;
import io.gapless.kafka.core.internal.baseline.GroupBaselineClassifier;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.InvalidOffsetException;
import org.apache.kafka.clients.consumer.NoOffsetForPartitionException;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.streams.errors.StreamsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The reset emulation of one Streams main consumer (one stream thread): sdk-core's
 * {@link OffsetResetHandler} with the plan's per-topic policies, the group baseline (group =
 * application id) opened only when some source needs classification, and the SDK's metrics. The
 * main consumer runs with {@code auto.offset.reset=none}; {@link #poll} and {@link #position}
 * resolve the source partitions it reports and pass every other partition's
 * {@link InvalidOffsetException} on to Kafka Streams; {@link #resetRequestedByStreams} answers
 * Kafka Streams' own resets of source partitions (task recovery). Used from the stream thread only.
 */
public final class SourceResetEmulation implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(SourceResetEmulation.class);
    private static final long DEFAULT_API_TIMEOUT_MS = 60_000L;

    private final ResetPlan plan;
    private final Map<String, Object> consumerConfig;
    private final String group;
    private final ResetMetrics metrics;
    private final OffsetResetHandler handler;
    private final Set<String> registeredTopics = new HashSet<>();
    private GroupBaselineClassifier classifier;

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
        this.metrics = new ResetMetrics(clientId == null ? group + "-main-consumer" : clientId.toString(), plan.decision().kind().label());
        this.handler = new OffsetResetHandler(plan, this::classifier, plan.unavailablePolicy(), metrics, Time.SYSTEM);
    }

    private synchronized GroupBaselineClassifier classifier() {
        if (classifier == null) {
            BaselineStore store = new BaselineStore(plan.baselineTopic(), group, ConnectionConfigs.from(consumerConfig, "baseline"),
                    plan.baselineTimeout(), metrics::recordBaselineRead, metrics::recordBaselineWrite);
            classifier = new GroupBaselineClassifier(store);
        }
        return classifier;
    }

    /**
     * {@code delegate.poll(timeout)}, resolving the source partitions it cannot position and
     * retrying within the timeout. A source partition whose policy is {@code none} fails the
     * stream thread as Kafka Streams does ({@link StreamsException}); other partitions'
     * {@link InvalidOffsetException} goes to Kafka Streams, which resets them itself. When a
     * look-up for the SDK times out, the partitions stay unpositioned and the next poll retries
     * (as Kafka's own consumer does), instead of a {@code TimeoutException} killing the thread.
     */
    public <K, V> ConsumerRecords<K, V> poll(Consumer<K, V> delegate, Duration timeout) {
        long deadline = deadline(timeout);
        registerAssigned(delegate.assignment());
        while (true) {
            try {
                return delegate.poll(remaining(deadline));
            } catch (InvalidOffsetException e) {
                try {
                    resolve(delegate, e);
                } catch (TimeoutException t) {
                    log.warn("Could not position {} of application {} within the poll: {}; retrying on the next poll",
                            e.partitions(), group, t.getMessage());
                    return ConsumerRecords.empty();
                }
                if (remaining(deadline).isZero()) {
                    return ConsumerRecords.empty();
                }
            }
        }
    }

    /** {@code delegate.position(partition, timeout)}, resolving a source partition without a valid offset. */
    public long position(Consumer<?, ?> delegate, TopicPartition partition, Duration timeout) {
        long deadline = deadline(timeout);
        while (true) {
            try {
                return delegate.position(partition, remaining(deadline));
            } catch (InvalidOffsetException e) {
                resolve(delegate, e);
                if (remaining(deadline).isZero()) {
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
     * positioned by the SDK's decision (as partitions without a committed offset, afresh); the
     * others are passed to {@code streamsReset}. A time-out is thrown as {@link TimeoutException},
     * on which Kafka Streams retries the task's initialization later.
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
        resolve(delegate, new NoOffsetForPartitionException(mine));
    }

    /** The handler's decision for {@code e}'s partitions; throws for those Kafka Streams must handle or that fail the thread. */
    private void resolve(Consumer<?, ?> delegate, InvalidOffsetException e) {
        try {
            handler.handle(delegate, e); // throws for partitions Kafka Streams must reset itself
        } catch (InvalidOffsetException left) {
            Set<TopicPartition> mine = left.partitions().stream().filter(this::owned).collect(Collectors.toCollection(java.util.LinkedHashSet::new));
            if (!mine.isEmpty()) {
                // Policy none: fail as Kafka Streams fails, here, rather than let Streams reset them by the policy the SDK handed it.
                throw new StreamsException(String.format("No valid committed offset found for input [%s] and no valid reset policy"
                        + " configured: partitions %s have the reset policy none (GaplessStreams; set a policy on the source,"
                        + " auto.offset.reset, or auto.offset.reset.new.partitions for new partitions)",
                        mine.stream().map(TopicPartition::topic).distinct().collect(Collectors.joining(",")), mine), left);
            }
            throw left;
        } catch (BaselineUnavailableException b) {
            if (causedByTimeout(b)) {
                throw new TimeoutException("Group baseline of " + group + " not reachable in time: " + b.getMessage(), b);
            }
            throw b;
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

    /** Wraps Kafka Streams' rebalance listener (classic protocol): registers assigned source topics, forgets revoked partitions. */
    public ConsumerRebalanceListener wrap(ConsumerRebalanceListener streamsListener) {
        return new RegisteringRebalanceListener(streamsListener, this::registerAssigned, handler::forget);
    }

    /** Partitions left the assignment: when assigned again they are resolved afresh. */
    public void forget(Collection<TopicPartition> partitions) {
        handler.forget(partitions);
    }

    /** New subscription or assignment: forget everything. */
    public void forgetAll() {
        handler.forgetAll();
    }

    /**
     * Records the assigned source topics in the group baseline before their partitions are
     * positioned (only when some source needs classification). Repartition and other internal
     * topics are never registered.
     */
    public void registerAssigned(Collection<TopicPartition> partitions) {
        if (!plan.needsClassification() || partitions.isEmpty()) {
            return;
        }
        Set<String> topics = partitions.stream().map(TopicPartition::topic)
                .filter(t -> !registeredTopics.contains(t))
                .filter(t -> plan.policiesFor(t).filter(p -> p.newPartitions().isPresent()).isPresent())
                .collect(Collectors.toSet());
        if (topics.isEmpty()) {
            return;
        }
        try {
            classifier().register(topics);
            registeredTopics.addAll(topics);
        } catch (BaselineUnavailableException e) {
            if (plan.unavailablePolicy() == BaselineUnavailablePolicy.FAIL) {
                throw e;
            }
            log.warn("Could not record source topics {} of application {} in the group baseline: {}", topics, group, e.getMessage());
        }
    }

    /** The delegate's metrics plus the SDK's reset metrics. */
    public Map<MetricName, ? extends Metric> metrics(Map<MetricName, ? extends Metric> delegateMetrics) {
        Map<MetricName, Metric> all = new HashMap<>(delegateMetrics);
        all.putAll(metrics.metrics());
        return Collections.unmodifiableMap(all);
    }

    @Override
    public synchronized void close() {
        if (classifier != null) {
            classifier.close();
        }
        metrics.close();
    }

    private static long deadline(Duration timeout) {
        long nanos = timeout.compareTo(Duration.ofDays(365)) > 0 ? Long.MAX_VALUE / 4 : timeout.toNanos();
        return System.nanoTime() + nanos;
    }

    private static Duration remaining(long deadline) {
        return Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
    }
}
