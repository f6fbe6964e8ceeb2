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

import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Serializer;

import java.util.Map;
import java.util.function.Predicate;

/**
 * The application's serializer, run by Kafka's producer itself, that lets the SDK's own ledger
 * entries through as the bytes they already are. Ledger entries must ride in the application's
 * transaction, hence on its producer; serializing there (rather than in the decorator) keeps
 * {@code send} a plain forward: one record object per send, the key object for a custom
 * partitioner, the record's own headers for the serializer, as with {@code KafkaProducer}.
 */
final class LedgerAwareSerializer<T> implements Serializer<Object> {
    private final Serializer<T> application;
    private final Predicate<String> ledgerTopic;

    LedgerAwareSerializer(Serializer<T> application, Predicate<String> ledgerTopic) {
        this.application = application;
        this.ledgerTopic = ledgerTopic;
    }

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        // The application's serializer was configured when it was created (or is the user's own instance).
    }

    @Override
    public byte[] serialize(String topic, Object data) {
        return serialize(topic, null, data);
    }

    @Override
    @SuppressWarnings("unchecked")
    public byte[] serialize(String topic, Headers headers, Object data) {
        if (data instanceof byte[] bytes && ledgerTopic.test(topic)) {
            return bytes;
        }
        return headers == null ? application.serialize(topic, (T) data) : application.serialize(topic, headers, (T) data);
    }

    @Override
    public void close() {
        application.close();
    }
}
