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
package io.gapless.kafka.spring;

import io.gapless.kafka.core.GaplessConsumer;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.core.ConsumerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The factory's Spring features on consumers that are never polled (no broker: a Kafka consumer
 * connects only when used).
 */
class GaplessKafkaConsumerFactoryTest {

    private static Map<String, Object> props() {
        Map<String, Object> props = new HashMap<>();
        props.put("bootstrap.servers", "localhost:1");
        props.put("group.id", "orders-service");
        props.put("auto.offset.reset", "latest");
        props.put("auto.offset.reset.new.partitions", "earliest");
        return props;
    }

    @Test
    void createsGaplessConsumersThatEmulateTheNewPartitionsPolicy() {
        GaplessKafkaConsumerFactory<String, String> factory =
                new GaplessKafkaConsumerFactory<>(props(), new StringDeserializer(), new StringDeserializer());
        try (Consumer<String, String> consumer = factory.createConsumer()) {
            GaplessConsumer<String, String> gapless = assertInstanceOf(GaplessConsumer.class, consumer);
            assertEquals("emulate", gapless.newPartitionsMode());
        }
    }

    @Test
    void postProcessorsWrapTheGaplessConsumer() {
        GaplessKafkaConsumerFactory<String, String> factory =
                new GaplessKafkaConsumerFactory<>(props(), new StringDeserializer(), new StringDeserializer());
        List<Consumer<String, String>> seen = new ArrayList<>();
        factory.addPostProcessor(c -> {
            seen.add(c);
            return c;
        });
        try (Consumer<String, String> consumer = factory.createConsumer()) {
            assertEquals(1, seen.size());
            assertSame(consumer, seen.get(0));
            assertInstanceOf(GaplessConsumer.class, seen.get(0));
        }
    }

    @Test
    void clientIdPrefixAndSuffixReachTheConsumerAndEveryMetricIsTaggedWithIt() {
        GaplessKafkaConsumerFactory<String, String> factory =
                new GaplessKafkaConsumerFactory<>(props(), new StringDeserializer(), new StringDeserializer());
        Properties overrides = new Properties();
        overrides.setProperty("max.poll.records", "7");
        try (Consumer<String, String> consumer = factory.createConsumer("other-group", "orders", "-2", overrides)) {
            Set<String> clientIds = consumer.metrics().keySet().stream().map(MetricName::tags)
                    .filter(t -> t.containsKey("client-id")).map(t -> t.get("client-id")).collect(Collectors.toSet());
            assertEquals(Set.of("orders-2"), clientIds);
        }
    }

    @Test
    void listenersSeeEachConsumerAddedAndRemovedWithSpringsId() {
        GaplessKafkaConsumerFactory<String, String> factory =
                new GaplessKafkaConsumerFactory<>(props(), new StringDeserializer(), new StringDeserializer());
        factory.setBeanName("ordersConsumerFactory");
        List<String> events = new ArrayList<>();
        List<Consumer<String, String>> added = new ArrayList<>();
        ConsumerFactory.Listener<String, String> listener = new ConsumerFactory.Listener<>() {
            @Override
            public void consumerAdded(String id, Consumer<String, String> consumer) {
                events.add("added " + id);
                added.add(consumer);
            }

            @Override
            public void consumerRemoved(String id, Consumer<String, String> consumer) {
                events.add("removed " + id);
                assertSame(added.get(0), consumer);
            }
        };
        factory.addListener(listener);
        assertEquals(List.of(listener), factory.getListeners());
        Consumer<String, String> consumer = factory.createConsumer(null, "orders", "-0", null);
        assertSame(consumer, added.get(0));
        consumer.close();
        assertEquals(List.of("added ordersConsumerFactory.orders-0", "removed ordersConsumerFactory.orders-0"), events);
        assertTrue(factory.removeListener(listener));
    }

    @Test
    void deserializerSuppliersAreCalledPerConsumerAndConfigured() {
        List<Boolean> configured = new ArrayList<>();
        StringDeserializer probe = new StringDeserializer() {
            @Override
            public void configure(Map<String, ?> configs, boolean isKey) {
                configured.add(isKey);
                super.configure(configs, isKey);
            }
        };
        GaplessKafkaConsumerFactory<String, String> factory =
                new GaplessKafkaConsumerFactory<>(props(), () -> probe, StringDeserializer::new);
        factory.createConsumer().close();
        assertEquals(List.of(true), configured);
        factory.setConfigureDeserializers(false);
        factory.createConsumer().close();
        assertEquals(List.of(true), configured, "not configured again once configureDeserializers is false");
    }
}
