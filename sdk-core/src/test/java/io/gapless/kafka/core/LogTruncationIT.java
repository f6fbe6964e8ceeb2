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
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.LogTruncationException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

import static io.gapless.kafka.core.ConsumerITSupport.values;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A real {@link LogTruncationException} (issue 10 point 2): a leader acknowledges records no
 * follower has, the consumer reads them, a follower with the shorter log is elected uncleanly and
 * the consumer's position is validated against it. Kafka with a reset policy resumes at the
 * divergent offset; so must the SDK, whatever the base policy, and with base {@code none} the
 * caller gets Kafka's exception with its divergent offsets.
 */
class LogTruncationIT {
    private static EmbeddedKafka kafka;

    @BeforeAll
    static void start() {
        kafka = EmbeddedKafka.builder().nodes(3).controllers(1).start();
    }

    @AfterAll
    static void stop() {
        kafka.close();
    }

    @ParameterizedTest(name = "group.protocol={0}, auto.offset.reset={1}")
    @CsvSource({"classic,latest,earliest", "consumer,latest,earliest", "classic,earliest,latest", "consumer,earliest,latest",
            "classic,none,earliest", "consumer,none,earliest"})
    void aTruncatedLogResumesAtTheDivergentOffset(String protocol, String base, String newPolicy) throws Exception {
        kafka.nodes().stream().filter(n -> !n.isRunning()).forEach(KafkaNode::start);
        String topic = TestTopics.unique("unclean");
        TopicPartition tp = new TopicPartition(topic, 0);
        kafka.createTopic(topic, 1, Map.of("min.insync.replicas", "1", "unclean.leader.election.enable", "true"));
        kafka.awaitFullyInSync(tp);
        Properties producerProps = TestClients.producerProps(kafka);
        producerProps.put(ProducerConfig.ACKS_CONFIG, "1");
        producerProps.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "false");
        Properties p = ConsumerITSupport.props(kafka, TestTopics.unique("g"), protocol, base, newPolicy);
        p.put("gapless.baseline.unavailable", "base-policy"); // about truncation, not about a baseline on a cluster losing brokers
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerProps);
             GaplessConsumer<String, String> consumer = new GaplessConsumer<>(p)) {
            TestClients.produce(producer, topic, 0, "replicated", 10);
            kafka.awaitFullyInSync(tp);
            int leader = kafka.leaderOf(tp);
            List<KafkaNode> followers = kafka.nodes().stream().filter(n -> n.isBroker() && n.id() != leader).toList();
            consumer.assign(List.of(tp));
            consumer.seek(tp, 0);
            List<ConsumerRecord<String, String>> first = TestClients.pollUntil(consumer, Duration.ofSeconds(30), r -> r.size() >= 10);
            assertEquals(10, first.size());

            followers.forEach(KafkaNode::stop);
            kafka.awaitInSyncReplicas(tp, isr -> isr.equals(Set.of(leader)));
            List<String> unreplicated = TestClients.produce(producer, topic, 0, "unreplicated", 5);
            List<ConsumerRecord<String, String>> read = TestClients.pollUntil(consumer, Duration.ofSeconds(30), r -> r.size() >= 5);
            assertEquals(Set.copyOf(unreplicated), values(read), "read past what the followers have");

            kafka.node(leader).stop();
            followers.get(0).start();
            assertNotEquals(leader, kafka.awaitLeader(tp, id -> id != leader));
            List<String> diverged = TestClients.produce(producer, topic, 0, "diverged", 3);

            if (base.equals("none")) {
                LogTruncationException e = pollUntilTruncation(consumer);
                assertNotNull(e.divergentOffsets().get(tp), "divergent offsets handed on: " + e.divergentOffsets());
                assertEquals(10L, e.divergentOffsets().get(tp).offset());
                assertEquals(15L, e.offsetOutOfRangePartitions().get(tp));
                consumer.seek(tp, e.divergentOffsets().get(tp));
            }
            List<ConsumerRecord<String, String>> after = TestClients.pollUntil(consumer, Duration.ofSeconds(60),
                    r -> values(r).containsAll(diverged));
            after.addAll(TestClients.drain(consumer, Duration.ofMillis(500)));
            assertEquals(Set.copyOf(diverged), values(after), "resumed at the divergence point: nothing replayed, nothing skipped");
            assertEquals(3, after.size(), "each once");
            assertTrue(after.stream().allMatch(r -> r.offset() >= 10L));
        } finally {
            kafka.nodes().stream().filter(n -> !n.isRunning()).forEach(KafkaNode::start);
        }
    }

    private static LogTruncationException pollUntilTruncation(GaplessConsumer<String, String> consumer) {
        List<RuntimeException> others = new ArrayList<>();
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            try {
                List<ConsumerRecord<String, String>> records = new ArrayList<>();
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
                assertTrue(records.isEmpty(), "no record before the truncation is reported: " + records);
            } catch (LogTruncationException e) {
                return e;
            } catch (RuntimeException e) {
                others.add(e);
                if (others.size() > 3) {
                    throw new AssertionError("expected a LogTruncationException, poll threw " + others, e);
                }
            }
        }
        throw new AssertionError("no LogTruncationException within 60 s; poll threw " + others);
    }
}
