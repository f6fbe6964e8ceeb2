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
package io.gapless.kafka.spring.boot;

import io.gapless.kafka.core.GaplessConsumerConfig;
import io.gapless.kafka.share.GaplessShareConfig;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.config.SslConfigs;
import org.springframework.boot.kafka.autoconfigure.KafkaConnectionDetails;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.boot.kafka.autoconfigure.SslBundleSslEngineFactory;
import org.springframework.boot.ssl.SslBundle;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The settings Boot gives its own consumer factory ({@code spring.kafka.*}, then the connection
 * details: bootstrap servers, security protocol, SSL bundle), plus the typed {@code gapless.*}
 * properties; for share consumers without the keys Kafka's share consumer refuses.
 */
final class BootClientSettings {
    /** Consumer-group keys a Kafka share consumer rejects at construction (Kafka's ShareConsumerConfig list, 4.4). */
    static final List<String> NOT_FOR_SHARE_CONSUMERS = List.of(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
            ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, ConsumerConfig.ISOLATION_LEVEL_CONFIG,
            ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, ConsumerConfig.INTERCEPTOR_CLASSES_CONFIG,
            ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, ConsumerConfig.GROUP_PROTOCOL_CONFIG,
            ConsumerConfig.GROUP_REMOTE_ASSIGNOR_CONFIG, ConsumerConfig.AUTO_COMMIT_INTERVAL_MS_CONFIG,
            // the consumer-group forms of the SDK's KIP-1327 keys: share groups have their own
            GaplessConsumerConfig.AUTO_OFFSET_RESET_NEW_PARTITIONS_CONFIG, GaplessConsumerConfig.NEW_PARTITIONS_MODE_CONFIG);

    private BootClientSettings() {
    }

    static Map<String, Object> consumer(KafkaProperties kafka, KafkaConnectionDetails connection, GaplessProperties gapless) {
        Map<String, Object> props = fromBoot(kafka, connection);
        GaplessProperties.Consumer typed = gapless.getConsumer();
        putIfSet(props, GaplessConsumerConfig.AUTO_OFFSET_RESET_NEW_PARTITIONS_CONFIG, typed.getAutoOffsetResetNewPartitions());
        putIfSet(props, GaplessConsumerConfig.NEW_PARTITIONS_MODE_CONFIG, typed.getNewPartitionsMode());
        putIfSet(props, GaplessConsumerConfig.BASELINE_TOPIC_PREFIX_CONFIG, typed.getBaselineTopicPrefix());
        return props;
    }

    static Map<String, Object> share(KafkaProperties kafka, KafkaConnectionDetails connection, GaplessProperties gapless) {
        Map<String, Object> props = fromBoot(kafka, connection);
        NOT_FOR_SHARE_CONSUMERS.forEach(props::remove);
        GaplessProperties.Share typed = gapless.getShare();
        putIfSet(props, GaplessShareConfig.AUTO_OFFSET_RESET_CONFIG, typed.getAutoOffsetReset());
        putIfSet(props, GaplessShareConfig.AUTO_OFFSET_RESET_NEW_PARTITIONS_CONFIG, typed.getAutoOffsetResetNewPartitions());
        putIfSet(props, GaplessShareConfig.FALLBACK_CONFIG, typed.getTransactionalFallback());
        putIfSet(props, GaplessShareConfig.LEDGER_TOPIC_PREFIX_CONFIG, typed.getLedgerTopicPrefix());
        putIfSet(props, GaplessConsumerConfig.BASELINE_TOPIC_PREFIX_CONFIG, gapless.getConsumer().getBaselineTopicPrefix());
        return props;
    }

    /** What Boot's KafkaAutoConfiguration gives its DefaultKafkaConsumerFactory, in its order. */
    private static Map<String, Object> fromBoot(KafkaProperties kafka, KafkaConnectionDetails connection) {
        Map<String, Object> props = new HashMap<>(kafka.buildConsumerProperties());
        KafkaConnectionDetails.Configuration consumer = connection.getConsumer();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, consumer.getBootstrapServers());
        String protocol = consumer.getSecurityProtocol();
        if (protocol != null && !protocol.isEmpty()) {
            props.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, protocol);
        }
        SslBundle bundle = consumer.getSslBundle();
        if (bundle != null) {
            props.put(SslConfigs.SSL_ENGINE_FACTORY_CLASS_CONFIG, SslBundleSslEngineFactory.class);
            props.put(SslBundle.class.getName(), bundle);
        }
        return props;
    }

    private static void putIfSet(Map<String, Object> props, String key, String value) {
        if (value != null && !value.isBlank()) {
            props.put(key, value.trim());
        }
    }
}
