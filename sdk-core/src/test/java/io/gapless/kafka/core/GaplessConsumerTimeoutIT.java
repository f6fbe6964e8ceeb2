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

import io.gapless.kafka.core.spi.BaselineTopic;
import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.KafkaNode;
import io.gapless.kafka.testkit.TestClients;
import io.gapless.kafka.testkit.TestTopics;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static io.gapless.kafka.core.ConsumerITSupport.WAIT;
import static io.gapless.kafka.core.ConsumerITSupport.props;
import static io.gapless.kafka.core.ConsumerITSupport.resets;
import static io.gapless.kafka.core.ConsumerITSupport.values;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 10 point 9 on a cluster that leaves the happy path: GaplessConsumer keeps
 * KafkaConsumer's timing when a broker is down or frozen. {@code position(tp)} gives up after
 * {@code default.api.timeout.ms}; {@code poll(Duration.ZERO)} never waits for offset look-ups or
 * the group baseline; a partition that could not be positioned is positioned by a later poll
 * once the broker is back, with nothing lost and no history replayed.
 *
 * <p>Three brokers in child JVMs (SIGSTOP needs them) and a dedicated controller, so that stopping
 * or freezing a broker leaves the quorum alone. Every partition under test has its only replica
 * on a broker that is not the group coordinator: while that broker is away, nothing else can
 * answer for the partition.
 */
class GaplessConsumerTimeoutIT {
    private static final Logger log = LoggerFactory.getLogger(GaplessConsumerTimeoutIT.class);
    private static final TopicPartition OFFSETS = new TopicPartition("__consumer_offsets", 0);
    /** Longer than the broker session timeout (6 s): the frozen broker is also fenced, as in production. */
    private static final Duration FREEZE = Duration.ofSeconds(10);

    private static EmbeddedKafka kafka;

    @BeforeAll
    static void start() {
        kafka = EmbeddedKafka.builder().nodes(3).controllers(1).childProcesses(true).start();
    }

    @AfterAll
    static void stop() {
        kafka.close();
    }

    @BeforeEach
    void allBrokersRun() {
        kafka.nodes().stream().filter(n -> !n.isRunning()).forEach(KafkaNode::start);
    }

    @ParameterizedTest(name = "group.protocol={0}")
    @ValueSource(strings = {"classic", "consumer"})
    void positionGivesUpAfterDefaultApiTimeoutWhileThePartitionHasNoLeader(String protocol) throws Exception {
        String topic = TestTopics.unique("leaderless");
        TopicPartition tp = new TopicPartition(topic, 0);
        int broker = createTopicAwayFromTheCoordinator(topic);
        String group = TestTopics.unique("g");
        List<String> all;
        try (KafkaProducer<String, String> producer = TestClients.producer(kafka)) {
            all = TestClients.produce(producer, topic, 0, "r", 10);
        }
        // The group read up to offset 5. Its committed offset carries a leader epoch, so Kafka validates it against the
        // leader before the partition has a position: with the leader gone, only the caller's timeout ends the wait.
        // (Without a committed offset the SDK's own ListOffsets would time out instead, bounded before and after the fix.)
        commitWithLeaderEpoch(group, protocol, tp, 5);
        // The group's own baseline topic lives on the broker that stays up: this test is about the data partition's
        // leader, and the SDK creating that topic while a broker is down would (rightly) report the baseline unavailable.
        createTopicOn(BaselineTopic.of(null, BaselineTopic.PREFIX_DEFAULT, group).name(), kafka.awaitLeader(OFFSETS),
                Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT,
                        TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG, "LogAppendTime"));
        Properties p = props(kafka, group, protocol, "latest", "earliest");
        p.put("default.api.timeout.ms", "2000");
        // Not above default.api.timeout.ms: Kafka's admin client refuses that, and the SDK before issue 10 gave both to its own.
        p.put("request.timeout.ms", "1500");
        try (GaplessConsumer<String, String> consumer = new GaplessConsumer<>(p)) {
            consumer.assign(List.of(tp));
            KafkaNode node = kafka.node(broker);
            node.stop();
            await("no leader for " + tp).atMost(WAIT).until(() -> kafka.leaderOf(tp) == -1); // its only replica is down

            long began = System.nanoTime();
            TimeoutException e = assertTimeoutPreemptively(Duration.ofSeconds(20),
                    () -> assertThrows(TimeoutException.class, () -> consumer.position(tp)),
                    "position(tp) must give up after default.api.timeout.ms (2000 ms), as KafkaConsumer does");
            long ms = (System.nanoTime() - began) / 1_000_000;
            log.info("position({}) gave up after {} ms: {}", tp, ms, e.toString());
            assertTrue(ms >= 1900 && ms < 15_000, "waited default.api.timeout.ms, not less and not unbounded: " + ms + " ms");

            node.start();
            kafka.awaitLeader(tp);
            assertEquals(5, consumer.position(tp, WAIT), "positioned at the committed offset once the leader is back");
            List<String> rest = all.subList(5, 10);
            List<ConsumerRecord<String, String>> got = TestClients.pollUntil(consumer, WAIT, rs -> values(rs).containsAll(rest));
            got.addAll(TestClients.drain(consumer, Duration.ofMillis(500)));
            assertEquals(5, got.size(), "the five records after the committed offset, once each");
            assertEquals(new HashSet<>(rest), values(got), "none before the committed offset");
        }
    }

    @ParameterizedTest(name = "group.protocol={0}")
    @ValueSource(strings = {"classic", "consumer"})
    void pollWithAZeroTimeoutReturnsPromptlyWhileTheLeaderAndTheBaselineAreFrozen(String protocol) throws Exception {
        String topic = TestTopics.unique("frozen");
        TopicPartition tp = new TopicPartition(topic, 0);
        int broker = createTopicAwayFromTheCoordinator(topic);
        String baselineTopic = TestTopics.unique("baselines");
        createTopicOn(baselineTopic, broker, Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT,
                TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG, "LogAppendTime"));
        Properties p = props(kafka, TestTopics.unique("g"), protocol, "latest", "earliest");
        p.put("gapless.baseline.topic", baselineTopic);
        KafkaNode node = kafka.node(broker);
        FreezeOnAssignment freeze = new FreezeOnAssignment(node, tp);
        List<ConsumerRecord<String, String>> got = new ArrayList<>();
        List<RuntimeException> failures = new ArrayList<>();
        List<String> live = null;
        long slowest = 0;
        long slowestWhileFrozen = 0;
        try (KafkaProducer<String, String> producer = TestClients.producer(kafka);
             GaplessConsumer<String, String> consumer = new GaplessConsumer<>(p)) {
            TestClients.produce(producer, topic, 0, "history", 10); // before the group: pre-existing, latest applies
            consumer.subscribe(List.of(topic), freeze);
            long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
            while (System.nanoTime() < deadline && (live == null || !values(got).containsAll(live))) {
                boolean frozen = freeze.isFrozen();
                long t0 = System.nanoTime();
                try {
                    consumer.poll(Duration.ZERO).forEach(got::add);
                } catch (RuntimeException e) {
                    failures.add(e);
                }
                long ms = (System.nanoTime() - t0) / 1_000_000;
                slowest = Math.max(slowest, ms);
                if (frozen) {
                    slowestWhileFrozen = Math.max(slowestWhileFrozen, ms);
                }
                if (live == null && freeze.isThawed() && resets(consumer, "pre-existing") >= 1) {
                    live = TestClients.produce(producer, topic, 0, "live", 10);
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5)); // a polling loop with other work, not a spin
            }
            got.addAll(TestClients.drain(consumer, Duration.ofMillis(500)));
        } finally {
            freeze.awaitThawed();
        }
        log.info("poll(Duration.ZERO): slowest {} ms, slowest while the broker was frozen {} ms; {} records", slowest,
                slowestWhileFrozen, got.size());
        assertTrue(freeze.wasFrozen(), "the broker leading the partition and the baseline was frozen on assignment");
        assertTrue(slowest < 2000, "poll(Duration.ZERO) must not wait for ListOffsets or baseline calls to a frozen broker"
                + " (frozen " + FREEZE.toMillis() + " ms); the slowest took " + slowest + " ms");
        assertEquals(List.of(), failures.stream().map(Throwable::toString).distinct().toList(), "poll() threw where KafkaConsumer would not");
        assertNotNull(live, "the partition was positioned (base policy, pre-existing) after the broker came back");
        assertEquals(10, got.size(), "the live records once each, no history: " + values(got));
        assertEquals(new HashSet<>(live), values(got));
    }

    /** Freezes (SIGSTOP) a broker when the partition is first assigned and lets it run again {@link #FREEZE} later. */
    private static final class FreezeOnAssignment implements ConsumerRebalanceListener {
        private final KafkaNode node;
        private final TopicPartition partition;
        private volatile CompletableFuture<Void> thawed;

        FreezeOnAssignment(KafkaNode node, TopicPartition partition) {
            this.node = node;
            this.partition = partition;
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            if (thawed == null && partitions.contains(partition)) {
                node.pause();
                log.info("Froze broker {} on assignment of {}", node.id(), partition);
                thawed = CompletableFuture.runAsync(node::resume,
                        CompletableFuture.delayedExecutor(FREEZE.toMillis(), TimeUnit.MILLISECONDS));
            }
        }

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
        }

        boolean wasFrozen() {
            return thawed != null;
        }

        boolean isFrozen() {
            return thawed != null && !thawed.isDone();
        }

        boolean isThawed() {
            return thawed != null && thawed.isDone();
        }

        void awaitThawed() {
            if (thawed != null) {
                thawed.join();
            }
        }
    }

    /**
     * Creates a one-partition topic whose only replica is on a broker that does not coordinate the
     * groups (the leader of the single offsets partition, created on first use); returns that broker.
     */
    private static int createTopicAwayFromTheCoordinator(String topic) throws Exception {
        kafka.admin().listConsumerGroupOffsets("gapless-timeout-it").partitionsToOffsetAndMetadata().get(60, TimeUnit.SECONDS);
        int coordinator = kafka.awaitLeader(OFFSETS);
        int broker = kafka.nodes().stream().filter(n -> n.isBroker() && n.id() != coordinator).findFirst().orElseThrow().id();
        createTopicOn(topic, broker, Map.of());
        return broker;
    }

    /** One partition whose only replica is on {@code broker}; {@code min.insync.replicas=1} so that it takes writes. */
    private static void createTopicOn(String topic, int broker, Map<String, String> configs) throws Exception {
        Map<String, String> all = new java.util.HashMap<>(configs);
        all.put(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, "1");
        kafka.admin().createTopics(List.of(new NewTopic(topic, Map.of(0, List.of(broker))).configs(all)))
                .all().get(60, TimeUnit.SECONDS);
        kafka.awaitLeader(new TopicPartition(topic, 0));
    }

    /** Commits {@code offset} for the group as a reader of the partition does: with the leader epoch of the record before it. */
    private static void commitWithLeaderEpoch(String group, String protocol, TopicPartition tp, long offset) {
        Properties p = TestClients.consumerProps(kafka, group, protocol);
        p.put("auto.offset.reset", "earliest");
        try (KafkaConsumer<String, String> reader = new KafkaConsumer<>(p)) {
            reader.assign(List.of(tp));
            ConsumerRecord<String, String> last = TestClients.pollUntil(reader, WAIT,
                    rs -> rs.stream().anyMatch(r -> r.offset() == offset - 1)).stream()
                    .filter(r -> r.offset() == offset - 1).findFirst().orElseThrow();
            assertTrue(last.leaderEpoch().isPresent(), "records carry their leader epoch");
            reader.commitSync(Map.of(tp, new OffsetAndMetadata(offset, last.leaderEpoch(), "")));
        }
    }
}
