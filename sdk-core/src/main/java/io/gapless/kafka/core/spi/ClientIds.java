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

import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The client id a decorator, its metrics and its helper clients go by: the one the user set, or
 * the one Kafka's own client would have given itself ({@code consumer-<group>-<n>}, from Kafka's
 * own sequence). The decorator then pins it on the client it wraps, so that Kafka's metrics and
 * the SDK's carry the same {@code client-id} tag and the sequence advances once per consumer, as
 * without the SDK.
 *
 * @since 0.1.0
 */
public final class ClientIds {
    private ClientIds() {
    }

    /** The configured {@code client.id}, or Kafka's default for a consumer (also a share consumer) with this config. */
    public static String consumer(Map<String, ?> config) {
        Object configured = config.get(CommonClientConfigs.CLIENT_ID_CONFIG);
        if (configured != null && !configured.toString().isBlank()) {
            return configured.toString();
        }
        // Only the keys the default depends on: bad values elsewhere are left for the real client to report.
        Map<String, Object> idKeys = new HashMap<>();
        for (String key : new String[]{ConsumerConfig.GROUP_ID_CONFIG, ConsumerConfig.GROUP_INSTANCE_ID_CONFIG}) {
            if (config.get(key) != null) {
                idKeys.put(key, config.get(key));
            }
        }
        // Placeholders for the required keys: the parse reads them, it does not use them.
        idKeys.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, "localhost:9092");
        idKeys.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        idKeys.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        return new DefaultClientId(idKeys).getString(CommonClientConfigs.CLIENT_ID_CONFIG);
    }

    /**
     * The configured {@code client.id} of a producer, or Kafka's default for a transactional one
     * ({@code producer-<transactional.id>}); {@code producer} otherwise, where only the created
     * client knows its id (see {@link #fromMetrics}).
     */
    public static String producer(Map<String, ?> config) {
        Object configured = config.get(CommonClientConfigs.CLIENT_ID_CONFIG);
        if (configured != null && !configured.toString().isBlank()) {
            return configured.toString();
        }
        Object transactionalId = config.get(ProducerConfig.TRANSACTIONAL_ID_CONFIG);
        return transactionalId == null || transactionalId.toString().isBlank() ? "producer" : "producer-" + transactionalId;
    }

    /** The {@code client-id} tag of a client's own metrics, if it has any (Kafka's clients always do; mocks do not). */
    public static Optional<String> fromMetrics(Map<MetricName, ? extends Metric> metrics) {
        return metrics.keySet().stream().map(m -> m.tags().get("client-id")).filter(Objects::nonNull).findFirst();
    }

    /** Kafka's ConsumerConfig, parsed without logging it: its post-processing derives the default client id. */
    private static final class DefaultClientId extends ConsumerConfig {
        DefaultClientId(Map<String, Object> config) {
            super(config, false);
        }
    }
}
