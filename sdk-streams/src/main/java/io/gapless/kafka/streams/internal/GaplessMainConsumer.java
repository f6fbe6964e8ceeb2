package io.gapless.kafka.streams.internal;

import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.clients.consumer.OffsetCommitCallback;
import org.apache.kafka.clients.consumer.SubscriptionPattern;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.metrics.KafkaMetric;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The main consumer Kafka Streams gets from {@link GaplessClientSupplier} under
 * {@code group.protocol=classic}: a {@link Consumer} decorator whose delegate runs with
 * {@code auto.offset.reset=none}; {@code poll}/{@code position} go through
 * {@link SourceResetEmulation}, subscriptions wrap Streams' rebalance listener, everything else
 * is forwarded unchanged.
 */
public final class GaplessMainConsumer implements Consumer<byte[], byte[]> {
    private final Consumer<byte[], byte[]> delegate;
    private final SourceResetEmulation emulation;

    public GaplessMainConsumer(Consumer<byte[], byte[]> delegate, SourceResetEmulation emulation) {
        this.delegate = delegate;
        this.emulation = emulation;
    }

    // ---- methods that carry the feature ----

    @Override
    public ConsumerRecords<byte[], byte[]> poll(Duration timeout) {
        return emulation.poll(delegate, timeout);
    }

    @Override
    public long position(TopicPartition partition) {
        return emulation.position(delegate, partition, Duration.ofMillis(Long.MAX_VALUE));
    }

    @Override
    public long position(TopicPartition partition, Duration timeout) {
        return emulation.position(delegate, partition, timeout);
    }

    @Override
    public void subscribe(Collection<String> topics) {
        emulation.forgetAll();
        delegate.subscribe(topics, emulation.wrap(null));
    }

    @Override
    public void subscribe(Collection<String> topics, ConsumerRebalanceListener callback) {
        emulation.forgetAll();
        delegate.subscribe(topics, emulation.wrap(callback));
    }

    @Override
    public void subscribe(Pattern pattern, ConsumerRebalanceListener callback) {
        emulation.forgetAll();
        delegate.subscribe(pattern, emulation.wrap(callback));
    }

    @Override
    public void subscribe(Pattern pattern) {
        emulation.forgetAll();
        delegate.subscribe(pattern, emulation.wrap(null));
    }

    @Override
    public void subscribe(SubscriptionPattern pattern, ConsumerRebalanceListener callback) {
        emulation.forgetAll();
        delegate.subscribe(pattern, emulation.wrap(callback));
    }

    @Override
    public void subscribe(SubscriptionPattern pattern) {
        emulation.forgetAll();
        delegate.subscribe(pattern, emulation.wrap(null));
    }

    @Override
    public void assign(Collection<TopicPartition> partitions) {
        emulation.forgetAll();
        delegate.assign(partitions);
    }

    @Override
    public void unsubscribe() {
        emulation.forgetAll();
        delegate.unsubscribe();
    }

    @Override
    public Map<MetricName, ? extends Metric> metrics() {
        return emulation.metrics(delegate.metrics());
    }

    @Override
    public void close() {
        try {
            delegate.close();
        } finally {
            emulation.close();
        }
    }

    @Override
    @Deprecated
    @SuppressWarnings("deprecation")
    public void close(Duration timeout) {
        try {
            delegate.close(timeout);
        } finally {
            emulation.close();
        }
    }

    @Override
    public void close(CloseOptions option) {
        try {
            delegate.close(option);
        } finally {
            emulation.close();
        }
    }

    // ---- plain forwarding ----

    @Override
    public Set<TopicPartition> assignment() {
        return delegate.assignment();
    }

    @Override
    public Set<String> subscription() {
        return delegate.subscription();
    }

    @Override
    public void commitSync() {
        delegate.commitSync();
    }

    @Override
    public void commitSync(Duration a0) {
        delegate.commitSync(a0);
    }

    @Override
    public void commitSync(Map<TopicPartition, OffsetAndMetadata> a0) {
        delegate.commitSync(a0);
    }

    @Override
    public void commitSync(Map<TopicPartition, OffsetAndMetadata> a0, Duration a1) {
        delegate.commitSync(a0, a1);
    }

    @Override
    public void commitAsync() {
        delegate.commitAsync();
    }

    @Override
    public void commitAsync(OffsetCommitCallback a0) {
        delegate.commitAsync(a0);
    }

    @Override
    public void commitAsync(Map<TopicPartition, OffsetAndMetadata> a0, OffsetCommitCallback a1) {
        delegate.commitAsync(a0, a1);
    }

    @Override
    public void registerMetricForSubscription(KafkaMetric a0) {
        delegate.registerMetricForSubscription(a0);
    }

    @Override
    public void unregisterMetricFromSubscription(KafkaMetric a0) {
        delegate.unregisterMetricFromSubscription(a0);
    }

    @Override
    public void seek(TopicPartition a0, long a1) {
        delegate.seek(a0, a1);
    }

    @Override
    public void seek(TopicPartition a0, OffsetAndMetadata a1) {
        delegate.seek(a0, a1);
    }

    @Override
    public void seekToBeginning(Collection<TopicPartition> a0) {
        delegate.seekToBeginning(a0);
    }

    @Override
    public void seekToEnd(Collection<TopicPartition> a0) {
        delegate.seekToEnd(a0);
    }

    @Override
    public Map<TopicPartition, OffsetAndMetadata> committed(Set<TopicPartition> a0) {
        return delegate.committed(a0);
    }

    @Override
    public Map<TopicPartition, OffsetAndMetadata> committed(Set<TopicPartition> a0, Duration a1) {
        return delegate.committed(a0, a1);
    }

    @Override
    public Uuid clientInstanceId(Duration a0) {
        return delegate.clientInstanceId(a0);
    }

    @Override
    public List<PartitionInfo> partitionsFor(String a0) {
        return delegate.partitionsFor(a0);
    }

    @Override
    public List<PartitionInfo> partitionsFor(String a0, Duration a1) {
        return delegate.partitionsFor(a0, a1);
    }

    @Override
    public Map<String, List<PartitionInfo>> listTopics() {
        return delegate.listTopics();
    }

    @Override
    public Map<String, List<PartitionInfo>> listTopics(Duration a0) {
        return delegate.listTopics(a0);
    }

    @Override
    public Set<TopicPartition> paused() {
        return delegate.paused();
    }

    @Override
    public void pause(Collection<TopicPartition> a0) {
        delegate.pause(a0);
    }

    @Override
    public void resume(Collection<TopicPartition> a0) {
        delegate.resume(a0);
    }

    @Override
    public Map<TopicPartition, OffsetAndTimestamp> offsetsForTimes(Map<TopicPartition, Long> a0) {
        return delegate.offsetsForTimes(a0);
    }

    @Override
    public Map<TopicPartition, OffsetAndTimestamp> offsetsForTimes(Map<TopicPartition, Long> a0, Duration a1) {
        return delegate.offsetsForTimes(a0, a1);
    }

    @Override
    public Map<TopicPartition, Long> beginningOffsets(Collection<TopicPartition> a0) {
        return delegate.beginningOffsets(a0);
    }

    @Override
    public Map<TopicPartition, Long> beginningOffsets(Collection<TopicPartition> a0, Duration a1) {
        return delegate.beginningOffsets(a0, a1);
    }

    @Override
    public Map<TopicPartition, Long> endOffsets(Collection<TopicPartition> a0) {
        return delegate.endOffsets(a0);
    }

    @Override
    public Map<TopicPartition, Long> endOffsets(Collection<TopicPartition> a0, Duration a1) {
        return delegate.endOffsets(a0, a1);
    }

    @Override
    public OptionalLong currentLag(TopicPartition a0) {
        return delegate.currentLag(a0);
    }

    @Override
    public ConsumerGroupMetadata groupMetadata() {
        return delegate.groupMetadata();
    }

    @Override
    public void enforceRebalance() {
        delegate.enforceRebalance();
    }

    @Override
    public void enforceRebalance(String a0) {
        delegate.enforceRebalance(a0);
    }

    @Override
    public void wakeup() {
        delegate.wakeup();
    }
}
