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
package io.gapless.kafka.core;

import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.TestClients;
import io.gapless.kafka.testkit.TestTopics;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The baseline topic the SDK creates is as safe as the cluster allows, whatever the broker's
 * defaults: on two brokers whose {@code default.replication.factor} is 1, it gets two replicas and
 * {@code min.insync.replicas=2}, one partition, compaction and broker time.
 */
class BaselineTopicReplicationIT {

    @Test
    void theGroupsOwnTopicIsReplicatedOnEveryBrokerUpToThree() throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().nodes(2).brokerProperty("default.replication.factor", 1)
                .brokerProperty("min.insync.replicas", 1).start()) {
            String topic = TestTopics.unique("orders");
            String group = TestTopics.unique("g");
            kafka.createTopic(topic, 1);
            try (GaplessConsumer<String, String> consumer = new GaplessConsumer<>(ConsumerITSupport.props(kafka, group, "consumer",
                    "latest", "earliest"))) {
                consumer.subscribe(List.of(topic));
                TestClients.pollUntil(consumer, Duration.ofSeconds(45), r -> {
                    consumer.assignment().forEach(tp -> consumer.position(tp, Duration.ofSeconds(45)));
                    return consumer.assignment().size() == 1;
                });
            }
            String baseline = "__gapless_baseline." + group;
            TopicDescription d = kafka.admin().describeTopics(List.of(baseline)).allTopicNames().get().get(baseline);
            assertEquals(1, d.partitions().size(), "one partition: the group's own topic");
            assertEquals(2, d.partitions().get(0).replicas().size(), "min(3, brokers) replicas, not the broker's default of 1");
            ConfigResource r = new ConfigResource(ConfigResource.Type.TOPIC, baseline);
            var config = kafka.admin().describeConfigs(List.of(r)).all().get().get(r);
            assertEquals("2", config.get("min.insync.replicas").value(), "an acknowledged baseline record is on two brokers");
            assertEquals("compact", config.get("cleanup.policy").value());
            assertEquals("LogAppendTime", config.get("message.timestamp.type").value());
        }
    }
}
