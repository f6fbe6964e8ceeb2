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
package io.gapless.kafka.testkit.legacy;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.FinalizedVersionRange;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.server.common.MetadataVersion;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LegacyKafkaLifecycleIT {

    @Test
    void runsAnOlderBrokerInAChildJvmThatServesShareGroupsAndStopsOnClose() throws Exception {
        LegacyKafka legacy = LegacyKafka.start();
        try (legacy;
             Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, legacy.bootstrapServers()))) {
            assertTrue(legacy.kafkaVersion().matches("4\\.[23]\\.\\d+"), "a 4.2 or 4.3 release, got " + legacy.kafkaVersion());
            assertTrue(legacy.metadataVersion().startsWith(legacy.kafkaVersion().substring(0, 3) + "-IV"), legacy.metadataVersion());
            FinalizedVersionRange mv = admin.describeFeatures().featureMetadata().get()
                    .finalizedFeatures().get("metadata.version");
            assertTrue(mv.maxVersionLevel() < MetadataVersion.latestProduction().featureLevel(),
                    "legacy metadata.version " + mv + " must be older than this JVM's " + MetadataVersion.latestProduction());

            admin.createTopics(List.of(new NewTopic("legacy-smoke", Optional.of(1), Optional.empty()))).all().get();
            admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.GROUP, "legacy-smoke-group"),
                    List.of(new org.apache.kafka.clients.admin.AlterConfigOp(
                            new org.apache.kafka.clients.admin.ConfigEntry("share.auto.offset.reset", "earliest"),
                            org.apache.kafka.clients.admin.AlterConfigOp.OpType.SET)))).all().get();
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                    Map.of("bootstrap.servers", legacy.bootstrapServers()), new StringSerializer(), new StringSerializer())) {
                for (int i = 0; i < 10; i++) {
                    producer.send(new ProducerRecord<>("legacy-smoke", "v" + i)).get();
                }
            }
            List<String> received = new ArrayList<>();
            try (KafkaShareConsumer<String, String> consumer = new KafkaShareConsumer<>(
                    Map.of("bootstrap.servers", legacy.bootstrapServers(), "group.id", "legacy-smoke-group"),
                    new StringDeserializer(), new StringDeserializer())) {
                consumer.subscribe(List.of("legacy-smoke"));
                await().atMost(Duration.ofSeconds(30)).until(() -> {
                    for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                        received.add(r.value());
                    }
                    return received.size() >= 10;
                });
            }
            assertEquals(10, received.size(), "records " + received);
        }
        assertFalse(legacy.isRunning(), "child JVM " + legacy.pid() + " still running after close");
    }
}
