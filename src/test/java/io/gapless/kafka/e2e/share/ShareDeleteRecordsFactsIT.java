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
package io.gapless.kafka.e2e.share;

import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.EmbeddedKafkaTest;
import io.gapless.kafka.testkit.TestTopics;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A Kafka 4.4 fact, plain {@link KafkaShareConsumer} only (no SDK): a consumer holds the first
 * records of one batch ({@code share.acquire.mode=record_limit}, {@code max.poll.records=3}),
 * {@code deleteRecords} moves the log start into the middle of that batch, the consumer
 * acknowledges what it holds. Does the group go on delivering the records above the new log start?
 */
@EmbeddedKafkaTest
class ShareDeleteRecordsFactsIT {
    private static final int RECORDS = 15;
    private static final long DELETE_BELOW = 6;

    private final EmbeddedKafka kafka;

    ShareDeleteRecordsFactsIT(EmbeddedKafka kafka) {
        this.kafka = kafka;
    }

    @ParameterizedTest
    @ValueSource(strings = {"explicit", "implicit"})
    void recordsAboveALogStartMovedIntoAnAcquiredBatchAreStillDelivered(String mode) throws Exception {
        String topic = TestTopics.unique("facts-delete-" + mode);
        String group = topic + "-group";
        kafka.createTopic(topic, 1);
        kafka.admin().incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.GROUP, group), List.of(
                new AlterConfigOp(new ConfigEntry("share.auto.offset.reset", "earliest"), AlterConfigOp.OpType.SET))))
                .all().get(30, TimeUnit.SECONDS);
        Map<String, Object> pc = new HashMap<>();
        pc.put("bootstrap.servers", kafka.bootstrapServers());
        pc.put("linger.ms", 1000);
        try (KafkaProducer<String, String> p = new KafkaProducer<>(pc, new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < RECORDS; i++) {
                p.send(new ProducerRecord<>(topic, 0, null, "v" + i));
            }
            p.flush();
        }
        Map<String, Object> cc = new HashMap<>();
        cc.put("bootstrap.servers", kafka.bootstrapServers());
        cc.put("group.id", group);
        cc.put("share.acknowledgement.mode", mode);
        cc.put("max.poll.records", 3);
        cc.put("share.acquire.mode", "record_limit");
        TreeSet<Long> delivered = new TreeSet<>();
        try (KafkaShareConsumer<String, String> c = new KafkaShareConsumer<>(cc, new StringDeserializer(), new StringDeserializer())) {
            c.subscribe(List.of(topic));
            ConsumerRecords<String, String> first = ConsumerRecords.empty();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (first.isEmpty() && System.nanoTime() < deadline) {
                first = c.poll(Duration.ofMillis(200));
            }
            List<Long> held = new ArrayList<>();
            first.forEach(r -> held.add(r.offset()));
            assertEquals(List.of(0L, 1L, 2L), held, "the first poll");
            kafka.admin().deleteRecords(Map.of(new TopicPartition(topic, 0), RecordsToDelete.beforeOffset(DELETE_BELOW)))
                    .all().get(30, TimeUnit.SECONDS);
            if (mode.equals("explicit")) {
                for (ConsumerRecord<String, String> r : first) {
                    c.acknowledge(r, AcknowledgeType.ACCEPT);
                }
                c.commitSync();
            }
            deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
            while (delivered.size() < RECORDS - DELETE_BELOW && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(200))) {
                    delivered.add(r.offset());
                    if (mode.equals("explicit")) {
                        c.acknowledge(r, AcknowledgeType.ACCEPT);
                    }
                }
                if (mode.equals("explicit")) {
                    c.commitSync();
                }
            }
        }
        assertEquals(LongStream.range(DELETE_BELOW, RECORDS).boxed().toList(), new ArrayList<>(delivered),
                "records above the new log start delivered after it moved into the held batch (" + mode + ")");
    }
}
