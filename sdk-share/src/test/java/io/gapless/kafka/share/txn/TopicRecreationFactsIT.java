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
package io.gapless.kafka.share.txn;

import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.EmbeddedKafkaTest;
import io.gapless.kafka.testkit.TestTopics;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.gapless.kafka.share.txn.ShareTestSupport.configureGroup;
import static io.gapless.kafka.share.txn.ShareTestSupport.produce;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * What a plain {@link KafkaShareConsumer} (no SDK) does when the topic it is subscribed to is
 * deleted and re-created, on the embedded Kafka 4.4 broker (issue 22, finding 7; sdk-share/RATIONALE.md,
 * "Incarnations"): the same consumer goes on and hands out the new topic's records, at the same
 * partition and offsets as the old topic's, in their first delivery; nothing on the record tells
 * the two apart, only the topic id, which a lookup made after the poll reports and which
 * {@code commitSync} keys the acknowledgements by. So a topic id cached before the re-creation
 * names the wrong topic for records polled after it.
 */
@EmbeddedKafkaTest
class TopicRecreationFactsIT {
    private final EmbeddedKafka kafka;
    private final String input = TestTopics.unique("recreate-facts-in");
    private final String group = TestTopics.unique("recreate-facts-group");
    private final List<AutoCloseable> closeables = new ArrayList<>();

    TopicRecreationFactsIT(EmbeddedKafka kafka) {
        this.kafka = kafka;
        kafka.createTopic(input, 1);
    }

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : closeables) {
            c.close();
        }
    }

    private KafkaShareConsumer<String, String> consumer() {
        Map<String, Object> c = new HashMap<>();
        c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        c.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        c.put("share.acknowledgement.mode", "explicit");
        KafkaShareConsumer<String, String> consumer = new KafkaShareConsumer<>(c, new StringDeserializer(), new StringDeserializer());
        consumer.subscribe(List.of(input));
        closeables.add(consumer::close);
        return consumer;
    }

    private static ConsumerRecords<String, String> pollUntil(KafkaShareConsumer<String, String> consumer, String prefix) {
        List<ConsumerRecords<String, String>> got = new ArrayList<>();
        await().pollInSameThread().atMost(Duration.ofSeconds(60)).until(() -> {
            ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(200));
            for (ConsumerRecord<String, String> r : records) {
                consumer.acknowledge(r, AcknowledgeType.ACCEPT);
            }
            if (!records.isEmpty() && records.iterator().next().value().startsWith(prefix)) {
                got.add(records);
            }
            return !got.isEmpty();
        });
        return got.get(0);
    }

    private Uuid describedId() throws Exception {
        return kafka.admin().describeTopics(List.of(input)).allTopicNames().get().get(input).topicId();
    }

    @Test
    void aReCreatedTopicIsConsumedUnderItsNewIdAtTheSameOffsetsInAFirstDelivery() throws Exception {
        configureGroup(kafka, group, 30_000, 5);
        produce(kafka, input, 1, "v");
        Uuid before = describedId();
        KafkaShareConsumer<String, String> consumer = consumer();
        ConsumerRecords<String, String> old = pollUntil(consumer, "v");
        ConsumerRecord<String, String> first = old.iterator().next();
        Map<TopicIdPartition, Optional<KafkaException>> oldAcks = consumer.commitSync(Duration.ofSeconds(30));
        assertEquals(before, oldAcks.keySet().iterator().next().topicId(), "the old topic's acknowledgements, by its id: " + oldAcks);

        kafka.deleteTopics(input);
        await().atMost(Duration.ofSeconds(30)).until(() -> !kafka.admin().listTopics().names().get().contains(input));
        kafka.createTopic(input, 1);
        produce(kafka, input, 1, "w");

        // The same consumer, never closed nor re-subscribed, hands out the new topic's record.
        ConsumerRecords<String, String> fresh = pollUntil(consumer, "w");
        ConsumerRecord<String, String> second = fresh.iterator().next();
        Uuid after = describedId();
        assertNotEquals(before, after, "a re-created topic has a new id");
        assertEquals(first.partition(), second.partition());
        assertEquals(first.offset(), second.offset(), "the new topic's record sits at the old one's offset");
        assertEquals(Optional.of((short) 1), second.deliveryCount(), "and it is a first delivery");
        Map<TopicIdPartition, Optional<KafkaException>> newAcks = consumer.commitSync(Duration.ofSeconds(30));
        assertEquals(1, newAcks.size(), newAcks.toString());
        Map.Entry<TopicIdPartition, Optional<KafkaException>> ack = newAcks.entrySet().iterator().next();
        assertEquals(after, ack.getKey().topicId(), "commitSync keys the acknowledgement by the new id, which the lookup after the poll reported");
        assertEquals(Optional.empty(), ack.getValue());
    }
}
