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

import io.gapless.kafka.core.ForwardingConsumer;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.SubscriptionPattern;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The main consumer Kafka Streams gets from {@link GaplessClientSupplier} under
 * {@code group.protocol=classic}: a {@link Consumer} decorator whose delegate runs with
 * {@code auto.offset.reset=none}; {@code poll}/{@code position}, and Kafka Streams' own resets
 * ({@code seekToBeginning}/{@code seekToEnd}), go through {@link SourceResetEmulation},
 * subscriptions wrap Streams' rebalance listener, everything else is forwarded unchanged.
 */
public final class GaplessMainConsumer extends ForwardingConsumer<byte[], byte[]> {
    private final Consumer<byte[], byte[]> delegate;
    private final SourceResetEmulation emulation;

    public GaplessMainConsumer(Consumer<byte[], byte[]> delegate, SourceResetEmulation emulation) {
        this.delegate = delegate;
        this.emulation = emulation;
    }

    @Override
    protected Consumer<byte[], byte[]> delegate() {
        return delegate;
    }

    // ---- methods that carry the feature (ForwardingConsumer forwards the rest) ----

    @Override
    public ConsumerRecords<byte[], byte[]> poll(Duration timeout) {
        return emulation.poll(delegate, timeout);
    }

    @Override
    public long position(TopicPartition partition) {
        return emulation.position(delegate, partition, emulation.defaultApiTimeout());
    }

    /** Kafka Streams seeks a revived task's partitions to their committed offsets: a stale report must not move them afterwards. */
    @Override
    public void seek(TopicPartition partition, long offset) {
        delegate.seek(partition, offset);
        emulation.positionedByCaller(List.of(partition), offset);
    }

    @Override
    public void seek(TopicPartition partition, OffsetAndMetadata offsetAndMetadata) {
        delegate.seek(partition, offsetAndMetadata);
        emulation.positionedByCaller(List.of(partition), offsetAndMetadata.offset());
    }

    @Override
    public void wakeup() {
        emulation.wakeup();
        delegate.wakeup();
    }

    /** Kafka Streams' own reset of a revived task's partitions (policy {@code earliest}, as the SDK's builders hand it). */
    @Override
    public void seekToBeginning(Collection<TopicPartition> partitions) {
        emulation.resetRequestedByStreams(delegate, partitions, delegate::seekToBeginning);
    }

    /** As {@link #seekToBeginning}, for partitions Kafka Streams resets to the end (repartition topics, or a changed topology). */
    @Override
    public void seekToEnd(Collection<TopicPartition> partitions) {
        emulation.resetRequestedByStreams(delegate, partitions, delegate::seekToEnd);
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
            emulation.close(timeout);
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
}
