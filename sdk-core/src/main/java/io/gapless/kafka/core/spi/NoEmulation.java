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
package io.gapless.kafka.core.spi;

import io.gapless.kafka.core.internal.ResetMetrics;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;

import java.time.Duration;
import java.util.Collection;
import java.util.Map;

/** {@link NewPartitionsEmulation#off}: the delegate does everything; only the SDK's metrics are kept. */
final class NoEmulation implements NewPartitionsEmulation {
    private final ResetMetrics metrics;

    NoEmulation(String clientId, ModeDecision.Kind mode) {
        this.metrics = new ResetMetrics(clientId, mode);
    }

    @Override
    public <K, V> ConsumerRecords<K, V> poll(Consumer<K, V> delegate, Duration timeout) {
        return delegate.poll(timeout);
    }

    @Override
    public long position(Consumer<?, ?> delegate, TopicPartition partition, Duration timeout) {
        return delegate.position(partition, timeout);
    }

    @Override
    public boolean positionAfresh(Consumer<?, ?> delegate, Collection<TopicPartition> partitions, Duration timeout) {
        return false; // nothing here positions partitions
    }

    @Override
    public void seeked(Collection<TopicPartition> partitions, long offset) {
    }

    @Override
    public void committed() {
    }

    @Override
    public void wakeup() {
    }

    @Override
    public void newSession() {
    }

    @Override
    public void assigned(Collection<TopicPartition> partitions) {
    }

    @Override
    public void register(Collection<TopicPartition> partitions) {
    }

    @Override
    public ConsumerRebalanceListener listenerFor(Consumer<?, ?> delegate, ConsumerRebalanceListener user) {
        return user;
    }

    @Override
    public void forget(Collection<TopicPartition> partitions) {
    }

    @Override
    public void forgetAll() {
    }

    @Override
    public Map<MetricName, ? extends Metric> metrics() {
        return metrics.metrics();
    }

    @Override
    public void close(Duration timeout) {
        metrics.close();
    }
}
