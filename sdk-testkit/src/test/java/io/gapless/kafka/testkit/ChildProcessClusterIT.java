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
package io.gapless.kafka.testkit;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A three-node cluster with each node in its own JVM: SIGKILL, SIGSTOP, restarts, nothing left behind. */
class ChildProcessClusterIT {
    private static final Logger log = LoggerFactory.getLogger(ChildProcessClusterIT.class);
    private static final TopicPartition TX_STATE = new TopicPartition("__transaction_state", 0);

    @Test
    void killingTheLeadersOfADataPartitionAndOfTheTransactionLogLosesAndDuplicatesNothing() throws Exception {
        long began = System.nanoTime();
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().nodes(3).childProcesses(true).start()) {
            log.info("3-node child-JVM cluster started in {} ms", (System.nanoTime() - began) / 1_000_000);
            String topic = TestTopics.unique("kill");
            kafka.createTopic(topic, 3, Map.of("min.insync.replicas", "2"));
            TransactionalWorkload workload = new TransactionalWorkload(kafka, topic);
            CompletableFuture<Void> running = CompletableFuture.runAsync(workload);
            try {
                workload.awaitCommitted(20, running);

                TopicPartition data = new TopicPartition(topic, 0);
                killLeaderAndRestart(kafka, data, workload, running);
                killLeaderAndRestart(kafka, TX_STATE, workload, running);
            } finally {
                workload.stop();
            }
            running.get(120, TimeUnit.SECONDS);

            List<String> committed = workload.committed();
            List<String> read = readCommitted(kafka, topic, committed.size());
            assertEquals(committed.size(), new HashSet<>(committed).size());
            assertEquals(new HashSet<>(committed), new HashSet<>(read), "exactly the committed records");
            assertEquals(committed.size(), read.size(), "none duplicated");
            log.info("{} transactions committed, {} aborted and retried, {} records read once each",
                    workload.transactions(), workload.aborts(), read.size());
        }
    }

    @Test
    void aPausedLeaderIsReplacedAndCatchesUpAfterResumeAndCloseLeavesNoProcess() throws Exception {
        List<Long> pids = new ArrayList<>();
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().nodes(3).childProcesses(true).start()) {
            kafka.nodes().forEach(n -> pids.add(n.pid().orElseThrow()));
            String topic = TestTopics.unique("pause");
            TopicPartition tp = new TopicPartition(topic, 0);
            kafka.createTopic(topic, 1);
            Properties producerProps = TestClients.producerProps(kafka);
            // A request already sent to the frozen leader waits this long before it goes to the new one.
            producerProps.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000);
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerProps)) {
                List<String> written = new ArrayList<>(TestClients.produce(producer, topic, 0, "before", 20));
                int leader = kafka.leaderOf(tp);
                KafkaNode node = kafka.node(leader);
                node.pause();
                assertTrue(node.isRunning(), "a paused node still runs");
                // Fenced after the broker session timeout, its leadership and ISR place go.
                int next = kafka.awaitLeader(tp, id -> id != leader);
                assertNotEquals(leader, next);
                written.addAll(TestClients.produce(producer, topic, 0, "while-paused", 20));
                node.resume();
                kafka.awaitFullyInSync(tp);

                // The same pid runs on: the process was frozen, not restarted.
                assertEquals(pids.get(leader), node.pid().orElseThrow());
                Properties props = TestClients.consumerProps(kafka, TestTopics.unique("g"), "classic");
                props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
                try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props)) {
                    consumer.assign(List.of(tp));
                    List<String> read = TestClients.pollUntil(consumer, Duration.ofSeconds(30), r -> r.size() >= written.size())
                            .stream().map(ConsumerRecord::value).toList();
                    assertEquals(written, read);
                }
            }
            KafkaNode killed = kafka.node(2);
            killed.kill();
            assertFalse(killed.isRunning());
            assertFalse(ProcessHandle.of(pids.get(2)).map(ProcessHandle::isAlive).orElse(false), "SIGKILLed");
            killed.start();
            pids.add(killed.pid().orElseThrow());
        }
        for (long pid : pids) {
            assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "pid " + pid + " still alive after close");
        }
    }

    private static void killLeaderAndRestart(EmbeddedKafka kafka, TopicPartition partition, TransactionalWorkload workload,
                                             CompletableFuture<Void> running) {
        int leader = kafka.leaderOf(partition);
        KafkaNode node = kafka.node(leader);
        long pid = node.pid().orElseThrow();
        node.kill();
        assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "pid " + pid + " killed");
        int next = kafka.awaitLeader(partition, id -> id != leader);
        log.info("Killed node {} (leader of {}); {} leads now", leader, partition, next);
        workload.awaitCommitted(workload.transactions() + 10, running);
        node.start();
        kafka.awaitFullyInSync(partition);
        workload.awaitCommitted(workload.transactions() + 10, running);
    }

    private static List<String> readCommitted(EmbeddedKafka kafka, String topic, int expected) {
        Properties props = TestClients.consumerProps(kafka, TestTopics.unique("reader"), "classic");
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props)) {
            consumer.assign(IntStream.range(0, 3).mapToObj(p -> new TopicPartition(topic, p)).toList());
            List<String> read = new ArrayList<>(TestClients.pollUntil(consumer, Duration.ofSeconds(60), r -> r.size() >= expected)
                    .stream().map(ConsumerRecord::value).toList());
            TestClients.drain(consumer, Duration.ofSeconds(2)).forEach(r -> read.add(r.value()));
            return read;
        }
    }

    /**
     * Transactions of ten records over three partitions, as an application would run them: a
     * commit that times out is retried, any other abortable error aborts and the batch is sent
     * again; a fatal error replaces the producer (same transactional id). A batch counts as
     * committed only once {@code commitTransaction} returned.
     */
    private static final class TransactionalWorkload implements Runnable {
        private final EmbeddedKafka kafka;
        private final String topic;
        private final String transactionalId = TestTopics.unique("tx");
        private final List<String> committed = new CopyOnWriteArrayList<>();
        private volatile boolean stopped;
        private volatile int transactions;
        private volatile int aborts;

        TransactionalWorkload(EmbeddedKafka kafka, String topic) {
            this.kafka = kafka;
            this.topic = topic;
        }

        @Override
        public void run() {
            KafkaProducer<String, String> producer = newProducer();
            try {
                for (int tx = 0; !stopped; tx++) {
                    List<String> batch = new ArrayList<>();
                    for (int i = 0; i < 10; i++) {
                        batch.add("tx" + tx + "-" + i);
                    }
                    while (true) {
                        try {
                            producer.beginTransaction();
                            for (int i = 0; i < batch.size(); i++) {
                                producer.send(new ProducerRecord<>(topic, i % 3, "k", batch.get(i)));
                            }
                            if (commit(producer)) {
                                committed.addAll(batch);
                                transactions++;
                                break;
                            }
                        } catch (KafkaException e) {
                            if (isFatal(e)) {
                                log.info("Fatal producer error, replacing the producer: {}", e.toString());
                                producer.close(Duration.ZERO);
                                producer = newProducer();
                            } else {
                                abort(producer);
                            }
                        }
                        aborts++;
                    }
                }
            } finally {
                producer.close(Duration.ofSeconds(10));
            }
        }

        private boolean commit(KafkaProducer<String, String> producer) {
            while (true) {
                try {
                    producer.commitTransaction();
                    return true;
                } catch (TimeoutException e) {
                    log.info("Commit timed out, retrying it: {}", e.getMessage());
                } catch (KafkaException e) {
                    if (isFatal(e)) {
                        throw e;
                    }
                    log.info("Commit failed, aborting: {}", e.toString());
                    abort(producer);
                    return false;
                }
            }
        }

        /** The errors after which Kafka's producer must be closed rather than aborted. */
        private static boolean isFatal(KafkaException e) {
            return e instanceof ProducerFencedException || e instanceof org.apache.kafka.common.errors.OutOfOrderSequenceException
                    || e instanceof org.apache.kafka.common.errors.UnsupportedVersionException
                    || e instanceof org.apache.kafka.common.errors.AuthorizationException;
        }

        private static void abort(KafkaProducer<String, String> producer) {
            while (true) {
                try {
                    producer.abortTransaction();
                    return;
                } catch (TimeoutException e) {
                    log.info("Abort timed out, retrying it: {}", e.getMessage());
                }
            }
        }

        private KafkaProducer<String, String> newProducer() {
            Properties props = TestClients.producerProps(kafka);
            props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
            props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 20_000);
            props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
            KafkaProducer<String, String> producer = new KafkaProducer<>(props);
            while (true) {
                try {
                    producer.initTransactions();
                    return producer;
                } catch (TimeoutException e) {
                    log.info("initTransactions timed out, retrying: {}", e.getMessage());
                }
            }
        }

        void awaitCommitted(int atLeastTransactions, CompletableFuture<Void> running) {
            await().atMost(Duration.ofSeconds(90)).until(() -> {
                if (running.isDone()) {
                    running.join(); // rethrows the workload's failure
                    throw new AssertionError("the workload ended early");
                }
                return transactions >= atLeastTransactions;
            });
        }

        void stop() {
            stopped = true;
        }

        List<String> committed() {
            return List.copyOf(committed);
        }

        int transactions() {
            return transactions;
        }

        int aborts() {
            return aborts;
        }
    }

}
