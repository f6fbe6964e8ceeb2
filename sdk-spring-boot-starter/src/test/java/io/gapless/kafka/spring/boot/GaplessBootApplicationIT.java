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
import io.gapless.kafka.spring.GrowingTopic;
import io.gapless.kafka.spring.RecordTally;
import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.EmbeddedKafkaTest;
import io.gapless.kafka.testkit.TestTopics;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.kafka.autoconfigure.DefaultKafkaConsumerFactoryCustomizer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.listener.MessageListenerContainer;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;

import static io.gapless.kafka.spring.GroupWaits.awaitCommitted;
import static io.gapless.kafka.spring.GroupWaits.awaitNoMembers;
import static io.gapless.kafka.spring.GrowingTopic.WAIT;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

/**
 * A Spring Boot application with only the starter and {@code spring.kafka.*} properties
 * ({@code auto-offset-reset=latest}, {@code properties.auto.offset.reset.new.partitions=earliest}),
 * a {@code @KafkaListener} with three consumers, while its topic grows with the listener running
 * and stopped: every record written after the start arrives exactly once, none of the history,
 * every consumer Boot's factory made is a {@link GaplessConsumer}, and the SDK's meters are in Boot's
 * Micrometer registry. The same application with
 * {@code gapless.enabled=false} (Boot's own factory) loses what was written to partitions added
 * while the listener was stopped.
 */
@EmbeddedKafkaTest
class GaplessBootApplicationIT {
    private static final int PER_PARTITION = 30;

    @ParameterizedTest(name = "group.protocol={0}")
    @ValueSource(strings = {"classic", "consumer"})
    void nothingLostNothingReplayedOnPartitionsAddedWhileRunningAndWhileStopped(String protocol, EmbeddedKafka kafka) {
        String group = TestTopics.unique("boot-growth");
        try (GrowingTopic topic = new GrowingTopic(kafka, "boot-growth", 2)) {
            topic.write("history", 20);
            try (ConfigurableApplicationContext app = start(kafka, topic, group, protocol, true)) {
                OrdersApplication orders = app.getBean(OrdersApplication.class);
                MessageListenerContainer container = app.getBean(KafkaListenerEndpointRegistry.class).getListenerContainer("orders");
                awaitCommitted(kafka, group, topic, 2);
                topic.write("live", PER_PARTITION);
                topic.grow(4);
                topic.write("grown-running", PER_PARTITION);
                topic.awaitServed(orders.received, "after-running-growth");

                growWhileStopped(kafka, group, topic, container, orders.received, 6);
                RecordTally expected = afterStart(topic);
                await("every record written after the start").atMost(WAIT).until(() -> orders.received.containsAll(expected));
                // Boot's Micrometer integration (its consumer-factory customizer) binds the SDK's metrics with Kafka's
                // while the consumers are open (closing one removes its meters).
                MeterRegistry meters = app.getBean(MeterRegistry.class);
                assertFalse(meters.find("kafka.gapless.consumer.new.partitions.mode").meters().isEmpty(), () -> "the SDK's meters in Boot's registry: "
                        + meters.getMeters().stream().map(m -> m.getId().getName()).filter(n -> n.contains("gapless") || n.contains("records.consumed"))
                        .distinct().sorted().toList());
                assertFalse(meters.find("kafka.consumer.fetch.manager.records.consumed.total").meters().isEmpty(), "Kafka's own meters");
                container.stop();
                assertEquals(expected.sorted(), orders.received.sorted(),
                        "per partition, every record written after the start, each exactly once, and no history");
                assertEquals(6, orders.consumers.size(), "three consumers per start, seen through Boot's customizer");
                orders.consumers.forEach(c -> assertInstanceOf(GaplessConsumer.class, c));
            }
        }
    }

    /** The contrast, same application and steps: Boot's own factory with {@code auto-offset-reset=latest}. */
    @Test
    void bootsOwnFactoryLosesWhatWasWrittenToPartitionsAddedWhileStopped(EmbeddedKafka kafka) {
        String group = TestTopics.unique("boot-plain");
        try (GrowingTopic topic = new GrowingTopic(kafka, "boot-plain", 2);
             ConfigurableApplicationContext app = start(kafka, topic, group, "classic", false)) {
            OrdersApplication orders = app.getBean(OrdersApplication.class);
            assertEquals(DefaultKafkaConsumerFactory.class, app.getBean(ConsumerFactory.class).getClass());
            MessageListenerContainer container = app.getBean(KafkaListenerEndpointRegistry.class).getListenerContainer("orders");
            awaitCommitted(kafka, group, topic, 2);
            growWhileStopped(kafka, group, topic, container, orders.received, 4);
            await("the old partitions' records").atMost(WAIT).until(() ->
                    IntStream.of(0, 1).allMatch(p -> orders.received.count(p, v -> v.startsWith("grown-stopped")) == PER_PARTITION));
            int lost = IntStream.of(2, 3).map(p -> PER_PARTITION - orders.received.count(p, v -> v.startsWith("grown-stopped"))).sum();
            assertEquals(2 * PER_PARTITION, lost, "Boot's own factory loses every record written to partitions added while stopped");
        }
    }

    static ConfigurableApplicationContext start(EmbeddedKafka kafka, GrowingTopic topic, String group, String protocol, boolean gapless) {
        List<String> properties = new ArrayList<>(List.of(
                "spring.kafka.bootstrap-servers=" + kafka.bootstrapServers(),
                "orders.group=" + group,
                "spring.kafka.consumer.auto-offset-reset=latest",
                "spring.kafka.consumer.key-deserializer=org.apache.kafka.common.serialization.StringDeserializer",
                "spring.kafka.consumer.value-deserializer=org.apache.kafka.common.serialization.StringDeserializer",
                "spring.kafka.consumer.properties.group.protocol=" + protocol,
                "spring.kafka.consumer.properties.metadata.max.age.ms=1000",
                "spring.kafka.consumer.properties.auto.offset.reset.new.partitions=earliest",
                "gapless.enabled=" + gapless,
                "orders.topic=" + topic.name()));
        kafka.clientProperties().forEach((k, v) -> {
            if (!"bootstrap.servers".equals(k)) {
                properties.add("spring.kafka.properties." + k + "=" + v);
            }
        });
        return new SpringApplicationBuilder(OrdersApplication.class).web(WebApplicationType.NONE)
                .properties(properties.toArray(String[]::new)).run();
    }

    /** Stops the listener, grows the topic and writes to every partition, starts it again and waits until every partition serves it. */
    private static void growWhileStopped(EmbeddedKafka kafka, String group, GrowingTopic topic, MessageListenerContainer container,
                                         RecordTally received, int partitions) {
        container.stop();
        awaitNoMembers(kafka, group);
        topic.grow(partitions);
        topic.write("grown-stopped", PER_PARTITION);
        container.start();
        topic.awaitServed(received, "after-stopped-growth");
    }

    private static RecordTally afterStart(GrowingTopic topic) {
        RecordTally expected = new RecordTally();
        topic.written().sorted(v -> !v.startsWith("history")).forEach((p, values) -> values.forEach(v -> expected.add(p, v)));
        return expected;
    }

    /** The application: one listener, and a customizer that sees every consumer Boot's factory creates. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class OrdersApplication {
        final RecordTally received = new RecordTally();
        final List<Consumer<?, ?>> consumers = new CopyOnWriteArrayList<>();

        @KafkaListener(id = "orders", groupId = "${orders.group}", topics = "${orders.topic}", concurrency = "3")
        void onOrder(ConsumerRecord<String, String> order) {
            received.record(order);
        }

        @Bean
        DefaultKafkaConsumerFactoryCustomizer consumerTracker() {
            return this::track;
        }

        private <K, V> void track(DefaultKafkaConsumerFactory<K, V> factory) {
            factory.addListener(new ConsumerFactory.Listener<K, V>() {
                @Override
                public void consumerAdded(String id, Consumer<K, V> consumer) {
                    consumers.add(consumer);
                }
            });
        }
    }
}
