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

import io.gapless.kafka.share.GaplessShareConfig;
import io.gapless.kafka.share.GaplessShareConsumer;
import io.gapless.kafka.share.ledger.LedgerInspection;
import io.gapless.kafka.share.ledger.LedgerReport;
import io.gapless.kafka.share.ledger.LedgerSettings;
import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.EmbeddedKafkaTest;
import io.gapless.kafka.testkit.TestTopics;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static io.gapless.kafka.share.txn.ShareTestSupport.configureGroup;
import static io.gapless.kafka.share.txn.ShareTestSupport.consumerConfig;
import static io.gapless.kafka.share.txn.ShareTestSupport.produce;
import static io.gapless.kafka.share.txn.ShareTestSupport.producerConfig;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link LedgerInspection}: what an operator sees of a share group's ack ledger, read with the producers' own views. */
@EmbeddedKafkaTest
class LedgerInspectionIT {
    private final EmbeddedKafka kafka;
    private final String input = TestTopics.unique("insp-in");
    private final String output = TestTopics.unique("insp-out");
    private final String group = TestTopics.unique("insp-group");
    private final String ledger = TestTopics.unique("insp-ledger");
    private final List<AutoCloseable> closeables = new ArrayList<>();

    LedgerInspectionIT(EmbeddedKafka kafka) throws Exception {
        this.kafka = kafka;
        kafka.createTopic(input, 1);
        kafka.createTopic(output, 1);
        configureGroup(kafka, group, 30_000);
        produce(kafka, input, 10);
    }

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : closeables) {
            c.close();
        }
    }

    private LedgerSettings settings() {
        return new TransactionalShareProducerConfig(Map.of(GaplessShareConfig.LEDGER_TOPIC_CONFIG, ledger)).ledger();
    }

    private LedgerReport inspect(String groupId) {
        return LedgerInspection.inspect(Map.of("bootstrap.servers", kafka.bootstrapServers()), settings(), groupId, Duration.ofSeconds(30));
    }

    private TransactionalShareProducer<String, String> producer(String txnId, TransactionPhase.Listener phases) {
        Map<String, Object> config = producerConfig(kafka, txnId, ledger);
        config.put(TransactionPhase.LISTENER_CONFIG, phases);
        config.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, 60_000);
        TransactionalShareProducer<String, String> p = new TransactionalShareProducer<>(config);
        closeables.add(p);
        p.initTransactions();
        return p;
    }

    private static ConsumerRecords<String, String> poll(GaplessShareConsumer<String, String> c) {
        AtomicReference<ConsumerRecords<String, String>> got = new AtomicReference<>(ConsumerRecords.empty());
        await().pollInSameThread().atMost(Duration.ofSeconds(20)).until(() -> {
            got.set(c.poll(Duration.ofMillis(200)));
            return !got.get().isEmpty();
        });
        return got.get();
    }

    private static void stage(TransactionalShareProducer<String, String> p, GaplessShareConsumer<String, String> c,
                              ConsumerRecords<String, String> records, String output) {
        p.beginTransaction();
        records.forEach(r -> p.send(new ProducerRecord<>(output, r.key(), r.value())));
        p.sendShareAcknowledgementsToTransaction(ShareAcknowledgements.fromRecords(records, AcknowledgeType.ACCEPT), c.shareGroupMetadata());
    }

    @Test
    void committedOpenAndAbortedEntriesWithTheirTransactions() throws Exception {
        Map<String, Object> small = consumerConfig(kafka, group, ledger);
        small.put("max.poll.records", 4);
        small.put("share.acquire.mode", "record_limit");
        GaplessShareConsumer<String, String> c = new GaplessShareConsumer<>(small);
        closeables.add(c);
        c.subscribe(List.of(input));

        TransactionalShareProducer<String, String> committer = producer("insp-committer", TransactionPhase.Listener.NONE);
        ConsumerRecords<String, String> first = poll(c);
        stage(committer, c, first, output);
        committer.commitTransaction();

        // The second transaction writes its ledger entry and then "crashes": its transaction stays open.
        TransactionalShareProducer<String, String> crasher = producer("insp-crasher", phase -> {
            if (phase == TransactionPhase.LEDGER_WRITTEN) {
                throw new IllegalStateException("simulated crash after the ledger entry was written");
            }
        });
        ConsumerRecords<String, String> second = poll(c);
        stage(crasher, c, second, output);
        assertThrows(IllegalStateException.class, crasher::commitTransaction);

        LedgerReport open = inspect(group);
        assertTrue(open.topicExists());
        assertTrue(open.groupSeen());
        assertEquals(0, open.partition());
        assertEquals(2, open.entries().size(), open.toString());
        LedgerReport.Entry committed = open.entries().get(0);
        assertEquals("insp-committer", committed.transactionalId());
        assertEquals(LedgerReport.Fate.COMMITTED, committed.fate());
        assertEquals(first.count(), covered(committed), "the committed entry covers the first poll's records");
        LedgerReport.Entry pending = open.entries().get(1);
        assertEquals("insp-crasher", pending.transactionalId());
        assertEquals(LedgerReport.Fate.OPEN, pending.fate());
        assertEquals(second.count(), covered(pending));
        assertEquals(java.util.Set.of("insp-crasher"), open.openTransactions());
        assertTrue(open.lastStableOffset() <= pending.offset(), "the open transaction holds the LSO: " + open);
        assertTrue(open.highWatermark() > pending.offset());
        assertTrue(open.bytesSinceSnapshot() >= committed.bytes(), "the committed entry's bytes count towards the next snapshot: " + open);

        // Fencing the crashed writer (as a later holder would) aborts its transaction.
        Map<String, Object> fencer = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                ProducerConfig.TRANSACTIONAL_ID_CONFIG, "insp-crasher");
        try (KafkaProducer<byte[], byte[]> f = new KafkaProducer<>(fencer, new ByteArraySerializer(), new ByteArraySerializer())) {
            f.initTransactions();
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> inspect(group).entries().get(1).fate() == LedgerReport.Fate.ABORTED);
        LedgerReport resolved = inspect(group);
        assertEquals(LedgerReport.Fate.COMMITTED, resolved.entries().get(0).fate());
        assertEquals(java.util.Set.of(), resolved.openTransactions());
        assertEquals(resolved.highWatermark(), resolved.lastStableOffset(), resolved.toString());

        LedgerReport other = inspect(TestTopics.unique("no-such-group"));
        assertTrue(other.topicExists());
        assertFalse(other.groupSeen(), "a group that never committed through the ledger has nothing in it: " + other);
    }

    @Test
    void inspectingWithoutALedgerTopicCreatesNone() throws Exception {
        String absent = TestTopics.unique("absent-ledger");
        LedgerSettings settings = new TransactionalShareProducerConfig(Map.of(GaplessShareConfig.LEDGER_TOPIC_CONFIG, absent)).ledger();
        LedgerReport report = LedgerInspection.inspect(Map.of("bootstrap.servers", kafka.bootstrapServers()), settings, group,
                Duration.ofSeconds(30));
        assertFalse(report.topicExists());
        assertFalse(report.groupSeen());
        assertFalse(kafka.admin().listTopics().names().get(30, TimeUnit.SECONDS).contains(absent));
    }

    private static long covered(LedgerReport.Entry e) {
        return e.ranges().values().stream().flatMap(List::stream).mapToLong(r -> r.last() - r.first() + 1).sum();
    }
}
