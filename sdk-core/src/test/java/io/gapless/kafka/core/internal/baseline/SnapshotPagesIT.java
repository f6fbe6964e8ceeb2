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
package io.gapless.kafka.core.internal.baseline;

import io.gapless.kafka.core.spi.BaselineTopic;
import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.TestTopics;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The snapshot described page by page, on a real broker: every topic once, with its id and partition count (issue 23, finding 7). */
class SnapshotPagesIT {
    private static EmbeddedKafka kafka;

    @BeforeAll
    static void start() {
        kafka = EmbeddedKafka.forTests();
    }

    @AfterAll
    static void stop() {
        kafka.close();
    }

    @Test
    void aSnapshotInPagesHoldsEveryTopicWithItsPartitionCount() throws Exception {
        String prefix = TestTopics.unique("paged");
        List<NewTopic> created = IntStream.range(0, 23)
                .mapToObj(i -> new NewTopic(prefix + "-" + i, Optional.of(1 + i % 3), Optional.empty())).toList();
        kafka.admin().createTopics(created).all().get(60, TimeUnit.SECONDS);
        Map<String, TopicDescription> described = kafka.admin().describeTopics(created.stream().map(NewTopic::name).toList())
                .allTopicNames().get(60, TimeUnit.SECONDS);
        Map<Uuid, Integer> expected = new HashMap<>();
        described.values().forEach(d -> expected.put(d.topicId(), d.partitions().size()));

        String group = TestTopics.unique("g");
        BaselineStore store = new BaselineStore(BaselineTopic.of(null, BaselineTopic.PREFIX_DEFAULT, group), group,
                Map.of("bootstrap.servers", kafka.bootstrapServers()), Duration.ofSeconds(30), () -> { }, () -> { });
        try (store) {
            store.pageTopics(5); // 23 topics and the cluster's others: several pages
            Map<Uuid, Integer> sync = store.topicPartitionCounts();
            store.startClients();
            Map<Uuid, Integer> async = store.startFactsAsync().get(60, TimeUnit.SECONDS).partitionCounts();
            int listed = kafka.admin().listTopics(new org.apache.kafka.clients.admin.ListTopicsOptions().listInternal(true)).names()
                    .get(60, TimeUnit.SECONDS).size();
            assertTrue(listed > 5, "more topics than one page: " + listed);
            for (Map<Uuid, Integer> snapshot : List.of(sync, async)) {
                expected.forEach((id, n) -> assertEquals(n, snapshot.get(id), "topic " + id + " in the snapshot with its count"));
                assertTrue(snapshot.size() >= listed - 1 && !snapshot.containsKey(Uuid.ZERO_UUID), "every listed topic, by its id: "
                        + snapshot.size() + " of " + listed);
            }
        }
    }
}
