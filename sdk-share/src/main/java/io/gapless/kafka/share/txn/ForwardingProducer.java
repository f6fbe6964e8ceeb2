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
package io.gapless.kafka.share.txn;

import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.metrics.KafkaMetric;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;

/**
 * A {@link Producer} that forwards every call to the producer {@link #delegate()} returns, like
 * sdk-core's {@code ForwardingConsumer}. The SDK's producer decorators extend it and override only
 * the methods that carry a feature, so a method Kafka adds to the interface is forwarded in one place.
 *
 * @since 0.1.0
 */
public abstract class ForwardingProducer<K, V> implements Producer<K, V> {

    /** The producer every call is forwarded to. */
    protected abstract Producer<K, V> delegate();

    @Override
    public void initTransactions() {
        delegate().initTransactions();
    }

    @Override
    public void beginTransaction() throws ProducerFencedException {
        delegate().beginTransaction();
    }

    @Override
    public void sendOffsetsToTransaction(Map<TopicPartition, OffsetAndMetadata> offsets, ConsumerGroupMetadata groupMetadata)
            throws ProducerFencedException {
        delegate().sendOffsetsToTransaction(offsets, groupMetadata);
    }

    @Override
    public void commitTransaction() throws ProducerFencedException {
        delegate().commitTransaction();
    }

    @Override
    public void abortTransaction() throws ProducerFencedException {
        delegate().abortTransaction();
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
    public Future<RecordMetadata> send(ProducerRecord<K, V> record) {
        return delegate().send(record);
    }

    @Override
    public Future<RecordMetadata> send(ProducerRecord<K, V> record, Callback callback) {
        return delegate().send(record, callback);
    }

    @Override
    public void flush() {
        delegate().flush();
    }

    @Override
    public List<PartitionInfo> partitionsFor(String topic) {
        return delegate().partitionsFor(topic);
    }

    @Override
    public Map<MetricName, ? extends Metric> metrics() {
        return delegate().metrics();
    }

    @Override
    public Uuid clientInstanceId(Duration timeout) {
        return delegate().clientInstanceId(timeout);
    }

    @Override
    public void close() {
        delegate().close();
    }

    @Override
    public void close(Duration timeout) {
        delegate().close(timeout);
    }
}
