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

import io.gapless.kafka.core.GaplessConsumer;
import io.gapless.kafka.core.GaplessConsumerConfig;
import io.gapless.kafka.share.GaplessShareConfig;
import io.gapless.kafka.share.GaplessShareConsumer;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ShareConsumer;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.core.ShareConsumerFactory;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Collection;
import java.util.function.Supplier;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The Gapless clients the auto-configured factories have open, with the mode each runs in and
 * the state topic it relies on: what the health contributor reports. Told by the factories
 * (their listener lists), never by a static registry.
 *
 * @since 0.1.0
 */
public final class GaplessClients {

    /**
     * One open client.
     *
     * @param id        Spring's id for it ({@code <factory bean>.<client-id>})
     * @param kind      {@code consumer} or {@code share-consumer}
     * @param group     its group id
     * @param mode      how its feature is delivered: {@code off}, {@code native}, {@code emulate}
     *                  ({@code at-least-once} for share consumers whose broker lacks KIP-1289)
     * @param stateTopic the SDK topic the mode relies on (the group baseline or the ack ledger), or
     *                  {@code null} where the mode needs none
     * @since 0.1.0
     */
    public record Client(String id, String kind, String group, String mode, String stateTopic) {
    }

    private static final Logger log = LoggerFactory.getLogger(GaplessClients.class);

    private final Map<Object, Client> open = new ConcurrentHashMap<>();

    /** The clients open now. */
    public Collection<Client> open() {
        return List.copyOf(open.values());
    }

    <K, V> ConsumerFactory.Listener<K, V> consumerListener(ConsumerFactory<K, V> factory) {
        return new ConsumerFactory.Listener<>() {
            @Override
            public void consumerAdded(String id, Consumer<K, V> consumer) {
                if (consumer instanceof GaplessConsumer<K, V> gapless) {
                    track(consumer, () -> {
                        String group = groupOf(factory.getConfigurationProperties(), gapless);
                        String mode = gapless.newPartitionsMode();
                        String topic = "emulate".equals(mode) && group != null ? baselineTopic(factory.getConfigurationProperties(), group) : null;
                        return new Client(id, "consumer", group, mode, topic);
                    });
                }
            }

            @Override
            public void consumerRemoved(String id, Consumer<K, V> consumer) {
                open.remove(consumer);
            }
        };
    }

    <K, V> ShareConsumerFactory.Listener<K, V> shareListener(ShareConsumerFactory<K, V> factory) {
        return new ShareConsumerFactory.Listener<>() {
            @Override
            public void consumerAdded(String id, ShareConsumer<K, V> consumer) {
                if (consumer instanceof GaplessShareConsumer<K, V> gapless) {
                    track(consumer, () -> {
                        String group = shareGroupOf(gapless);
                        String mode = gapless.transactionalAcknowledgementsMode();
                        String topic = "emulate".equals(mode) && group != null
                                ? new GaplessShareConfig(withGroup(factory.getConfigurationProperties(), group)).ledgerTopic() : null;
                        return new Client(id, "share-consumer", group, mode, topic);
                    });
                }
            }

            @Override
            public void consumerRemoved(String id, ShareConsumer<K, V> consumer) {
                open.remove(consumer);
            }
        };
    }

    /** Reporting must never fail the creation of the client it reports on. */
    private void track(Object client, Supplier<Client> describe) {
        try {
            open.put(client, describe.get());
        } catch (RuntimeException e) {
            log.warn("Gapless health: cannot describe a new client, it is left out of the health report", e);
        }
    }

    /** The group comes from the container (Spring's override), not from the factory's settings. */
    private static Map<String, Object> withGroup(Map<String, Object> factoryProps, String group) {
        Map<String, Object> props = new HashMap<>(factoryProps);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        return props;
    }

    private static String baselineTopic(Map<String, Object> factoryProps, String group) {
        return new GaplessConsumerConfig(withGroup(factoryProps, group)).baselineTopic(group);
    }

    private static String shareGroupOf(GaplessShareConsumer<?, ?> consumer) {
        try {
            return consumer.shareGroupMetadata().groupId();
        } catch (RuntimeException noGroup) {
            return null;
        }
    }

    private static String groupOf(Map<String, Object> factoryProps, Consumer<?, ?> consumer) {
        try {
            return consumer.groupMetadata().groupId();
        } catch (RuntimeException noGroup) {
            Object configured = factoryProps.get(ConsumerConfig.GROUP_ID_CONFIG);
            return configured == null ? null : configured.toString();
        }
    }
}
