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

import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.AcknowledgementCommitCallback;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.ShareConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.metrics.KafkaMetric;

import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A {@link ShareConsumer} that forwards every call to the consumer {@link #delegate()} returns,
 * like sdk-core's {@code ForwardingConsumer}. The SDK's share-consumer decorators extend it and
 * override only the methods that carry a feature, so a method Kafka adds to the interface is
 * forwarded in one place.
 *
 * @since 0.1.0
 */
public abstract class ForwardingShareConsumer<K, V> implements ShareConsumer<K, V> {

    /** The consumer every call is forwarded to. */
    protected abstract ShareConsumer<K, V> delegate();

    @Override
    public Set<String> subscription() {
        return delegate().subscription();
    }

    @Override
    public void subscribe(Collection<String> topics) {
        delegate().subscribe(topics);
    }

    @Override
    public void unsubscribe() {
        delegate().unsubscribe();
    }

    @Override
    public ConsumerRecords<K, V> poll(Duration timeout) {
        return delegate().poll(timeout);
    }

    @Override
    public void acknowledge(ConsumerRecord<K, V> record) {
        delegate().acknowledge(record);
    }

    @Override
    public void acknowledge(ConsumerRecord<K, V> record, AcknowledgeType type) {
        delegate().acknowledge(record, type);
    }

    @Override
    public void acknowledge(String topic, int partition, long offset, AcknowledgeType type) {
        delegate().acknowledge(topic, partition, offset, type);
    }

    @Override
    public Map<TopicIdPartition, Optional<KafkaException>> commitSync() {
        return delegate().commitSync();
    }

    @Override
    public Map<TopicIdPartition, Optional<KafkaException>> commitSync(Duration timeout) {
        return delegate().commitSync(timeout);
    }

    @Override
    public void commitAsync() {
        delegate().commitAsync();
    }

    @Override
    public void setAcknowledgementCommitCallback(AcknowledgementCommitCallback callback) {
        delegate().setAcknowledgementCommitCallback(callback);
    }

    @Override
    public Uuid clientInstanceId(Duration timeout) {
        return delegate().clientInstanceId(timeout);
    }

    @Override
    public Optional<Integer> acquisitionLockTimeoutMs() {
        return delegate().acquisitionLockTimeoutMs();
    }

    @Override
    public Map<MetricName, ? extends Metric> metrics() {
        return delegate().metrics();
    }

    @Override
    public void registerMetricForSubscription(KafkaMetric metric) {
        delegate().registerMetricForSubscription(metric);
    }

    @Override
    public void unregisterMetricFromSubscription(KafkaMetric metric) {
        delegate().unregisterMetricFromSubscription(metric);
    }

    @Override
    public void close() {
        delegate().close();
    }

    @Override
    public void close(Duration timeout) {
        delegate().close(timeout);
    }

    @Override
    public void wakeup() {
        delegate().wakeup();
    }
}
