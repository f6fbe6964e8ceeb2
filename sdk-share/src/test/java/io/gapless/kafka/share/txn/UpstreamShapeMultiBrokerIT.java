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

import io.gapless.kafka.share.GaplessShareConsumer;
import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.KafkaNode;
import io.gapless.kafka.testkit.TestTopics;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static io.gapless.kafka.share.txn.ShareTestSupport.committedValues;
import static io.gapless.kafka.share.txn.ShareTestSupport.configureGroup;
import static io.gapless.kafka.share.txn.ShareTestSupport.producerConfig;
import static io.gapless.kafka.share.txn.UpstreamScenarios.awaitLag;
import static io.gapless.kafka.share.txn.UpstreamScenarios.explicitConsumerConfig;
import static io.gapless.kafka.share.txn.UpstreamScenarios.pollFor;
import static io.gapless.kafka.share.txn.UpstreamScenarios.pollUntil;
import static io.gapless.kafka.share.txn.UpstreamScenarios.produceOneBatch;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The multi-broker KIP-1289 scenarios of Kafka's own tests ({@code ShareConsumerTransactionTest}'s
 * remote share coordinator, {@code ShareGroupTransactionIntegrationTest}'s three source leaders
 * and leader shutdowns), restated on the SDK against a three-node Kafka 4.4 cluster, in Kafka's
 * application shape ({@code explicit} mode, {@code acknowledgementsForTransaction()}).
 */
class UpstreamShapeMultiBrokerIT {
    private static final String SHARE_STATE = "__share_group_state";
    private static EmbeddedKafka kafka;

    private final String group = TestTopics.unique("upstream-mb-group");
    private final String ledger = TestTopics.unique("upstream-mb-ledger");
    private final List<AutoCloseable> closeables = new ArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        kafka = EmbeddedKafka.builder().nodes(3).start();
        // The share coordinator's state topic exists once a share group has acknowledged something.
        String warmGroup = TestTopics.unique("warm-up");
        TopicPartition warm = new TopicPartition(TestTopics.unique("warm-up"), 0);
        kafka.createTopic(warm.topic(), 1);
        configureGroup(kafka, warmGroup, 15_000);
        produceOneBatch(kafka, warm, "warm");
        try (GaplessShareConsumer<String, String> c = new GaplessShareConsumer<>(explicitConsumerConfig(kafka, warmGroup, "unused"))) {
            c.subscribe(List.of(warm.topic()));
            pollUntil(c, 1).forEach(r -> c.acknowledge(r, AcknowledgeType.ACCEPT));
            c.commitSync();
        }
        kafka.awaitLeader(new TopicPartition(SHARE_STATE, 0));
    }

    @AfterAll
    static void stop() {
        kafka.close();
    }

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : closeables) {
            c.close();
        }
        kafka.nodes().stream().filter(n -> !n.isRunning()).forEach(KafkaNode::start);
    }

    private GaplessShareConsumer<String, String> consumer(String topic, Map<String, Object> extra) {
        Map<String, Object> config = explicitConsumerConfig(kafka, group, ledger);
        config.putAll(extra);
        GaplessShareConsumer<String, String> c = new GaplessShareConsumer<>(config);
        closeables.add(c);
        c.subscribe(List.of(topic));
        return c;
    }

    private TransactionalShareProducer<String, String> producer() {
        Map<String, Object> config = producerConfig(kafka, TestTopics.unique("txn"), ledger);
        // Leaderships move while transactions are open: leave the coordinator room for a broker shutdown.
        config.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, 60_000);
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 60_000);
        TransactionalShareProducer<String, String> p = new TransactionalShareProducer<>(config);
        closeables.add(p);
        p.initTransactions();
        return p;
    }

    /** A topic whose partition {@code i} is led by broker {@code leaders[i]} (the other brokers follow). */
    private static void createTopicLedBy(String topic, int... leaders) throws Exception {
        Map<Integer, List<Integer>> assignment = new HashMap<>();
        for (int p = 0; p < leaders.length; p++) {
            int leader = leaders[p];
            assignment.put(p, List.of(leader, (leader + 1) % 3, (leader + 2) % 3));
        }
        kafka.admin().createTopics(List.of(new NewTopic(topic, assignment))).all().get(30, TimeUnit.SECONDS);
        for (int p = 0; p < leaders.length; p++) {
            int expected = leaders[p];
            kafka.awaitLeader(new TopicPartition(topic, p), id -> id == expected);
        }
    }

    @ParameterizedTest(name = "commit={0}")
    @CsvSource({"true", "false"})
    void theShareCoordinatorOnAnotherBrokerThanTheSourceLeader(boolean commit) throws Exception {
        int coordinator = kafka.leaderOf(new TopicPartition(SHARE_STATE, 0));
        TopicPartition tp = new TopicPartition(TestTopics.unique("remote-coordinator"), 0);
        createTopicLedBy(tp.topic(), (coordinator + 1) % 3);
        assertNotEquals(kafka.leaderOf(tp), kafka.leaderOf(new TopicPartition(SHARE_STATE, 0)), "source leader and share coordinator apart");
        String output = TestTopics.unique("remote-coordinator-out");
        kafka.createTopic(output, 1);
        configureGroup(kafka, group, 15_000);
        produceOneBatch(kafka, tp, "remote");

        GaplessShareConsumer<String, String> consumer = consumer(tp.topic(), Map.of());
        TransactionalShareProducer<String, String> producer = producer();
        ConsumerRecord<String, String> record = pollUntil(consumer, 1).get(0);
        ShareGroupMetadata metadata = consumer.shareGroupMetadata();
        consumer.acknowledge(record, AcknowledgeType.ACCEPT);
        ShareAcknowledgements acks = consumer.acknowledgementsForTransaction();
        producer.beginTransaction();
        producer.send(new ProducerRecord<>(output, record.key(), record.value()));
        producer.sendShareAcknowledgementsToTransaction(acks, metadata);
        if (commit) {
            producer.commitTransaction();
            awaitLag(kafka, group, tp, 0);
            assertEquals(List.of(), pollFor(consumer, Duration.ofSeconds(2)), "nothing redelivered");
            assertEquals(List.of("remote"), committedValues(kafka, output));
        } else {
            producer.abortTransaction();
            awaitLag(kafka, group, tp, 1);
            ConsumerRecord<String, String> again = pollUntil(consumer, 1).get(0);
            assertEquals(0L, again.offset());
            assertEquals("remote", again.value());
            assertEquals(List.of(), committedValues(kafka, output));
        }
    }

    /**
     * Kafka's "failover with pending state" scenarios: the consumer stages its record in an open
     * transaction and closes, the source partition's leader moves, then the transaction commits or
     * aborts and a new member of the group takes over. A commit still succeeds and the new member
     * never gets the record to process (it comes back, the ledger says it is committed, the SDK
     * acknowledges it); an abort gives it back (same offset).
     */
    @ParameterizedTest(name = "commit={0}")
    @CsvSource({"true", "false"})
    void theConsumerClosesAndTheSourceLeaderMovesWhileTheTransactionIsOpen(boolean commit) throws Exception {
        int coordinator = kafka.leaderOf(new TopicPartition(SHARE_STATE, 0));
        TopicPartition tp = new TopicPartition(TestTopics.unique("pending"), 0);
        createTopicLedBy(tp.topic(), (coordinator + 1) % 3);
        String output = TestTopics.unique("pending-out");
        kafka.createTopic(output, 1);
        configureGroup(kafka, group, 15_000);
        produceOneBatch(kafka, tp, "pending");
        TransactionalShareProducer<String, String> producer = producer();

        GaplessShareConsumer<String, String> first = consumer(tp.topic(), Map.of());
        ConsumerRecord<String, String> record = pollUntil(first, 1).get(0);
        first.acknowledge(record, AcknowledgeType.ACCEPT);
        producer.beginTransaction();
        producer.send(new ProducerRecord<>(output, record.key(), record.value()));
        producer.sendShareAcknowledgementsToTransaction(first.acknowledgementsForTransaction(), first.shareGroupMetadata());
        closeables.remove(first);
        first.close();

        int leader = kafka.leaderOf(tp);
        kafka.node(leader).stop();
        assertNotEquals(leader, kafka.awaitLeader(tp, id -> id != leader));
        if (commit) {
            producer.commitTransaction();
        } else {
            producer.abortTransaction();
        }
        kafka.node(leader).start();
        kafka.awaitFullyInSync(tp);

        GaplessShareConsumer<String, String> next = consumer(tp.topic(), Map.of());
        if (commit) {
            assertEquals(List.of(), pollFor(next, Duration.ofSeconds(5)), "a committed record is not processed again");
            awaitLag(kafka, group, tp, 0);
            assertEquals(List.of("pending"), committedValues(kafka, output));
        } else {
            ConsumerRecord<String, String> again = pollUntil(next, 1).get(0);
            assertEquals(0L, again.offset());
            assertEquals("pending", again.value());
            assertEquals(List.of(), committedValues(kafka, output));
        }
    }

    @Test
    void commitAndAbortAcrossThreeSourceLeaders() throws Exception {
        runPerRecordTransactions(Shutdown.NONE);
    }

    @Test
    void theSourceLeaderShutDownBeforeTheAbort() throws Exception {
        runPerRecordTransactions(Shutdown.BEFORE_ABORT);
    }

    @Test
    void theSourceLeaderShutDownBeforeTheFirstCommit() throws Exception {
        runPerRecordTransactions(Shutdown.BEFORE_FIRST_COMMIT);
    }

    private enum Shutdown { NONE, BEFORE_ABORT, BEFORE_FIRST_COMMIT }

    /**
     * Two records on each of three partitions, each led by another broker; one transaction per
     * record: the first aborted (it must come back), every other committed exactly once, the output
     * exactly the committed inputs. Optionally the leader of the record's partition is shut down
     * while its transaction is open, and started again after the transaction ended.
     */
    private void runPerRecordTransactions(Shutdown shutdown) throws Exception {
        String source = TestTopics.unique("three-leaders");
        String sink = TestTopics.unique("three-leaders-out");
        createTopicLedBy(source, 0, 1, 2);
        createTopicLedBy(sink, 0, 1, 2);
        assertEquals(3, IntStream.range(0, 3).map(p -> kafka.leaderOf(new TopicPartition(source, p))).distinct().count());
        configureGroup(kafka, group, 15_000);
        for (int p = 0; p < 3; p++) {
            produceOneBatch(kafka, new TopicPartition(source, p), p + "-0", p + "-1");
        }
        GaplessShareConsumer<String, String> consumer = consumer(source, Map.of(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 1,
                ConsumerConfig.SHARE_ACQUIRE_MODE_CONFIG, "record_limit"));
        TransactionalShareProducer<String, String> producer = producer();

        Set<String> committed = new HashSet<>();
        List<String> refused = new ArrayList<>();
        String aborted = null;
        boolean redelivered = false;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (committed.size() < 6 && System.nanoTime() < deadline) {
            for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                producer.beginTransaction();
                producer.send(new ProducerRecord<>(sink, record.partition(), null, record.value()));
                consumer.acknowledge(record, AcknowledgeType.ACCEPT);
                producer.sendShareAcknowledgementsToTransaction(consumer.acknowledgementsForTransaction(), consumer.shareGroupMetadata());
                boolean shutdownNow = shutdown == Shutdown.BEFORE_ABORT ? aborted == null
                        : shutdown == Shutdown.BEFORE_FIRST_COMMIT && aborted != null && committed.isEmpty();
                TopicPartition tp = new TopicPartition(record.topic(), record.partition());
                int leader = kafka.leaderOf(tp);
                if (shutdownNow) {
                    kafka.node(leader).stop();
                }
                if (aborted == null) {
                    aborted = record.value();
                    producer.abortTransaction();
                } else {
                    try {
                        producer.commitTransaction();
                        assertTrue(committed.add(record.value()), "a committed input was handed out again: " + record.value());
                        redelivered |= record.value().equals(aborted);
                    } catch (KafkaException e) {
                        // What an application does with a refused commit: abort (a no-op after the SDK's own abort) and go on.
                        refused.add(record.value() + ": " + e);
                        producer.abortTransaction();
                    }
                }
                if (shutdownNow) {
                    assertNotEquals(leader, kafka.awaitLeader(tp, id -> id != leader), "leadership moved during the transaction");
                    kafka.node(leader).start();
                    kafka.awaitFullyInSync(tp);
                }
            }
        }
        Set<String> all = IntStream.range(0, 3).boxed().flatMap(p -> List.of(p + "-0", p + "-1").stream()).collect(Collectors.toSet());
        assertEquals(all, committed, "every input committed once (refused: " + refused + ")");
        assertTrue(redelivered, "the aborted input " + aborted + " came back and was committed");
        List<String> visible = committedValues(kafka, sink);
        assertEquals(6, visible.size(), "each output once: " + visible);
        assertEquals(committed, new HashSet<>(visible));
        for (int p = 0; p < 3; p++) {
            awaitLag(kafka, group, new TopicPartition(source, p), 0);
        }
    }
}
