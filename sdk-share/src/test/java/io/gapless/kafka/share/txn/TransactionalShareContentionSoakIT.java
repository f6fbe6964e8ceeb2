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
import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.EmbeddedKafkaTest;
import io.gapless.kafka.testkit.TestTopics;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;

import static io.gapless.kafka.share.txn.ShareTestSupport.allAcknowledged;
import static io.gapless.kafka.share.txn.ShareTestSupport.committedValues;
import static io.gapless.kafka.share.txn.ShareTestSupport.configureGroup;
import static io.gapless.kafka.share.txn.ShareTestSupport.consumerConfig;
import static io.gapless.kafka.share.txn.ShareTestSupport.produce;
import static io.gapless.kafka.share.txn.ShareTestSupport.producerConfig;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Contention soak: three workers (consumer and producer each) of one group, 1 s locks, delivery
 * limit 2, a snapshot after every commit; each worker now and then stalls past its lock before
 * committing, or crashes with its transaction open (its clients abandoned), so stale holders and
 * redeliveries race on the ledger; mid-run, deleteRecords truncates the input under them. No input
 * committed twice; every input above the truncation once or archived by the delivery limit (WARN).
 * Under -Dgapless.soak=true.
 */
@EmbeddedKafkaTest
@EnabledIfSystemProperty(named = "gapless.soak", matches = "true")
class TransactionalShareContentionSoakIT {
    private static final int RECORDS = 90;
    private static final int WORKERS = 4;

    private final EmbeddedKafka kafka;
    private final String input = TestTopics.unique("soak-in");
    private final String output = TestTopics.unique("soak-out");
    private final String group = TestTopics.unique("soak-group");
    private final String ledger = TestTopics.unique("soak-ledger");

    TransactionalShareContentionSoakIT(EmbeddedKafka kafka) {
        this.kafka = kafka;
        kafka.createTopic(input, 1);
        kafka.createTopic(output, 1);
    }

    private void work(int id, AtomicBoolean stop, ConcurrentLinkedQueue<Throwable> errors, List<AutoCloseable> abandoned) {
        Random random = new Random(id);
        try {
            while (!stop.get()) {
                runClients(random, stop, abandoned);
            }
        } catch (Throwable t) {
            errors.add(t);
        }
    }

    /** One worker incarnation; returns when it "crashes" (its clients are abandoned mid-transaction, closed only at the end). */
    private void runClients(Random random, AtomicBoolean stop, List<AutoCloseable> abandoned) throws Exception {
        Map<String, Object> pc = producerConfig(kafka, TestTopics.unique("soak-txn"), ledger);
        pc.put(GaplessShareConfig.LEDGER_MAX_BYTES_BETWEEN_SNAPSHOTS_CONFIG, 1);
        Map<String, Object> cc = consumerConfig(kafka, group, ledger);
        cc.put(org.apache.kafka.clients.consumer.ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 3);
        cc.put("share.acquire.mode", "record_limit");
        GaplessShareConsumer<String, String> c = new GaplessShareConsumer<>(cc);
        TransactionalShareProducer<String, String> p = new TransactionalShareProducer<>(pc);
        c.subscribe(List.of(input));
        p.initTransactions();
        while (!stop.get()) {
            ConsumerRecords<String, String> records = c.poll(Duration.ofMillis(100));
            if (records.isEmpty()) {
                continue;
            }
            p.beginTransaction();
            try {
                for (ConsumerRecord<String, String> r : records) {
                    p.send(new ProducerRecord<>(output, r.key(), r.value()));
                }
                p.sendShareAcknowledgementsToTransaction(ShareAcknowledgements.fromRecords(records, AcknowledgeType.ACCEPT),
                        c.shareGroupMetadata());
                int dice = random.nextInt(10);
                if (dice < 4) {
                    Thread.sleep(1100 + random.nextInt(900));   // past the lock: another worker gets the records
                }
                if (dice == 9) {
                    p.flush();
                    synchronized (abandoned) {
                        abandoned.add(p);
                        abandoned.add(c);
                    }
                    return;   // crash with the transaction open: its clients are never used again
                }
                p.commitTransaction();
            } catch (KafkaException e) {
                p.abortTransaction();
            }
        }
        p.close();
        c.close();
    }

    @Test
    void contendedWorkersCommitEveryInputAtMostOnce() throws Exception {
        configureGroup(kafka, group, 1000, 2);
        produce(kafka, input, RECORDS, "v");
        AtomicBoolean stop = new AtomicBoolean();
        ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
        List<Thread> threads = new ArrayList<>();
        List<AutoCloseable> abandoned = new ArrayList<>();
        for (int i = 0; i < WORKERS; i++) {
            int id = i;
            Thread t = new Thread(() -> work(id, stop, errors, abandoned), "soak-worker-" + i);
            t.start();
            threads.add(t);
        }
        try {
            // Mid-run, the input is truncated under the workers (what is below is gone for every consumer alike).
            await().atMost(Duration.ofSeconds(60)).until(() -> committedValues(kafka, output).size() >= RECORDS / 4);
            kafka.admin().deleteRecords(Map.of(new org.apache.kafka.common.TopicPartition(input, 0),
                    org.apache.kafka.clients.admin.RecordsToDelete.beforeOffset(RECORDS / 2))).all().get();
            await().atMost(Duration.ofSeconds(240)).pollInterval(Duration.ofSeconds(1)).until(() -> allAcknowledged(kafka, group, input));
        } finally {
            stop.set(true);
            for (Thread t : threads) {
                t.join(60_000);
            }
            for (AutoCloseable a : abandoned) {
                try {
                    a.close();
                } catch (Exception e) {
                    // a crashed worker's client
                }
            }
        }
        assertTrue(errors.isEmpty(), "workers failed: " + errors);
        Map<String, Integer> counts = new TreeMap<>();
        committedValues(kafka, output).forEach(v -> counts.merge(v, 1, Integer::sum));
        counts.forEach((value, n) -> assertEquals(1, n, value + " was committed " + n + " times: " + counts));
        System.err.println("SOAK output " + counts.size() + " of " + RECORDS + ", crashed workers " + abandoned.size() / 2);
    }
}
