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
import io.gapless.kafka.testkit.EmbeddedKafkaTest;
import io.gapless.kafka.testkit.TestClients;
import io.gapless.kafka.testkit.TestTopics;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;

import static io.gapless.kafka.core.ConsumerITSupport.WAIT;
import static io.gapless.kafka.core.ConsumerITSupport.awaitPositioned;
import static io.gapless.kafka.core.ConsumerITSupport.props;
import static io.gapless.kafka.core.ConsumerITSupport.values;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link GroupBaselines#forget}: an operator's way to start a group's baseline again (issue 10 point 7). */
@EmbeddedKafkaTest
class GroupBaselinesForgetIT {
    private final EmbeddedKafka kafka;

    GroupBaselinesForgetIT(EmbeddedKafka kafka) {
        this.kafka = kafka;
    }

    @ParameterizedTest(name = "group.protocol={0}")
    @ValueSource(strings = {"classic", "consumer"})
    void aForgottenBaselineStartsAgain(String protocol) throws Exception {
        String topic = TestTopics.unique("forget");
        String group = TestTopics.unique("g");
        kafka.createTopic(topic, 1);
        Map<String, Object> admin = Map.of("bootstrap.servers", kafka.bootstrapServers());
        try (KafkaProducer<String, String> producer = TestClients.producer(kafka)) {
            TestClients.produce(producer, topic, 0, "history", 10);
            assertFalse(GroupBaselines.forget(admin, group), "no baseline yet");
            try (GaplessConsumer<String, String> consumer = new GaplessConsumer<>(props(kafka, group, protocol, "latest", "earliest"))) {
                consumer.subscribe(List.of(topic));
                awaitPositioned(consumer, 1, new ArrayList<>());
                IllegalStateException busy = assertThrows(IllegalStateException.class, () -> GroupBaselines.forget(admin, group));
                assertTrue(busy.getMessage().contains(group), busy.getMessage());
            }
            kafka.addPartitions(topic, 2);
            List<String> added = TestClients.produce(producer, topic, 1, "added", 10);
            assertTrue(GroupBaselines.forget(admin, group), "the baseline existed and is forgotten");
            try (GaplessConsumer<String, String> consumer = new GaplessConsumer<>(props(kafka, group, protocol, "latest", "earliest"))) {
                consumer.subscribe(List.of(topic));
                List<ConsumerRecord<String, String>> got = new ArrayList<>();
                awaitPositioned(consumer, 2, got);
                List<String> live = TestClients.produce(producer, topic, 1, "live", 5);
                got.addAll(TestClients.pollUntil(consumer, WAIT, rs -> values(rs).containsAll(live)));
                got.addAll(TestClients.drain(consumer, Duration.ofMillis(500)));
                assertEquals(new HashSet<>(live), values(got), "after forget the group starts now: partition 1 pre-existing, "
                        + "its " + added.size() + " records skipped by the base policy");
            }
        }
    }
}
