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

import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.utils.Utils;

import java.io.Closeable;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * Transactional share acknowledgements for pipelines with no Kafka output (KIP-1289, 3.2), for
 * example a framework that commits its own checkpoint and then the acknowledgements. Each
 * {@link #commitAcknowledgements} runs {@code beginTransaction}, {@code sendShareAcknowledgementsToTransaction}
 * and {@code commitTransaction} on an internal {@link TransactionalShareProducer}; the same
 * {@code gapless.*} settings apply. Use it from the thread that uses the consumer.
 *
 * @since 0.1.0
 */
public class TransactionalShareAcknowledger implements Closeable {
    private final TransactionalShareProducer<byte[], byte[]> producer;

    /**
     * An acknowledger whose transactions carry no output.
     *
     * @param config producer settings; {@code transactional.id} is required, serializers are not
     * @throws org.apache.kafka.common.config.ConfigException if a setting is invalid, naming the key and the value
     * @throws io.gapless.kafka.core.UnsupportedClientVersionException if the kafka-clients on the classpath is older than 4.2
     */
    public TransactionalShareAcknowledger(Properties config) {
        this(Utils.propsToMap(config));
    }

    /**
     * An acknowledger whose transactions carry no output.
     *
     * @param config producer settings; {@code transactional.id} is required, serializers are not
     * @throws org.apache.kafka.common.config.ConfigException if a setting is invalid, naming the key and the value
     * @throws io.gapless.kafka.core.UnsupportedClientVersionException if the kafka-clients on the classpath is older than 4.2
     */
    public TransactionalShareAcknowledger(Map<String, Object> config) {
        Map<String, Object> settings = new HashMap<>(config);
        this.producer = new TransactionalShareProducer<>(settings, new ByteArraySerializer(), new ByteArraySerializer());
    }

    /** Initializes the internal transactional producer (fences earlier instances with the same id). Call once. */
    public void initTransactions() {
        producer.initTransactions();
    }

    /**
     * Atomically commits the acknowledgements.
     *
     * @throws org.apache.kafka.common.errors.InvalidRecordStateException for types other than
     *         ACCEPT/REJECT, offsets the consumer does not hold, or records already committed elsewhere
     * @throws ProducerFencedException if another instance with the same transactional.id took over
     */
    public void commitAcknowledgements(Map<TopicIdPartition, List<AcknowledgementBatch>> acknowledgements, ShareGroupMetadata metadata) {
        commit(() -> producer.sendShareAcknowledgementsToTransaction(acknowledgements, metadata));
    }

    /**
     * Same as {@link #commitAcknowledgements(Map, ShareGroupMetadata)}, with the acknowledgements in
     * either shape (for example {@code GaplessShareConsumer.acknowledgementsForTransaction()}).
     */
    public void commitAcknowledgements(ShareAcknowledgements acknowledgements, ShareGroupMetadata metadata) {
        commit(() -> producer.sendShareAcknowledgementsToTransaction(acknowledgements, metadata));
    }

    private void commit(Runnable stage) {
        producer.beginTransaction();
        try {
            stage.run();
        } catch (RuntimeException e) {
            producer.abortTransaction();
            throw e;
        }
        producer.commitTransaction();
    }

    /** Aborts a transaction left open by a failed commit; its records come back for redelivery. */
    public void abortAcknowledgements() {
        producer.abortTransaction();
    }

    /** The internal producer's metrics, including the SDK's ledger metrics. */
    public Map<org.apache.kafka.common.MetricName, ? extends org.apache.kafka.common.Metric> metrics() {
        return producer.metrics();
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(30));
    }
}
