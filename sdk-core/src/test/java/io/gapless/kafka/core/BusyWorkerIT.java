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
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Disabled;
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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The baseline worker is one thread: a new group's look-up ahead of its first assignment (started
 * by the rebalance callback) for a partition without a leader occupies it for
 * {@code gapless.baseline.timeout.ms}. A partition assigned meanwhile that needs a decision waits
 * behind it with no position, and the delegate (auto.offset.reset=none) fetches nothing for the
 * healthy partitions either. Side by side with plain Kafka, same steps.
 */
class BusyWorkerIT {
    private static final Logger log = LoggerFactory.getLogger(BusyWorkerIT.class);
    private static final int DOOMED = 2;
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

    @ParameterizedTest(name = "group.protocol={0}")
    @ValueSource(strings = {"classic", "consumer"})
    void aPartitionAddedWhileTheLookupAheadIsStuckDoesNotStallTheHealthyOnes(String protocol) throws Exception {
        String topic = TestTopics.unique("busy-worker");
        Map<Integer, List<Integer>> replicas = Map.of(0, List.of(0), 1, List.of(1), 2, List.of(DOOMED));
        kafka.admin().createTopics(List.of(new NewTopic(topic, replicas))).all().get();
        replicas.keySet().forEach(p -> kafka.awaitLeader(new TopicPartition(topic, p)));
        kafka.node(DOOMED).stop();
        Properties plainProps = props(protocol, null);
        Properties sdkProps = props(protocol, "earliest");
        try (Consumer<String, String> plain = new KafkaConsumer<>(plainProps);
             Consumer<String, String> sdk = new GaplessConsumer<>(sdkProps)) {
            plain.subscribe(List.of(topic));
            sdk.subscribe(List.of(topic));
            TopicPartition t0 = new TopicPartition(topic, 0);
            TopicPartition t1 = new TopicPartition(topic, 1);
            long deadline = System.nanoTime() + ConsumerITSupport.WAIT.toNanos();
            boolean plainReady = false;
            boolean sdkReady = false;
            while (!(plainReady && sdkReady) && System.nanoTime() < deadline) {
                plain.poll(Duration.ofMillis(100));
                sdk.poll(Duration.ofMillis(100));
                plainReady = plainReady || positioned(plain, t0, t1);
                sdkReady = sdkReady || positioned(sdk, t0, t1);
            }
            assertTrue(plainReady && sdkReady, "both positioned T-0 and T-1: plain " + plainReady + ", SDK " + sdkReady);
            plain.commitSync();
            sdk.commitSync();
            // A partition added on a healthy broker: both must rebalance, then go on fetching T-0.
            kafka.admin().createPartitions(Map.of(topic, NewPartitions.increaseTo(4, List.of(List.of(0))))).all().get();
            TopicPartition t3 = new TopicPartition(topic, 3);
            kafka.awaitLeader(t3);
            deadline = System.nanoTime() + ConsumerITSupport.WAIT.toNanos();
            while (!(plain.assignment().contains(t3) && sdk.assignment().contains(t3)) && System.nanoTime() < deadline) {
                plain.poll(Duration.ofMillis(100));
                sdk.poll(Duration.ofMillis(100));
            }
            assertTrue(plain.assignment().contains(t3) && sdk.assignment().contains(t3), "both were assigned T-3");
            List<String> expected;
            try (KafkaProducer<String, String> producer = TestClients.producer(kafka)) {
                expected = TestClients.produce(producer, topic, 0, "t0", 10);
            }
            long started = System.nanoTime();
            List<ConsumerRecord<String, String>> plainGot = new ArrayList<>();
            List<ConsumerRecord<String, String>> sdkGot = new ArrayList<>();
            long plainMs = -1;
            long sdkMs = -1;
            deadline = started + ConsumerITSupport.WAIT.toNanos();
            while ((plainMs < 0 || sdkMs < 0) && System.nanoTime() < deadline) {
                plain.poll(Duration.ofMillis(100)).forEach(plainGot::add);
                sdk.poll(Duration.ofMillis(100)).forEach(sdkGot::add);
                if (plainMs < 0 && ConsumerITSupport.values(plainGot).containsAll(expected)) {
                    plainMs = (System.nanoTime() - started) / 1_000_000;
                }
                if (sdkMs < 0 && ConsumerITSupport.values(sdkGot).containsAll(expected)) {
                    sdkMs = (System.nanoTime() - started) / 1_000_000;
                }
            }
            log.info("T-0's 10 records after a partition was added: plain {} ms ({} records), SDK {} ms ({} records)",
                    plainMs, plainGot.size(), sdkMs, sdkGot.size());
            assertEquals(Set.copyOf(expected), ConsumerITSupport.values(plainGot), "plain delivered T-0's records");
            assertEquals(Set.copyOf(expected), ConsumerITSupport.values(sdkGot), "SDK delivered T-0's records");
            assertTrue(sdkMs <= plainMs + MAX_EXTRA_MS, "the SDK took " + sdkMs + " ms to deliver T-0's 10 records after a partition"
                    + " was added, plain Kafka " + plainMs + " ms (allowed: plain + " + MAX_EXTRA_MS + " ms)");
        }
    }

    /**
     * T-0, T-1 committed; T-2 (on a broker that then stops) and T-3 added; new-partitions policy
     * {@code by_duration}, which only the SDK's own look-up can position. While T-2's look-up
     * waits for a leader, T-2 has no position, so the delegate (auto.offset.reset=none) throws
     * before fetching anything: T-0 gets nothing for as long as the broker is down.
     */
    @Disabled("reproduces: by_duration new partition without a leader stalls the member's healthy partitions"
            + " (both protocols, 2026-12-02: plain Kafka delivered T-0's 10 records in 841/551 ms, the SDK 0 in 45 s, no exception; T-2 has no"
            + " position while its offsetsForTimes waits for a leader, so the delegate with auto.offset.reset=none throws before fetching)")
    @ParameterizedTest(name = "group.protocol={0}")
    @ValueSource(strings = {"classic", "consumer"})
    void aLeaderlessByDurationPartitionDoesNotStallTheHealthyOnes(String protocol) throws Exception {
        String topic = TestTopics.unique("busy-duration");
        Map<Integer, List<Integer>> replicas = Map.of(0, List.of(0), 1, List.of(1));
        kafka.admin().createTopics(List.of(new NewTopic(topic, replicas))).all().get();
        replicas.keySet().forEach(p -> kafka.awaitLeader(new TopicPartition(topic, p)));
        Properties plainProps = props(protocol, null);
        Properties sdkProps = props(protocol, "by_duration:PT1H");
        TopicPartition t0 = new TopicPartition(topic, 0);
        TopicPartition t1 = new TopicPartition(topic, 1);
        for (Properties p : List.of(plainProps, sdkProps)) {
            try (Consumer<String, String> c = p == sdkProps ? new GaplessConsumer<>(p) : new KafkaConsumer<>(p)) {
                c.subscribe(List.of(topic));
                long deadline = System.nanoTime() + ConsumerITSupport.WAIT.toNanos();
                while (!positioned(c, t0, t1) && System.nanoTime() < deadline) {
                    c.poll(Duration.ofMillis(100));
                }
                assertTrue(positioned(c, t0, t1), "positioned T-0 and T-1");
                c.commitSync();
            }
        }
        kafka.admin().createPartitions(Map.of(topic, NewPartitions.increaseTo(4, List.of(List.of(DOOMED), List.of(0))))).all().get();
        kafka.awaitLeader(new TopicPartition(topic, 2));
        kafka.awaitLeader(new TopicPartition(topic, 3));
        kafka.node(DOOMED).stop();
        List<String> expected;
        try (KafkaProducer<String, String> producer = TestClients.producer(kafka)) {
            expected = TestClients.produce(producer, topic, 0, "t0", 10);
        }
        try (Consumer<String, String> plain = new KafkaConsumer<>(plainProps);
             Consumer<String, String> sdk = new GaplessConsumer<>(sdkProps)) {
            plain.subscribe(List.of(topic));
            sdk.subscribe(List.of(topic));
            long started = System.nanoTime();
            List<ConsumerRecord<String, String>> plainGot = new ArrayList<>();
            List<ConsumerRecord<String, String>> sdkGot = new ArrayList<>();
            long plainMs = -1;
            long sdkMs = -1;
            long deadline = started + ConsumerITSupport.WAIT.toNanos();
            while ((plainMs < 0 || sdkMs < 0) && System.nanoTime() < deadline) {
                plain.poll(Duration.ofMillis(100)).forEach(plainGot::add);
                sdk.poll(Duration.ofMillis(100)).forEach(sdkGot::add);
                if (plainMs < 0 && ConsumerITSupport.values(plainGot).containsAll(expected)) {
                    plainMs = (System.nanoTime() - started) / 1_000_000;
                }
                if (sdkMs < 0 && ConsumerITSupport.values(sdkGot).containsAll(expected)) {
                    sdkMs = (System.nanoTime() - started) / 1_000_000;
                }
            }
            log.info("by_duration, T-2 leaderless: T-0's 10 records: plain {} ms ({} records), SDK {} ms ({} records)",
                    plainMs, plainGot.size(), sdkMs, sdkGot.size());
            assertEquals(Set.copyOf(expected), ConsumerITSupport.values(plainGot), "plain delivered T-0's records");
            assertEquals(Set.copyOf(expected), ConsumerITSupport.values(sdkGot), "SDK delivered T-0's records (plain: " + plainMs + " ms)");
            assertTrue(sdkMs <= plainMs + MAX_EXTRA_MS, "the SDK took " + sdkMs + " ms, plain Kafka " + plainMs + " ms");
        }
    }

    /** close(Duration) while the look-up ahead of a leaderless partition occupies the worker: within the caller's timeout, as plain Kafka. */
    @ParameterizedTest(name = "group.protocol={0}")
    @ValueSource(strings = {"classic", "consumer"})
    void closeWithATimeoutWhileTheLookupAheadIsStuck(String protocol) throws Exception {
        String topic = TestTopics.unique("busy-close");
        Map<Integer, List<Integer>> replicas = Map.of(0, List.of(0), 1, List.of(1), 2, List.of(DOOMED));
        kafka.admin().createTopics(List.of(new NewTopic(topic, replicas))).all().get();
        replicas.keySet().forEach(p -> kafka.awaitLeader(new TopicPartition(topic, p)));
        kafka.node(DOOMED).stop();
        TopicPartition t0 = new TopicPartition(topic, 0);
        TopicPartition t1 = new TopicPartition(topic, 1);
        Consumer<String, String> plain = new KafkaConsumer<>(props(protocol, null));
        Consumer<String, String> sdk = new GaplessConsumer<>(props(protocol, "earliest"));
        plain.subscribe(List.of(topic));
        sdk.subscribe(List.of(topic));
        long deadline = System.nanoTime() + ConsumerITSupport.WAIT.toNanos();
        boolean plainReady = false;
        boolean sdkReady = false;
        while (!(plainReady && sdkReady) && System.nanoTime() < deadline) {
            plain.poll(Duration.ofMillis(100));
            sdk.poll(Duration.ofMillis(100));
            plainReady = plainReady || positioned(plain, t0, t1);
            sdkReady = sdkReady || positioned(sdk, t0, t1);
        }
        assertTrue(plainReady && sdkReady, "both positioned T-0 and T-1: plain " + plainReady + ", SDK " + sdkReady);
        long plainMs = timedClose(plain);
        long sdkMs = timedClose(sdk);
        log.info("close(2 s) with T-2 leaderless: plain {} ms, SDK {} ms", plainMs, sdkMs);
        assertTrue(sdkMs <= Math.max(plainMs, 2_000) + 1_000, "SDK close(2 s) took " + sdkMs + " ms, plain " + plainMs + " ms");
    }

    private static long timedClose(Consumer<?, ?> consumer) {
        long started = System.nanoTime();
        consumer.close(CloseOptions.timeout(Duration.ofSeconds(2)));
        return (System.nanoTime() - started) / 1_000_000;
    }

    private static boolean positioned(Consumer<?, ?> consumer, TopicPartition... partitions) {
        for (TopicPartition tp : partitions) {
            if (!consumer.assignment().contains(tp) || !ConsumerITSupport.hasPosition(consumer, tp)) {
                return false;
            }
        }
        return true;
    }

    private static Properties props(String protocol, String newPolicy) {
        Properties p = ConsumerITSupport.props(kafka, TestTopics.unique("g"), protocol, "latest", newPolicy);
        p.put("metadata.max.age.ms", "500");
        return p;
    }
}
