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

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Kafka's exactly-once loop for consumer groups: per batch, {@code beginTransaction}, send the
 * outputs, then commit = {@code sendOffsetsToTransaction} + {@code commitTransaction}.
 */
public final class ConsumerEosLoop implements TransformLoop {
    private final String name;
    private final Integer retryBackoffMs;

    /** With the producer's default {@code retry.backoff.ms}. */
    public ConsumerEosLoop() {
        this("consumer_eos", null);
    }

    /**
     * With {@code retry.backoff.ms} set: the next transaction's {@code AddOffsetsToTxn} can be
     * answered {@code CONCURRENT_TRANSACTIONS} while the previous one's markers are written, and
     * the producer then waits out this backoff (100 ms by default).
     */
    public ConsumerEosLoop(String name, Integer retryBackoffMs) {
        this.name = name;
        this.retryBackoffMs = retryBackoffMs;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public LoopOutcome run(BenchmarkContext ctx, String input, String output, int records, int batch, int run) {
        String group = ctx.unique(name.replace('_', '-') + "-" + run);
        Map<String, Object> cc = ClientSettings.consumer(ctx.kafka(), group, "classic", "earliest");
        cc.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, batch);
        cc.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        Map<String, Object> pc = ClientSettings.producer(ctx.kafka());
        pc.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, group + "-tx");
        if (retryBackoffMs != null) {
            pc.put(ProducerConfig.RETRY_BACKOFF_MS_CONFIG, retryBackoffMs);
        }
        LoopTimer timer = new LoopTimer(name + " run " + run);
        try (Consumer<byte[], byte[]> consumer = new KafkaConsumer<>(cc);
             Producer<byte[], byte[]> producer = new KafkaProducer<>(pc)) {
            producer.initTransactions();
            consumer.subscribe(List.of(input));
            while (!timer.done(records)) {
                long pollStart = System.nanoTime();
                ConsumerRecords<byte[], byte[]> polled = consumer.poll(Duration.ofMillis(100));
                if (polled.isEmpty()) {
                    continue;
                }
                long sendStart = System.nanoTime();
                timer.batch(polled.count(), sendStart - pollStart);
                producer.beginTransaction();
                Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
                for (ConsumerRecord<byte[], byte[]> r : polled) {
                    producer.send(new ProducerRecord<>(output, r.partition(), r.key(), TransformLoop.transform(r.value())));
                    offsets.put(new TopicPartition(r.topic(), r.partition()), new OffsetAndMetadata(r.offset() + 1));
                }
                timer.sent(sendStart);
                long began = System.nanoTime();
                producer.sendOffsetsToTransaction(offsets, consumer.groupMetadata());
                producer.commitTransaction();
                timer.commit(began);
            }
        }
        return timer.outcome();
    }
}
