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
import io.gapless.kafka.testkit.EmbeddedKafkaTest;
import io.gapless.kafka.testkit.TestTopics;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static io.gapless.kafka.share.txn.ShareTestSupport.allAcknowledged;
import static io.gapless.kafka.share.txn.ShareTestSupport.configureGroup;
import static io.gapless.kafka.share.txn.ShareTestSupport.consumerConfig;
import static io.gapless.kafka.share.txn.ShareTestSupport.produce;
import static io.gapless.kafka.share.txn.ShareTestSupport.producerConfig;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 22's broker suite: two workers (consumer + producer each) in one share group with
 * {@code share.delivery.count.limit=2} and short locks, a ledger snapshot after every commit,
 * {@code deleteRecords} on the input while they run, workers that stall past their locks (stale
 * holders) and workers killed mid-transaction (their clients abandoned, never closed: the broker
 * sees what a SIGKILL leaves). Every input at most once in the read_committed output, the group
 * fully acknowledged at the end. {@code -Dgapless.soak=true} runs ten times the records.
 */
@EmbeddedKafkaTest
class TransactionalShareStaleHoldersIT {
    private static final Logger log = LoggerFactory.getLogger(TransactionalShareStaleHoldersIT.class);
    private static final int LOCK_MS = 1000;
    private static final int RECORDS = Boolean.getBoolean("gapless.soak") ? 400 : 24;

    private final EmbeddedKafka kafka;
    private final ShareTxnFixture f;
    private final String input;
    private final String output;
    private final String group;
    private final String ledger;
    private final ConcurrentLinkedQueue<AutoCloseable> abandoned = new ConcurrentLinkedQueue<>();

    TransactionalShareStaleHoldersIT(EmbeddedKafka kafka) throws Exception {
        this.kafka = kafka;
        this.f = new ShareTxnFixture(kafka, "stale");
        this.input = f.input;
        this.output = f.output;
        this.group = f.group;
        this.ledger = f.ledger;
        configureGroup(kafka, group, LOCK_MS, 2);
    }

    @AfterEach
    void close() {
        for (AutoCloseable c : abandoned) {
            try {
                c.close();
            } catch (Exception e) {
                // a killed worker's clients: whatever state they are in
            }
        }
    }

    /** One worker: polls, copies to the output in a transaction; every 4th batch it stalls past its lock, every 7th it is killed. */
    private void work(int worker, AtomicBoolean stop, AtomicInteger batches) {
        GaplessShareConsumer<String, String> c = null;
        TransactionalShareProducer<String, String> p = null;
        while (!stop.get()) {
            if (c == null) {
                c = new GaplessShareConsumer<>(consumerConfig(kafka, group, ledger));
                c.subscribe(List.of(input));
                Map<String, Object> pc = producerConfig(kafka, TestTopics.unique("w" + worker), ledger);
                pc.put(ShareTransactionConfigs.LEDGER_MAX_BYTES_BETWEEN_SNAPSHOTS_CONFIG, 1L);
                p = new TransactionalShareProducer<>(pc);
                p.initTransactions();
                abandoned.add(c);
                abandoned.add(p);
            }
            try {
                ConsumerRecords<String, String> records = c.poll(Duration.ofMillis(200));
                if (records.isEmpty()) {
                    continue;
                }
                int n = batches.incrementAndGet();
                p.beginTransaction();
                for (ConsumerRecord<String, String> r : records) {
                    p.send(new ProducerRecord<>(output, r.key(), r.value()));
                }
                p.sendShareAcknowledgementsToTransaction(ShareAcknowledgements.fromRecords(records, AcknowledgeType.ACCEPT),
                        c.shareGroupMetadata());
                if (n % 7 == 0) {
                    // Killed with the transaction open: nothing is closed, the broker times the transaction and the locks out.
                    log.info("worker {} killed with {} record(s) staged", worker, records.count());
                    c = null;
                    p = null;
                    continue;
                }
                if (n % 4 == 0) {
                    // A stall past the lock (GC pause, SIGSTOP): the records are redelivered to the other worker meanwhile.
                    TimeUnit.MILLISECONDS.sleep(LOCK_MS * 2L);
                }
                p.commitTransaction();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (KafkaException e) {
                try {
                    p.abortTransaction();
                } catch (KafkaException abortFailed) {
                    // fenced or broken: start again with new clients
                    c = null;
                    p = null;
                }
            } catch (IllegalStateException e) {
                c = null;
                p = null;
            }
        }
    }

    private long end(TopicPartition tp, IsolationLevel isolation) throws Exception {
        return kafka.admin().listOffsets(Map.of(tp, OffsetSpec.latest()), new ListOffsetsOptions(isolation)).partitionResult(tp)
                .get(30, TimeUnit.SECONDS).offset();
    }

    // One record, then wait until a worker took a batch: the transactions stay small, so stalls and kills hit many of them.
    private void feedOne(AtomicInteger batches, String prefix) {
        int before = batches.get();
        produce(kafka, input, 1, prefix);
        await().atMost(Duration.ofSeconds(30)).until(() -> batches.get() > before);
    }

    @Test
    void twoWorkersStaleHoldersKillsSnapshotsAndDeleteRecordsCommitEveryInputAtMostOnce() throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger batches = new AtomicInteger();
        List<Thread> workers = new ArrayList<>();
        for (int w = 0; w < 2; w++) {
            int worker = w;
            Thread t = new Thread(() -> work(worker, stop, batches), "stale-worker-" + w);
            t.start();
            workers.add(t);
        }
        // One record per producer (a batch each), written while the workers poll: small transactions, many of them.
        for (int i = 0; i < RECORDS / 2; i++) {
            feedOne(batches, "a" + i + "-");
        }
        // The input's start moves while records are in flight: acknowledgements below it are reported as success by Kafka.
        kafka.admin().deleteRecords(Map.of(new TopicPartition(input, 0), RecordsToDelete.beforeOffset(RECORDS / 4)))
                .all().get(30, TimeUnit.SECONDS);
        for (int i = 0; i < RECORDS / 2; i++) {
            feedOne(batches, "b" + i + "-");
        }
        try {
            await().atMost(Duration.ofSeconds(Boolean.getBoolean("gapless.soak") ? 600 : 90)).pollInterval(Duration.ofMillis(500))
                    .until(() -> allAcknowledged(kafka, group, input));
        } finally {
            stop.set(true);
            for (Thread t : workers) {
                t.join(TimeUnit.SECONDS.toMillis(30));
            }
        }
        // Killed workers' transactions hold the output's last stable offset until their timeout aborts them.
        TopicPartition out = new TopicPartition(output, 0);
        await().atMost(Duration.ofSeconds(60)).until(() -> end(out, IsolationLevel.READ_COMMITTED) == end(out, IsolationLevel.READ_UNCOMMITTED));
        Map<String, Integer> counts = f.outputCounts();
        log.info("{} batches, {} of {} inputs in the output (the rest deleted or archived at the delivery limit)", batches.get(),
                counts.size(), RECORDS);
        counts.forEach((value, n) -> assertEquals(1, n, value + " was committed " + n + " times"));
        assertTrue(counts.keySet().stream().filter(v -> v.startsWith("b")).count() > 0, "the workers kept committing: " + counts);
        assertTrue(batches.get() >= 14, "stalls (every 4th batch) and kills (every 7th) happened: " + batches.get() + " batches");
    }
}
