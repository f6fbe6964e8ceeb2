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

import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.TestTopics;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A member that loses its group session without a poll gap the SDK can see: the application's
 * process is frozen (a GC pause, SIGSTOP, a VM migration, a network cut) for longer than the
 * group's session timeout but shorter than {@code max.poll.interval.ms}. Kafka expels the member,
 * the group is empty, an operator resets its offsets, and the member goes on: Kafka's share
 * consumer rejoins and is delivered the operator's offsets, side by side with the plain client.
 * The freeze is the consumer's own network thread suspended (what SIGSTOP of the application does
 * to it) while the application does not poll.
 */
class ShareSessionLossIT {
    private static final Duration WAIT = SideBySide.WAIT;
    private static final long SESSION_TIMEOUT_MS = 3_000;
    private static EmbeddedKafka kafka;
    private SideBySide side;

    @BeforeAll
    static void start() {
        kafka = EmbeddedKafka.builder()
                .brokerProperty("group.share.min.session.timeout.ms", SESSION_TIMEOUT_MS)
                .brokerProperty("group.share.session.timeout.ms", SESSION_TIMEOUT_MS)
                .start();
    }

    @AfterAll
    static void stop() {
        kafka.close();
    }

    @AfterEach
    void closeAll() {
        if (side != null) {
            side.close();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"implicit", "explicit"})
    void anOperatorsResetAfterASessionLossWithoutAPollGapIsReplayed(String mode) throws Exception {
        side = new SideBySide(kafka);
        String topic = TestTopics.unique("session-loss");
        kafka.createTopic(topic, 1);
        Set<String> all = side.produce(topic, 0, "history", 300);
        SideBySide.Pair pair = side.pair(mode, "latest", "earliest", topic, Map.of(), Map.of(), Map.of("max.poll.interval.ms", 120_000));
        Set<String> live = pair.joined(topic);
        live.addAll(side.produce(topic, 0, "live", 100));
        pair.pollUntilBothSee(live);
        whileFrozen(pair, group -> kafka.admin().alterShareGroupOffsets(group, Map.of(new TopicPartition(topic, 0), 0L)).all()
                .get(10, TimeUnit.SECONDS));
        all.addAll(live);
        all.addAll(side.produce(topic, 0, "after", 10));
        pair.pollUntilBothSee(all);
        pair.assertSdkNeverWorse(all);
    }

    /**
     * The group deleted while both members were out of it by a session loss (no poll gap), and the
     * members go on: the group is new; nothing written after the deletion is lost (history a new
     * {@code latest} group skips may be delivered again: counted, not asserted).
     */
    @ParameterizedTest
    @ValueSource(strings = {"implicit", "explicit"})
    void aGroupDeletedAfterASessionLossLosesNothingWrittenAfter(String mode) throws Exception {
        side = new SideBySide(kafka);
        String topic = TestTopics.unique("session-loss-deleted");
        kafka.createTopic(topic, 1);
        Set<String> history = side.produce(topic, 0, "history", 300);
        SideBySide.Pair pair = side.pair(mode, "latest", "earliest", topic, Map.of(), Map.of(), Map.of("max.poll.interval.ms", 120_000));
        Set<String> live = pair.joined(topic);
        live.addAll(side.produce(topic, 0, "live", 100));
        pair.pollUntilBothSee(live);
        pair.plain.seen.clear();
        pair.sdk.seen.clear();
        whileFrozen(pair, group -> kafka.admin().deleteShareGroups(List.of(group)).all().get(10, TimeUnit.SECONDS));
        Set<String> after = side.produce(topic, 0, "after", 10);
        pair.pollUntilBothSee(after);
        long plainOld = pair.plain.seen.stream().filter(v -> history.contains(v) || live.contains(v)).count();
        long sdkOld = pair.sdk.seen.stream().filter(v -> history.contains(v) || live.contains(v)).count();
        System.out.println("Deleted after a session loss (" + mode + "): records from before delivered again, plain " + plainOld
                + ", the SDK " + sdkOld + "; poll failures plain " + pair.plain.failures + ", the SDK " + pair.sdk.failures);
        // Kafka's own heartbeat fails once on the deleted group (GROUP_ID_NOT_FOUND, fatal to that member epoch) and the next
        // poll throws it, plain and SDK alike: the SDK may fail no more polls than the plain member.
        assertTrue(pair.sdk.failures.size() <= pair.plain.failures.size(), "SDK poll failures " + pair.sdk.failures + ", plain "
                + pair.plain.failures);
        assertTrue(pair.plain.seen.containsAll(after), "plain delivers what was written after the deletion");
        assertTrue(pair.sdk.seen.containsAll(after), "the SDK delivers what was written after the deletion");
    }

    /** What an operator does to a group once Kafka expelled its member. */
    private interface GroupAction {
        void apply(String group) throws Exception;
    }

    /**
     * Freezes both members (their network threads suspended, no poll) until Kafka expelled each by
     * the session time-out and {@code action} was done to its group, then lets them run on.
     */
    @SuppressWarnings({"deprecation", "removal"}) // Thread.suspend: the freeze of a process, in this JVM
    private void whileFrozen(SideBySide.Pair pair, GroupAction action) {
        List<Thread> network = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("consumer_background_thread")).toList();
        network.forEach(Thread::suspend);
        try {
            for (String group : List.of(pair.plainGroup, pair.sdkGroup)) {
                await().atMost(WAIT).until(() -> side.members(group) == 0);
                await().atMost(WAIT).ignoreExceptions().until(() -> {
                    action.apply(group);
                    return true;
                });
            }
        } finally {
            network.forEach(Thread::resume);
        }
    }
}
