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
package io.gapless.kafka.benchmarks;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.ShareConsumer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The SDK's transactional share loop (KIP-1289 emulated by the ack ledger): per batch,
 * {@code beginTransaction}, send the outputs, then commit = {@code sendShareAcknowledgementsToTransaction}
 * + {@code commitTransaction} (which, after the commit, acknowledges the records on the share consumer).
 * {@link #perRecord(ShareSdk)} is the same loop with one transaction per record, the pattern of
 * sdk-spring's README listener on Spring's share container (measured on at most
 * {@value #PER_RECORD_MAX_RECORDS} records: it is slow).
 */
public final class LedgerShareLoop implements TransformLoop {
    /** The acknowledgement mode the SDK's share consumer adds for transactional acknowledgements. */
    static final String TRANSACTIONAL_MODE = "transactional";

    /** The per-record variant's rate is measured on this many records at most. */
    static final int PER_RECORD_MAX_RECORDS = 2_000;

    private final ShareSdk sdk;
    private final String name;
    private final Integer retryBackoffMs;
    private final boolean perRecord;
    private long commits;

    /** With the producer's default {@code retry.backoff.ms}. */
    public LedgerShareLoop(ShareSdk sdk) {
        this(sdk, "ledger", null);
    }

    /** With {@code retry.backoff.ms} set, to compare with {@link ConsumerEosLoop} under the same setting. */
    public LedgerShareLoop(ShareSdk sdk, String name, Integer retryBackoffMs) {
        this(sdk, name, retryBackoffMs, false);
    }

    private LedgerShareLoop(ShareSdk sdk, String name, Integer retryBackoffMs, boolean perRecord) {
        this.sdk = sdk;
        this.name = name;
        this.retryBackoffMs = retryBackoffMs;
        this.perRecord = perRecord;
    }

    /** One transaction per record, named {@code per_record}. */
    public static LedgerShareLoop perRecord(ShareSdk sdk) {
        return new LedgerShareLoop(sdk, "per_record", null, true);
    }

    @Override
    public String name() {
        return name;
    }

    /** Transactions committed by every run of this loop so far. */
    public long totalCommits() {
        return commits;
    }

    @Override
    public LoopOutcome run(BenchmarkContext ctx, String input, String output, int records, int batch, int run) {
        String group = ctx.unique("share-" + name.replace('_', '-') + "-" + run);
        ShareGroups.startFromEarliest(ctx.kafka(), group);
        Map<String, Object> cc = ShareGroups.consumer(ctx.kafka(), group, batch);
        cc.put("share.acknowledgement.mode", TRANSACTIONAL_MODE);
        Map<String, Object> pc = ClientSettings.producer(ctx.kafka());
        pc.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, group + "-tx");
        if (retryBackoffMs != null) {
            pc.put(ProducerConfig.RETRY_BACKOFF_MS_CONFIG, retryBackoffMs);
        }
        LoopTimer timer = new LoopTimer(name + " run " + run);
        try (ShareConsumer<byte[], byte[]> consumer = sdk.newConsumer(cc, new ByteArrayDeserializer(), new ByteArrayDeserializer());
             Producer<byte[], byte[]> producer = sdk.newProducer(pc, new ByteArraySerializer(), new ByteArraySerializer())) {
            producer.initTransactions();
            consumer.subscribe(List.of(input));
            int target = perRecord ? Math.min(records, PER_RECORD_MAX_RECORDS) : records;
            while (!timer.done(target)) {
                long pollStart = System.nanoTime();
                ConsumerRecords<byte[], byte[]> polled = consumer.poll(Duration.ofMillis(100));
                if (polled.isEmpty()) {
                    continue;
                }
                long sendStart = System.nanoTime();
                timer.batch(polled.count(), sendStart - pollStart);
                timer.redelivered(polled);
                if (perRecord) {
                    for (ConsumerRecord<byte[], byte[]> r : polled) {
                        transact(producer, consumer, output, List.of(r),
                                new ConsumerRecords<>(Map.of(new TopicPartition(r.topic(), r.partition()), List.of(r)), Map.of()), timer);
                    }
                } else {
                    transact(producer, consumer, output, polled, polled, timer);
                }
            }
        }
        LoopOutcome outcome = timer.outcome();
        commits += outcome.commits();
        return outcome;
    }

    /** One transaction: the outputs of {@code records}, their acceptance ({@code acks}, the same records), the commit. */
    private void transact(Producer<byte[], byte[]> producer, ShareConsumer<byte[], byte[]> consumer, String output,
                          Iterable<ConsumerRecord<byte[], byte[]>> records, ConsumerRecords<byte[], byte[]> acks, LoopTimer timer) {
        long sendStart = System.nanoTime();
        producer.beginTransaction();
        for (ConsumerRecord<byte[], byte[]> r : records) {
            producer.send(new ProducerRecord<>(output, r.partition(), r.key(), TransformLoop.transform(r.value())));
        }
        timer.sent(sendStart);
        long began = System.nanoTime();
        sdk.sendAcceptsToTransaction(producer, consumer, acks);
        producer.commitTransaction();
        timer.commit(began);
    }
}
