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
import io.gapless.kafka.testkit.KafkaNode;
import io.gapless.kafka.testkit.TestClients;
import io.gapless.kafka.testkit.TestTopics;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A member starts (a new group, or a restart of one that committed) while one of its partitions
 * has no leader: plain Kafka fetches the others at once, and so must the SDK, within a bound of
 * plain Kafka's time in the same run. The SDK's look-up of {@code earliest}/{@code latest} ahead of
 * the first report (started at the assignment) once held the whole assignment's positions until
 * the leaderless partition's look-up timed out ({@code gapless.baseline.timeout.ms}, 30 s): the
 * 24-30 s restarts seen in {@code PartialOutageIT}.
 */
class LeaderlessPartitionStartIT {
    private static final Logger log = LoggerFactory.getLogger(LeaderlessPartitionStartIT.class);
    private static final int DOOMED = 2;
    /** What the SDK may take beyond plain Kafka's time: well below the 30 s look-up time-out, well above a rebalance. */
    private static final long MAX_EXTRA_MS = 10_000;
    private static EmbeddedKafka kafka;

    @BeforeAll
    static void start() {
        kafka = EmbeddedKafka.builder().nodes(3).controllers(1).start();
    }

    @AfterAll
    static void stop() {
        kafka.close();
    }

    @AfterEach
    void restartStopped() {
        kafka.nodes().stream().filter(n -> !n.isRunning()).forEach(KafkaNode::start);
    }

    /** A new group: T-0 and T-1 hold records, T-2's only broker is down. */
    @ParameterizedTest(name = "group.protocol={0}")
    @ValueSource(strings = {"classic", "consumer"})
    void aNewGroupFetchesThePartitionsThatHaveALeader(String protocol) throws Exception {
        String topic = TestTopics.unique("leaderless-new");
        createPinned(topic, Map.of(0, List.of(0), 1, List.of(1), 2, List.of(DOOMED)));
        List<String> healthy = produceHealthy(topic);
        kafka.node(DOOMED).stop();
        long plainMs = firstRecords(props(protocol, "earliest", null), KafkaConsumer::new, topic, healthy, "plain");
        long sdkMs = firstRecords(props(protocol, "earliest", "earliest"), GaplessConsumer::new, topic, healthy, "SDK");
        assertWithinPlain(plainMs, sdkMs, "new group");
    }

    /** PartialOutageIT's case: T-0 and T-1 committed, T-2 added on a broker that then stops, the member restarts. */
    @ParameterizedTest(name = "group.protocol={0}")
    @ValueSource(strings = {"classic", "consumer"})
    void aRestartedMemberFetchesThePartitionsThatHaveALeader(String protocol) throws Exception {
        String topic = TestTopics.unique("leaderless-restart");
        createPinned(topic, Map.of(0, List.of(0), 1, List.of(1)));
        Properties plain = props(protocol, "latest", null);
        Properties sdk = props(protocol, "latest", "earliest");
        for (Properties p : List.of(plain, sdk)) {
            startAndCommit(p, p == sdk ? GaplessConsumer::new : KafkaConsumer::new, topic);
        }
        kafka.admin().createPartitions(Map.of(topic, NewPartitions.increaseTo(3, List.of(List.of(DOOMED))))).all().get();
        kafka.awaitLeader(new TopicPartition(topic, 2));
        kafka.node(DOOMED).stop();
        List<String> healthy = produceHealthy(topic);
        long plainMs = firstRecords(plain, KafkaConsumer::new, topic, healthy, "plain");
        long sdkMs = firstRecords(sdk, GaplessConsumer::new, topic, healthy, "SDK");
        assertWithinPlain(plainMs, sdkMs, "restart");
    }

    private static void assertWithinPlain(long plainMs, long sdkMs, String what) {
        log.info("{}: healthy partitions' records with T-2's only broker down: plain {} ms, SDK {} ms", what, plainMs, sdkMs);
        assertTrue(sdkMs <= plainMs + MAX_EXTRA_MS, what + ": the SDK took " + sdkMs + " ms to deliver the partitions that have a leader,"
                + " plain Kafka " + plainMs + " ms in the same run (allowed: plain + " + MAX_EXTRA_MS + " ms)");
    }

    /** Subscribes a new consumer and polls until it delivered every record of {@code expected}; returns the time taken. */
    private static long firstRecords(Properties props, Function<Properties, Consumer<String, String>> factory, String topic,
                                     List<String> expected, String side) {
        long started = System.nanoTime();
        List<ConsumerRecord<String, String>> got = new ArrayList<>();
        try (Consumer<String, String> consumer = factory.apply(props)) {
            consumer.subscribe(List.of(topic));
            long deadline = started + ConsumerITSupport.WAIT.toNanos();
            while (!ConsumerITSupport.values(got).containsAll(expected) && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(got::add);
            }
        }
        long ms = (System.nanoTime() - started) / 1_000_000;
        assertEquals(Set.copyOf(expected), ConsumerITSupport.values(got), side + " delivered the healthy partitions' records (" + ms + " ms)");
        return ms;
    }

    private static void startAndCommit(Properties props, Function<Properties, Consumer<String, String>> factory, String topic) {
        try (Consumer<String, String> consumer = factory.apply(props)) {
            consumer.subscribe(List.of(topic));
            ConsumerITSupport.awaitPositioned(consumer, 2, new ArrayList<>());
            consumer.commitSync();
        }
    }

    private static List<String> produceHealthy(String topic) {
        List<String> out = new ArrayList<>();
        try (KafkaProducer<String, String> producer = TestClients.producer(kafka)) {
            out.addAll(TestClients.produce(producer, topic, 0, "p0", 10));
            out.addAll(TestClients.produce(producer, topic, 1, "p1", 10));
        }
        return out;
    }

    private static Properties props(String protocol, String base, String newPolicy) {
        return ConsumerITSupport.props(kafka, TestTopics.unique("g"), protocol, base, newPolicy);
    }

    private static void createPinned(String topic, Map<Integer, List<Integer>> replicas) throws Exception {
        kafka.admin().createTopics(List.of(new NewTopic(topic, replicas))).all().get();
        replicas.keySet().forEach(p -> kafka.awaitLeader(new TopicPartition(topic, p)));
    }
}
