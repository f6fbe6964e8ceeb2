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

import io.gapless.kafka.core.spi.ClientIds;
import io.gapless.kafka.core.spi.ModeDecision.Fallback;
import io.gapless.kafka.share.ledger.LedgerSettings;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.utils.Utils;

import java.util.HashMap;
import java.util.Map;

/**
 * The settings {@link TransactionalShareProducer} adds to Kafka's producer settings: the
 * {@link ShareTransactionConfigs} (fallback and ack ledger). They go into the same
 * {@code Properties}/{@code Map} as the Kafka settings and are removed before the config reaches
 * the Kafka producer. Invalid values fail with a {@link ConfigException} naming key and value.
 *
 * @since 0.1.0
 */
public final class TransactionalShareProducerConfig extends AbstractConfig {
    /** Prefix of every SDK setting; such keys are never passed to the Kafka clients. */
    public static final String PREFIX = "gapless.";

    private static final ConfigDef CONFIG = ShareTransactionConfigs.addTo(new ConfigDef());

    /**
     * Parses and validates the SDK keys of a producer config; Kafka's keys are kept for the Kafka producer.
     *
     * @throws ConfigException naming the key and value on bad input
     */
    public TransactionalShareProducerConfig(Map<?, ?> configs) {
        super(CONFIG, configs, false);
    }

    /** The definition of every SDK setting of the producer (for documentation tools). */
    public static ConfigDef configDef() {
        return new ConfigDef(CONFIG);
    }

    /** What to do where Kafka cannot stage share acknowledgements in a transaction. */
    public Fallback fallback() {
        return ShareTransactionConfigs.fallback(this);
    }

    /** The prefix of the per-group topics recording that a share group moved to native KIP-1289. */
    public String modeTopicPrefix() {
        return ShareTransactionConfigs.modeTopicPrefix(this);
    }

    /** The ack-ledger settings. */
    public LedgerSettings ledger() {
        return ShareTransactionConfigs.ledgerSettings(this);
    }

    /** The configured {@code transactional.id}, or null. */
    String transactionalId() {
        Object id = originals().get(ProducerConfig.TRANSACTIONAL_ID_CONFIG);
        return id == null ? null : id.toString();
    }

    /** {@code max.block.ms}: the bound of one ledger check. */
    long maxBlockMs() {
        return Long.parseLong(String.valueOf(originals().getOrDefault(ProducerConfig.MAX_BLOCK_MS_CONFIG, 60_000)));
    }

    /**
     * The producer's {@code client.id}, or Kafka's default for a transactional producer
     * ({@code producer-<transactional.id>}); only the created client knows a default non-transactional id.
     */
    String clientId() {
        return ClientIds.producer(originals());
    }

    /** The Kafka settings: everything but the SDK's keys. */
    Map<String, Object> kafkaConfigs() {
        return withoutSdkKeys(originals());
    }

    /** The test hook of {@link TransactionPhase#LISTENER_CONFIG}, or a listener that does nothing. */
    TransactionPhase.Listener phaseListener() {
        Object listener = originals().get(TransactionPhase.LISTENER_CONFIG);
        if (listener == null) {
            return TransactionPhase.Listener.NONE;
        }
        if (listener instanceof TransactionPhase.Listener l) {
            return l;
        }
        throw new ConfigException(TransactionPhase.LISTENER_CONFIG, listener, "must be a TransactionPhase.Listener instance");
    }

    /** The serializer configured under {@code key}, instantiated and configured like Kafka's producer does. */
    Serializer<?> serializer(String key, boolean isKey) {
        Object value = originals().get(key);
        if (value == null) {
            throw new ConfigException(key, null, "a serializer is required when none is passed to the constructor");
        }
        Serializer<?> s;
        try {
            if (value instanceof Serializer<?> instance) {
                s = instance;
            } else if (value instanceof Class<?> cls) {
                s = (Serializer<?>) Utils.newInstance(cls);
            } else {
                s = Utils.newInstance(value.toString().trim(), Serializer.class);
            }
        } catch (ClassNotFoundException | RuntimeException e) {
            throw new ConfigException(key, value, "cannot instantiate the serializer: " + e);
        }
        s.configure(kafkaConfigs(), isKey);
        return s;
    }

    /** A copy of {@code clientConfig} without the SDK's keys, for the Kafka client underneath. */
    public static Map<String, Object> withoutSdkKeys(Map<?, ?> clientConfig) {
        Map<String, Object> result = new HashMap<>();
        clientConfig.forEach((k, v) -> {
            String key = String.valueOf(k);
            if (!key.startsWith(PREFIX)) {
                result.put(key, v);
            }
        });
        return result;
    }
}
