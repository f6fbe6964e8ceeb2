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
package io.gapless.kafka.testkit;

import io.gapless.kafka.testkit.internal.TestcontainersKafka;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;

import java.time.Duration;
import java.util.List;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The container backend serves the same helpers; skipped, with the reason, where no Docker engine answers. */
@EnabledIf(value = "containersCanRun", disabledReason = "Kafka in a container cannot run here: no Docker engine answers "
        + "or Testcontainers is not on the classpath")
class ContainerBackendIT {

    static boolean containersCanRun() {
        return TestcontainersKafka.unavailableReason().isEmpty();
    }

    @Test
    void aContainerClusterCreatesGrowsProducesAndConsumes() {
        try (EmbeddedKafka kafka = EmbeddedKafka.testcontainers()) {
            assertTrue(kafka.isExternal() && kafka.nodes().isEmpty(), "no in-JVM nodes");
            kafka.createTopic("tc", 1);
            kafka.addPartitions("tc", 2);
            assertEquals(2, kafka.partitionCount("tc"));
            try (KafkaProducer<String, String> producer = TestClients.producer(kafka)) {
                TestClients.produce(producer, "tc", 1, "v", 10);
            }
            Properties props = TestClients.consumerProps(kafka, TestTopics.unique("g"), "consumer");
            props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
            try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props)) {
                consumer.assign(List.of(new TopicPartition("tc", 1)));
                assertEquals(10, TestClients.pollUntil(consumer, Duration.ofSeconds(30), r -> r.size() >= 10).size());
            }
        }
    }
}
