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
import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.EmbeddedKafkaTest;
import io.gapless.kafka.testkit.TestTopics;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.MetricName;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.core.MicrometerConsumerListener;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

import static io.gapless.kafka.spring.GrowingTopic.WAIT;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Spring Boot binds consumers to Micrometer with a {@link ConsumerFactory.Listener}
 * ({@link MicrometerConsumerListener}): with the Gapless factory it sees every consumer of a
 * container added and removed, and the SDK's own metrics reach the registry beside Kafka's,
 * tagged with the same client id.
 */
@EmbeddedKafkaTest
class ConsumerFactoryListenerIT {

    @Test
    void listenersSeeTheGaplessConsumersOfAContainerAddedAndRemoved(EmbeddedKafka kafka) {
        String group = TestTopics.unique("spring-listener");
        try (GrowingTopic topic = new GrowingTopic(kafka, "spring-listener", 2)) {
            GaplessKafkaConsumerFactory<String, String> factory =
                    new GaplessKafkaConsumerFactory<>(GaplessListenerContainerIT.gaplessProps(kafka, "classic"));
            factory.setBeanName("ordersConsumerFactory");
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            factory.addListener(new MicrometerConsumerListener<>(registry));
            Map<String, Consumer<String, String>> added = new ConcurrentHashMap<>();
            Map<String, Consumer<String, String>> removed = new ConcurrentHashMap<>();
            factory.addListener(new ConsumerFactory.Listener<>() {
                @Override
                public void consumerAdded(String id, Consumer<String, String> consumer) {
                    added.put(id, consumer);
                }

                @Override
                public void consumerRemoved(String id, Consumer<String, String> consumer) {
                    removed.put(id, consumer);
                }
            });
            RecordTally received = new RecordTally();
            ConcurrentMessageListenerContainer<String, String> container =
                    GaplessListenerContainerIT.container(factory, topic, group, received);
            container.setConcurrency(2);
            container.start();
            try {
                await("two consumers added").atMost(WAIT).until(() -> added.size() == 2);
                topic.awaitServed(received, "served");
                for (Map.Entry<String, Consumer<String, String>> e : added.entrySet()) {
                    assertInstanceOf(GaplessConsumer.class, e.getValue());
                    String clientId = kafkaClientId(e.getValue());
                    assertEquals("ordersConsumerFactory." + clientId, e.getKey(), "Spring's id: bean name and the consumer's client id");
                    assertNotNull(meter(registry, "kafka.consumer.fetch.manager.records.consumed.total", e.getKey(), clientId),
                            "Kafka's own metric of " + e.getKey());
                    Gauge mode = (Gauge) meter(registry, "kafka.gapless.consumer.new.partitions.mode", e.getKey(), clientId);
                    assertNotNull(mode, "the SDK's mode gauge of " + e.getKey() + " with the consumer's client id; meters: " + gaplessMeters(registry));
                    assertEquals(2.0, mode.value(), "mode code 2: emulate");
                }
            } finally {
                container.stop();
            }
            assertEquals(added, removed, "every consumer added is removed, with the same id");
            assertTrue(gaplessMeters(registry).isEmpty(), "Micrometer unbound the removed consumers: " + gaplessMeters(registry));
        }
    }

    /** The client id Kafka's own consumer metrics carry. */
    private static String kafkaClientId(Consumer<?, ?> consumer) {
        Set<String> ids = consumer.metrics().keySet().stream().filter(m -> m.group().equals("consumer-metrics"))
                .map(MetricName::tags).map(t -> t.get("client-id")).collect(Collectors.toSet());
        assertEquals(1, ids.size(), "one client id: " + ids);
        return ids.iterator().next();
    }

    private static Meter meter(SimpleMeterRegistry registry, String name, String springId, String clientId) {
        return registry.find(name).tag("spring.id", springId).tag("client.id", clientId).meter();
    }

    private static List<String> gaplessMeters(SimpleMeterRegistry registry) {
        return registry.getMeters().stream().map(Meter::getId).filter(id -> id.getName().startsWith("kafka.gapless"))
                .map(id -> id.getName() + id.getTags()).toList();
    }
}
