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

import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.EmbeddedKafkaTest;
import io.gapless.kafka.testkit.TestClients;
import io.gapless.kafka.testkit.TestTopics;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;
import org.springframework.kafka.listener.ContainerProperties;
import org.springframework.kafka.listener.MessageListener;

import java.util.HashMap;
import java.util.Map;
import java.util.stream.IntStream;

import static io.gapless.kafka.spring.GroupWaits.awaitCommitted;
import static io.gapless.kafka.spring.GroupWaits.awaitNoMembers;
import static io.gapless.kafka.spring.GrowingTopic.WAIT;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Spring Kafka's {@link ConcurrentMessageListenerContainer} (three consumers) on the Gapless
 * factory while its topic grows, once while the container runs and once while it is stopped:
 * every record written after the container started arrives exactly once, none written before.
 * The same container on Spring's own factory loses what was written to partitions added while it
 * was stopped.
 */
@EmbeddedKafkaTest
class GaplessListenerContainerIT {
    private static final int PER_PARTITION = 30;

    @ParameterizedTest(name = "group.protocol={0}")
    @ValueSource(strings = {"classic", "consumer"})
    void nothingLostNothingReplayedWhileTheTopicGrowsRunningAndStopped(String protocol, EmbeddedKafka kafka) {
        String group = TestTopics.unique("spring-growth");
        try (GrowingTopic topic = new GrowingTopic(kafka, "spring-growth", 2)) {
            topic.write("history", 20);
            // Bootstrap servers from Spring's supplier: the SDK's own helper clients must use them too.
            Map<String, Object> props = gaplessProps(kafka, protocol);
            props.put("bootstrap.servers", "localhost:1");
            GaplessKafkaConsumerFactory<String, String> factory = new GaplessKafkaConsumerFactory<>(props);
            factory.setBootstrapServersSupplier(kafka::bootstrapServers);
            RecordTally received = new RecordTally();
            ConcurrentMessageListenerContainer<String, String> container = container(factory, topic, group, received);
            container.start();
            try {
                awaitCommitted(kafka, group, topic, 2);
                topic.write("live", PER_PARTITION);
                topic.grow(4);
                topic.write("grown-running", PER_PARTITION);
                topic.awaitServed(received, "after-running-growth");

                container.stop();
                awaitNoMembers(kafka, group);
                topic.grow(6);
                topic.write("grown-stopped", PER_PARTITION);
                container.start();
                topic.awaitServed(received, "after-stopped-growth");
                await("every record written after the start").atMost(WAIT).until(() -> received.containsAll(afterStart(topic)));
            } finally {
                container.stop();
            }
            assertEquals(afterStart(topic).sorted(), received.sorted(),
                    "per partition, every record written after the container started, each exactly once, and no history");
        }
    }

    /** The contrast, measured in the same container: Spring's own factory and {@code auto.offset.reset=latest}. */
    @ParameterizedTest(name = "group.protocol={0}")
    @ValueSource(strings = {"classic", "consumer"})
    void springsOwnFactoryLosesWhatWasWrittenToPartitionsAddedWhileStopped(String protocol, EmbeddedKafka kafka) {
        String group = TestTopics.unique("spring-plain");
        try (GrowingTopic topic = new GrowingTopic(kafka, "spring-plain", 2)) {
            Map<String, Object> props = plainProps(kafka, protocol);
            RecordTally received = new RecordTally();
            ConcurrentMessageListenerContainer<String, String> container =
                    container(new DefaultKafkaConsumerFactory<>(props), topic, group, received);
            container.start();
            try {
                awaitCommitted(kafka, group, topic, 2);
                container.stop();
                awaitNoMembers(kafka, group);
                topic.grow(4);
                topic.write("grown-stopped", PER_PARTITION);
                container.start();
                topic.awaitServed(received, "after-stopped-growth");
                await("the old partitions' records").atMost(WAIT).until(() ->
                        received.count(0, v -> v.startsWith("grown-stopped")) == PER_PARTITION
                                && received.count(1, v -> v.startsWith("grown-stopped")) == PER_PARTITION);
            } finally {
                container.stop();
            }
            int lost = IntStream.of(2, 3).map(p -> PER_PARTITION - received.count(p, v -> v.startsWith("grown-stopped"))).sum();
            assertEquals(2 * PER_PARTITION, lost, "plain latest loses every record written to partitions added while stopped");
        }
    }

    static Map<String, Object> plainProps(EmbeddedKafka kafka, String protocol) {
        Map<String, Object> props = new HashMap<>();
        // Group ids come from the container (Spring's override path), not from these settings.
        TestClients.consumerProps(kafka, "unused", protocol).forEach((k, v) -> props.put((String) k, v));
        props.remove("group.id");
        props.put("key.deserializer", StringDeserializer.class);
        props.put("value.deserializer", StringDeserializer.class);
        props.put("auto.offset.reset", "latest");
        return props;
    }

    static Map<String, Object> gaplessProps(EmbeddedKafka kafka, String protocol) {
        Map<String, Object> props = plainProps(kafka, protocol);
        props.put("auto.offset.reset.new.partitions", "earliest");
        return props;
    }

    static ConcurrentMessageListenerContainer<String, String> container(ConsumerFactory<String, String> factory, GrowingTopic topic,
                                                                        String group, RecordTally received) {
        ContainerProperties containerProps = new ContainerProperties(topic.name());
        containerProps.setGroupId(group);
        containerProps.setMessageListener((MessageListener<String, String>) received::record);
        ConcurrentMessageListenerContainer<String, String> container = new ConcurrentMessageListenerContainer<>(factory, containerProps);
        container.setConcurrency(3);
        container.setBeanName("container-" + group);
        return container;
    }

    /** Everything written except the history that predates the group. */
    private static RecordTally afterStart(GrowingTopic topic) {
        RecordTally expected = new RecordTally();
        topic.written().sorted(v -> !v.startsWith("history")).forEach((p, values) -> values.forEach(v -> expected.add(p, v)));
        return expected;
    }
}
