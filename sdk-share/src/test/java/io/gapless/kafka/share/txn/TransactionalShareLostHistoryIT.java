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
import io.gapless.kafka.share.ledger.LedgerHistoryLostException;
import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.EmbeddedKafkaTest;
import io.gapless.kafka.testkit.TestTopics;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static io.gapless.kafka.share.txn.ShareTestSupport.allAcknowledged;
import static io.gapless.kafka.share.txn.ShareTestSupport.committedValues;
import static io.gapless.kafka.share.txn.ShareTestSupport.configureGroup;
import static io.gapless.kafka.share.txn.ShareTestSupport.consumerConfig;
import static io.gapless.kafka.share.txn.ShareTestSupport.produce;
import static io.gapless.kafka.share.txn.ShareTestSupport.producerConfig;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Committed records whose acknowledgement did not land (the consumer was gone before it: a crash
 * between the commit and the acknowledgement) come back, and the check that must refuse them could
 * lose the history that binds them, on the embedded broker: the ack ledger topic was deleted
 * (issue 22, finding 8) or the clients moved to another one, or the entry was written under a
 * topic id cached before the topic was re-created (finding 7). Each was committed a second time
 * before; now a re-created input is staged under its new id (exactly once), and a lost or replaced
 * ledger is refused until an operator acts (no duplicate; afterwards exactly once, or reported).
 */
@EmbeddedKafkaTest
class TransactionalShareLostHistoryIT {
    private final EmbeddedKafka kafka;
    private final String input = TestTopics.unique("lost-in");
    private final String output = TestTopics.unique("lost-out");
    private final String group = TestTopics.unique("lost-group");
    private final String ledger = TestTopics.unique("lost-ledger");
    private final List<AutoCloseable> closeables = new ArrayList<>();

    TransactionalShareLostHistoryIT(EmbeddedKafka kafka) {
        this.kafka = kafka;
        kafka.createTopic(input, 1);
        kafka.createTopic(output, 1);
    }

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : closeables) {
            try {
                c.close();
            } catch (RuntimeException e) {
                // already closed by the test
            }
        }
    }

    private GaplessShareConsumer<String, String> consumer() {
        return consumer(ledger);
    }

    private GaplessShareConsumer<String, String> consumer(String ledgerTopic) {
        GaplessShareConsumer<String, String> c = new GaplessShareConsumer<>(consumerConfig(kafka, group, ledgerTopic));
        c.subscribe(List.of(input));
        closeables.add(c);
        return c;
    }

    private TransactionalShareProducer<String, String> producer() {
        return producer(ledger);
    }

    private TransactionalShareProducer<String, String> producer(String ledgerTopic) {
        TransactionalShareProducer<String, String> p = new TransactionalShareProducer<>(producerConfig(kafka, TestTopics.unique("txn"), ledgerTopic));
        closeables.add(p);
        p.initTransactions();
        return p;
    }

    private static ConsumerRecords<String, String> pollUntil(GaplessShareConsumer<String, String> c, String prefix) {
        List<ConsumerRecords<String, String>> got = new ArrayList<>();
        await().pollInSameThread().atMost(Duration.ofSeconds(60)).until(() -> {
            ConsumerRecords<String, String> records = c.poll(Duration.ofMillis(200));
            if (!records.isEmpty() && records.iterator().next().value().startsWith(prefix)) {
                got.add(records);
            }
            return !got.isEmpty();
        });
        return got.get(0);
    }

    private void drain(TransactionalShareProducer<String, String> p, GaplessShareConsumer<String, String> c) {
        await().pollInSameThread().atMost(Duration.ofSeconds(60)).until(() -> {
            ConsumerRecords<String, String> records = c.poll(Duration.ofMillis(200));
            if (!records.isEmpty()) {
                p.beginTransaction();
                try {
                    for (ConsumerRecord<String, String> r : records) {
                        p.send(new ProducerRecord<>(output, r.key(), r.value()));
                    }
                    p.sendShareAcknowledgementsToTransaction(ShareAcknowledgements.fromRecords(records, AcknowledgeType.ACCEPT),
                            c.shareGroupMetadata());
                    p.commitTransaction();
                } catch (KafkaException e) {
                    p.abortTransaction();
                }
            }
            return allAcknowledged(kafka, group, input);
        });
    }

    private Map<String, Integer> outputCounts() {
        Map<String, Integer> counts = new TreeMap<>();
        committedValues(kafka, output).forEach(v -> counts.merge(v, 1, Integer::sum));
        return counts;
    }

    /** Commits three records whose acknowledgements cannot land (the consumer is closed first): they come back. */
    private int commitWithLostAcknowledgements() throws Exception {
        configureGroup(kafka, group, 30_000, 5);
        produce(kafka, input, 3, "w");
        return commitWithLostAcknowledgements(consumer());
    }

    /** Polls {@code c1} for the "w" records and commits them; {@code c1} is closed before the commit, so the acknowledgements cannot land. */
    private int commitWithLostAcknowledgements(GaplessShareConsumer<String, String> c1) throws Exception {
        TransactionalShareProducer<String, String> p = producer();
        int records = commitWithLostAcknowledgements(c1, p);
        p.close();
        return records;
    }

    private int commitWithLostAcknowledgements(GaplessShareConsumer<String, String> c1, TransactionalShareProducer<String, String> p) {
        ConsumerRecords<String, String> got = stage(p, c1);
        c1.close();   // the acknowledgement cannot land: a crash between the commit and the acknowledgement
        p.commitTransaction();
        return got.count();
    }

    /** Polls {@code c} for the "w" records, and stages their output and acknowledgements in a new transaction of {@code p}. */
    private ConsumerRecords<String, String> stage(TransactionalShareProducer<String, String> p, GaplessShareConsumer<String, String> c) {
        ConsumerRecords<String, String> got = pollUntil(c, "w");
        p.beginTransaction();
        for (ConsumerRecord<String, String> r : got) {
            p.send(new ProducerRecord<>(output, r.key(), r.value()));
        }
        p.sendShareAcknowledgementsToTransaction(ShareAcknowledgements.fromRecords(got, AcknowledgeType.ACCEPT), c.shareGroupMetadata());
        return got;
    }

    private void assertExactlyOnce(int records) {
        Map<String, Integer> counts = outputCounts();
        counts.forEach((value, n) -> assertEquals(1, n, value + " was committed " + n + " times: " + counts));
        assertEquals(records, counts.size(), "every record exactly once: " + counts);
    }

    /**
     * Polls the "w" records with fresh clients on {@code ledgerTopic} and tries to commit them: the
     * SDK refuses at staging, and the consumer that took part stops with the same exception.
     */
    private LedgerHistoryLostException refusedCommit(String ledgerTopic) {
        GaplessShareConsumer<String, String> c = consumer(ledgerTopic);
        TransactionalShareProducer<String, String> p = producer(ledgerTopic);
        ConsumerRecords<String, String> got = pollUntil(c, "w");
        p.beginTransaction();
        for (ConsumerRecord<String, String> r : got) {
            p.send(new ProducerRecord<>(output, r.key(), r.value()));
        }
        LedgerHistoryLostException refused = assertThrows(LedgerHistoryLostException.class, () -> p.sendShareAcknowledgementsToTransaction(
                ShareAcknowledgements.fromRecords(got, AcknowledgeType.ACCEPT), c.shareGroupMetadata()));
        p.abortTransaction();
        LedgerHistoryLostException stopped = assertThrows(LedgerHistoryLostException.class, () -> c.poll(Duration.ofMillis(100)));
        assertEquals(refused.getMessage(), stopped.getMessage(), "the consumer stops with the same reason");
        // The application gives up on these clients (their records go back to the group).
        c.close();
        p.close();
        return refused;
    }

    private Map<String, Object> operatorConfig() {
        Map<String, Object> c = new HashMap<>();
        c.put("bootstrap.servers", kafka.bootstrapServers());
        c.put(ShareTransactionConfigs.LEDGER_TOPIC_CONFIG, ledger);
        return c;
    }

    private static void assertNames(LedgerHistoryLostException e, String... parts) {
        for (String part : parts) {
            assertTrue(e.getMessage().contains(part), "names " + part + ": " + e.getMessage());
        }
    }

    /**
     * Issue 22, finding 8: a deleted ledger is not re-created empty (by the SDK or by the broker's
     * auto-creation). Before, views restarted at 0, called themselves complete, and the three
     * records were committed a second time ({w0=2, w1=2, w2=2}). The history is gone, so the SDK
     * cannot be exactly-once on its own: it refuses, naming the group and both ledgers, until an
     * operator accepts the loss; from then on every record is processed, and a record processed a
     * second time is one the acceptance reported as in flight.
     */
    @Test
    void recordsCommittedBeforeTheLedgerTopicWasDeletedAreNotCommittedAgain() throws Exception {
        int records = commitWithLostAcknowledgements();
        Uuid boundId = kafka.admin().describeTopics(List.of(ledger)).allTopicNames().get().get(ledger).topicId();
        kafka.deleteTopics(ledger);
        await().atMost(Duration.ofSeconds(30)).until(() -> !kafka.admin().listTopics().names().get().contains(ledger));

        for (int attempt = 0; attempt < 2; attempt++) {
            LedgerHistoryLostException refused = refusedCommit(ledger);
            assertNames(refused, group, ledger, boundId.toString(), "deleted", "acceptLedgerLoss");
        }
        assertExactlyOnce(records);
        assertFalse(kafka.admin().listTopics().names().get().contains(ledger), "the deleted ledger is not created again");

        LedgerLoss loss = TransactionalShareGroups.acceptLedgerLoss(operatorConfig(), group);
        assertEquals(ledger, loss.ledgerTopic());
        assertTrue(loss.replaced().contains(boundId.toString()), loss.replaced());
        LedgerLoss.Window window = loss.inFlight().get(new TopicPartition(input, 0));
        assertEquals(new LedgerLoss.Window(0, records), window, "the three records whose acknowledgement was lost are in flight: " + loss);

        drain(producer(), consumer());
        Map<String, Integer> counts = outputCounts();
        assertEquals(records, counts.size(), "every record processed: " + counts);
        // Input offset i holds "w" + i: a record committed twice must be one the acceptance reported.
        counts.forEach((value, n) -> assertTrue(n == 1 || (n == 2 && window.contains(Long.parseLong(value.substring(1)))),
                value + " was committed " + n + " times outside the reported window " + window + ": " + counts));
    }

    /**
     * The ledger deleted under a running producer, whose binding check is cached: its next entry is
     * written to a ledger topic the broker auto-creates with its defaults, and before, its views
     * restarted at 0 calling themselves complete and the records were committed again. Now the
     * reader finds the ledger shorter than it had read and the commit fails with
     * {@link LedgerHistoryLostException}; nothing is committed twice.
     */
    @Test
    void aRunningProducerWhoseLedgerIsDeletedDoesNotCommitAgain() throws Exception {
        configureGroup(kafka, group, 30_000, 5);
        produce(kafka, input, 3, "w");
        TransactionalShareProducer<String, String> p = producer();
        int records = commitWithLostAcknowledgements(consumer(), p);
        kafka.deleteTopics(ledger);
        await().atMost(Duration.ofSeconds(30)).until(() -> !kafka.admin().listTopics().names().get().contains(ledger));

        GaplessShareConsumer<String, String> c2 = consumer();
        stage(p, c2);
        LedgerHistoryLostException refused = assertThrows(LedgerHistoryLostException.class, p::commitTransaction);
        assertNames(refused, ledger);
        assertThrows(LedgerHistoryLostException.class, () -> c2.poll(Duration.ofMillis(100)), "its consumer stops too");
        assertExactlyOnce(records);
    }

    /**
     * The same with the ledger kept but the clients moved to another one ({@code gapless.ledger.topic},
     * which the SDK's own error message for two groups in one transaction suggests setting): nothing
     * tells the new ledger what the old one holds. Before, the three records were committed a second
     * time ({w0=2, w1=2, w2=2}); now the clients on the other ledger are refused, and pointing them
     * back at the bound ledger, which still holds the history, processes every record exactly once.
     */
    @Test
    void recordsCommittedThroughAnotherLedgerTopicAreNotCommittedAgain() throws Exception {
        int records = commitWithLostAcknowledgements();
        String other = TestTopics.unique("lost-ledger2");
        LedgerHistoryLostException refused = refusedCommit(other);
        assertNames(refused, group, ledger, other, "acceptLedgerLoss");
        assertExactlyOnce(records);

        drain(producer(), consumer());
        assertExactlyOnce(records);
    }

    @Test
    void aRecordOfARecreatedTopicHeldUnderTheOldIdIsNotCommittedTwice() throws Exception {
        configureGroup(kafka, group, 30_000, 5);
        produce(kafka, input, 1, "v");
        GaplessShareConsumer<String, String> c1 = consumer();
        pollUntil(c1, "v");   // c1 caches the topic id (one minute)

        kafka.deleteTopics(input);
        await().atMost(Duration.ofSeconds(30)).until(() -> !kafka.admin().listTopics().names().get().contains(input));
        kafka.createTopic(input, 1);
        produce(kafka, input, 3, "w");
        int records = commitWithLostAcknowledgements(c1);   // held under the old topic id

        drain(producer(), consumer());
        assertExactlyOnce(records);
    }
}
