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

import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.utils.Utils;

import java.time.Duration;
import java.util.concurrent.Future;

/**
 * A byte-array producer given to {@link TransactionalShareProducer}'s test constructor (Kafka's
 * {@code MockProducer}), seen as a {@code Producer<K, V>}: serializes keys and values first, as
 * the Kafka producer the SDK builds does inside {@code send}, and closes the serializers with it.
 */
final class SerializingProducer<K, V> extends ForwardingProducer<K, V> {
    private final Producer<byte[], byte[]> bytes;
    private final LedgerAwareSerializer<K> keys;
    private final LedgerAwareSerializer<V> values;

    SerializingProducer(Producer<byte[], byte[]> bytes, LedgerAwareSerializer<K> keys, LedgerAwareSerializer<V> values) {
        this.bytes = bytes;
        this.keys = keys;
        this.values = values;
    }

    @Override
    @SuppressWarnings("unchecked")
    protected Producer<K, V> delegate() {
        return (Producer<K, V>) (Producer<?, ?>) bytes;
    }

    @Override
    public Future<RecordMetadata> send(ProducerRecord<K, V> record) {
        return send(record, null);
    }

    @Override
    public Future<RecordMetadata> send(ProducerRecord<K, V> record, Callback callback) {
        byte[] key = keys.serialize(record.topic(), record.headers(), record.key());
        byte[] value = values.serialize(record.topic(), record.headers(), record.value());
        return bytes.send(new ProducerRecord<>(record.topic(), record.partition(), record.timestamp(), key, value, record.headers()),
                callback);
    }

    @Override
    public void close() {
        close(Duration.ofMillis(Long.MAX_VALUE));
    }

    @Override
    public void close(Duration timeout) {
        try {
            bytes.close(timeout);
        } finally {
            Utils.closeQuietly(keys, "key serializer");
            Utils.closeQuietly(values, "value serializer");
        }
    }
}
