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
package io.gapless.kafka.share.reset;

import io.gapless.kafka.share.GaplessShareConsumer;
import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.EmbeddedKafkaTest;
import io.gapless.kafka.testkit.TestTopics;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Two members of one share group with the same {@code client.id} (what Kafka's default
 * {@code consumer-<group>-1} gives the first consumer of each application instance): the second
 * starts while the first is still skipping a topic's records below its start. Base {@code latest}:
 * a plain group delivers none of that history.
 */
@EmbeddedKafkaTest
class ShareSharedClientIdIT {
    private final EmbeddedKafka kafka;
    private final SideBySide side;

    ShareSharedClientIdIT(EmbeddedKafka kafka) {
        this.kafka = kafka;
        this.side = new SideBySide(kafka);
    }

    @AfterEach
    void closeAll() {
        side.close();
    }

    @Disabled("reproduces: the operator-reset check (ShareNewPartitionsReset.prepare, SharePartitionState.presence) leaves out the"
            + " assignment of every member with the asking member's client id, so with a shared client.id (Kafka's default gives"
            + " consumer-<group>-1 to the first consumer of each instance) a member starting while another is still skipping below a"
            + " start takes the unfinished skip (broker start < recorded start) for an operator's reset and supersedes the start:"
            + " 48162 of 50000 history records delivered to a base-latest group (distinct client ids: 0 delivered, 50000 skipped)."
            + " No loss, but history a plain latest group never delivers; no small fix (treating same-id members as others hides a"
            + " real reset behind the member's own assignment, a loss)")
    @ParameterizedTest
    @ValueSource(strings = {"app", ""})
    void aSecondMemberStartingDuringASkipKeepsTheStart(String sharedClientId) throws Exception {
        String other = TestTopics.unique("shared-other");
        String topic = TestTopics.unique("shared-skip");
        kafka.createTopic(other, 1);
        kafka.createTopic(topic, 1);
        side.produce(topic, 0, "history", 50_000);
        String group = TestTopics.unique("sdk");
        SideBySide.Member a = member(group, sharedClientId.isEmpty() ? "a" : sharedClientId, other);
        await().atMost(SideBySide.WAIT).pollInSameThread().until(() -> {
            a.pollOnce();
            return side.members(group) == 1;
        });
        a.consumer.subscribe(List.of(other, topic));
        await().atMost(SideBySide.WAIT).pollInSameThread().until(() -> {
            a.pollOnce();
            return a.metric("records-skipped-before-start-total") > 0;
        });
        SideBySide.Member b = member(group, sharedClientId.isEmpty() ? "b" : sharedClientId, other);
        b.consumer.subscribe(List.of(other, topic));
        long until = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (System.nanoTime() < until) {
            a.pollOnce();
            b.pollOnce();
        }
        long history = a.seen.size() + b.seen.size();
        System.out.println("Shared client id '" + sharedClientId + "': history delivered " + history + ", skipped "
                + (a.metric("records-skipped-before-start-total") + b.metric("records-skipped-before-start-total")));
        assertEquals(0, history, "base latest: a plain group delivers none of the history");
    }

    private SideBySide.Member member(String group, String clientId, String topic) {
        Map<String, Object> cfg = new HashMap<>();
        cfg.put("bootstrap.servers", kafka.bootstrapServers());
        cfg.put("group.id", group);
        cfg.put("client.id", clientId);
        cfg.put("share.acknowledgement.mode", "implicit");
        cfg.put("share.auto.offset.reset", "latest");
        cfg.put("share.auto.offset.reset.new.partitions", "earliest");
        cfg.put("gapless.share.partition.check.interval.ms", 200L);
        return side.new Member("sdk-" + clientId, c -> new GaplessShareConsumer<>(c, new StringDeserializer(), new StringDeserializer()),
                cfg, topic);
    }
}
