package io.gapless.kafka.streams.internal;

import io.gapless.kafka.core.BaselineUnavailableException;
import io.gapless.kafka.core.BaselineUnavailablePolicy;
import io.gapless.kafka.core.spi.ConnectionConfigs;
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
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The reset emulation of one Streams main consumer (one stream thread): sdk-core's
 * {@link OffsetResetHandler} with the plan's per-topic policies, the group baseline (group =
 * application id) opened only when some source needs classification, and the SDK's metrics. The
 * main consumer runs with {@code auto.offset.reset=none}; {@link #poll} and {@link #position}
 * resolve the source partitions it reports and pass every other partition's
 * {@link InvalidOffsetException} on to Kafka Streams. Used from the stream thread only.
 */
public final class SourceResetEmulation implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(SourceResetEmulation.class);

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
        this.metrics = new ResetMetrics(clientId == null ? group + "-main-consumer" : clientId.toString(), plan.decision().kind());
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

    /** {@code delegate.poll(timeout)}, resolving the source partitions it cannot position and retrying within the timeout. */
    public <K, V> ConsumerRecords<K, V> poll(Consumer<K, V> delegate, Duration timeout) {
        long deadline = deadline(timeout);
        registerAssigned(delegate.assignment());
        while (true) {
            try {
                return delegate.poll(remaining(deadline));
            } catch (InvalidOffsetException e) {
                handler.handle(delegate, e); // throws for partitions Kafka Streams must reset itself
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
                handler.handle(delegate, e);
            }
        }
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
