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

import io.gapless.kafka.core.BrokerCapabilities;
import io.gapless.kafka.core.spi.ConnectionConfigs;
import org.apache.kafka.clients.consumer.ShareConsumer;
import org.apache.kafka.clients.producer.Producer;

import java.util.Map;

/**
 * KIP-1289 as Kafka itself provides it: whether this kafka-clients and broker have it, and the
 * calls that hand the SDK's types to Kafka's API and back. Tests inject an implementation.
 *
 * @since 0.1.0
 */
public interface NativeShareTransactions {

    /**
     * The real capability: Kafka's API found by reflection with its exact signatures, the broker
     * asked for its finalized feature levels with the connection settings of {@code clientConfig}.
     */
    static NativeShareTransactions reflective(Map<String, Object> clientConfig) {
        return new ReflectiveNativeShareTransactions(Kip1289Api.kafka(), ConnectionConfigs.from(clientConfig, "kip1289-probe"));
    }

    /** Whether kafka-clients on the classpath has the API (checked without the broker). */
    boolean clientSupports();

    /** The broker's finalized feature levels; only asked when {@link #clientSupports()} is true. */
    BrokerCapabilities broker();

    /** Kafka's {@code consumer.acknowledgementsForTransaction()}. */
    ShareAcknowledgements acknowledgementsForTransaction(ShareConsumer<?, ?> consumer);

    /** Kafka's {@code consumer.shareGroupMetadata()}. */
    ShareGroupMetadata shareGroupMetadata(ShareConsumer<?, ?> consumer);

    /** Kafka's {@code producer.sendShareAcknowledgementsToTransaction(acknowledgements, metadata)}. */
    void sendShareAcknowledgementsToTransaction(Producer<?, ?> producer, ShareAcknowledgements acknowledgements, ShareGroupMetadata metadata);
}
