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
import io.gapless.kafka.testkit.TestTopics;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import io.gapless.kafka.testkit.TestClients;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.gapless.kafka.core.ConsumerITSupport.awaitPositioned;
import static io.gapless.kafka.core.ConsumerITSupport.props;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link GroupBaselines#describe} and {@link GroupBaselines#forget} as an operator's tools use them: read-only, never creating a topic. */
@EmbeddedKafkaTest
class GroupBaselinesDescribeIT {
    private final EmbeddedKafka kafka;

    GroupBaselinesDescribeIT(EmbeddedKafka kafka) {
        this.kafka = kafka;
    }

    @Test
    void forgettingAGroupWithoutBaselineCreatesNoTopic() throws Exception {
        String baselineTopic = TestTopics.unique("baselines-absent");
        Map<String, Object> config = Map.of("bootstrap.servers", kafka.bootstrapServers(), "gapless.baseline.topic", baselineTopic);
        assertFalse(GroupBaselines.forget(config, TestTopics.unique("never-ran")), "no baseline to forget");
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
            assertFalse(admin.listTopics().names().get(30, TimeUnit.SECONDS).contains(baselineTopic),
                    "forget of a group that has no baseline must not create the baseline topic " + baselineTopic);
        }
    }

    @Test
    void describingAGroupWithoutBaselineCreatesNoTopic() throws Exception {
        String baselineTopic = TestTopics.unique("baselines-absent");
        Map<String, Object> config = Map.of("bootstrap.servers", kafka.bootstrapServers(), "gapless.baseline.topic", baselineTopic);
        GroupBaselineDescription d = GroupBaselines.describe(config, TestTopics.unique("never-ran"));
        assertFalse(d.topicExists());
        assertFalse(d.started());
        assertTrue(d.partition().isEmpty());
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
            assertFalse(admin.listTopics().names().get(30, TimeUnit.SECONDS).contains(baselineTopic));
        }
    }

    @Test
    void describeShowsTheStartTheSnapshotAndTheMembersAndForgetEndsTheIncarnation() throws Exception {
        String topic = TestTopics.unique("describe");
        String group = TestTopics.unique("g");
        kafka.createTopic(topic, 2);
        Map<String, Object> config = Map.of("bootstrap.servers", kafka.bootstrapServers());
        Instant before = Instant.now().minusSeconds(1);
        try (KafkaProducer<String, String> producer = TestClients.producer(kafka)) {
            TestClients.produce(producer, topic, 0, "history", 5);
            try (GaplessConsumer<String, String> consumer = new GaplessConsumer<>(props(kafka, group, "classic", "latest", "earliest"))) {
                consumer.subscribe(List.of(topic));
                awaitPositioned(consumer, 2, new ArrayList<>());
                consumer.commitSync();
                GroupBaselineDescription live = GroupBaselines.describe(config, group);
                assertTrue(live.topicExists());
                assertTrue(live.started(), live.toString());
                assertEquals("", live.incarnation());
                assertTrue(live.partition().isPresent());
                assertTrue(live.startedAt().orElseThrow().isAfter(before), live.toString());
                assertFalse(live.adopted());
                assertTrue(live.snapshotTopics().orElseThrow() >= 1, "the snapshot holds at least the user topic: " + live);
                assertEquals(1, live.activeMembers(), live.toString());
            }
        }
        assertTrue(GroupBaselines.forget(config, group));
        GroupBaselineDescription forgotten = GroupBaselines.describe(config, group);
        assertFalse(forgotten.started(), "a forgotten group has no baseline until it runs again: " + forgotten);
        assertNotEquals("", forgotten.incarnation(), "forget starts a new incarnation");
        assertEquals(0, forgotten.activeMembers());
    }
}
