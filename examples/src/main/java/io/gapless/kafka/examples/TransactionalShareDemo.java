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
package io.gapless.kafka.examples;

import io.gapless.kafka.examples.share.ShareDemoCluster;
import io.gapless.kafka.share.GaplessShareConsumer;
import io.gapless.kafka.share.txn.ShareAcknowledgements;
import io.gapless.kafka.share.txn.TransactionalShareProducer;
import io.gapless.kafka.testkit.EmbeddedKafka;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;

import static io.gapless.kafka.examples.share.ShareDemoCluster.INPUT;
import static io.gapless.kafka.examples.share.ShareDemoCluster.OUTPUT;

/**
 * KIP-1289 on a Kafka 4.4 broker started inside this JVM: a share group enriches orders in
 * producer transactions that also carry the orders' share acknowledgements.
 * <ol>
 *   <li>A transaction is aborted on purpose: its output disappears and its orders come back.</li>
 *   <li>A slow member stalls past its record lock while a second member takes the orders over and
 *       commits them; the slow member's commit is refused instead of duplicating them.</li>
 * </ol>
 * Prints what committed and aborted and the final counts: every order once in the output.
 *
 * <p>Run: {@code mvn -B -q -pl examples -am package -DskipTests exec:java
 * -Ddemo.mainClass=io.gapless.kafka.examples.TransactionalShareDemo}
 */
public final class TransactionalShareDemo {
    private static final int ORDERS = 12;
    private static final PrintStream OUT = System.out;

    private int committedTransactions;
    private int abortedTransactions;

    private TransactionalShareDemo() {
    }

    public static void main(String[] args) throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
            OUT.println("Embedded Kafka 4.4 broker at " + kafka.bootstrapServers() + " (no KIP-1289: the SDK emulates it)");
            ShareDemoCluster cluster = new ShareDemoCluster(kafka);
            cluster.setUp(ORDERS);
            new TransactionalShareDemo().run(cluster);
        }
    }

    private void run(ShareDemoCluster cluster) throws Exception {
        try (GaplessShareConsumer<String, String> slow = new GaplessShareConsumer<>(cluster.consumerConfig("slow-member"));
             TransactionalShareProducer<String, String> slowProducer = new TransactionalShareProducer<>(cluster.producerConfig("slow-member"));
             GaplessShareConsumer<String, String> fast = new GaplessShareConsumer<>(cluster.consumerConfig("fast-member"));
             TransactionalShareProducer<String, String> fastProducer = new TransactionalShareProducer<>(cluster.producerConfig("fast-member"))) {
            slow.subscribe(List.of(INPUT));
            fast.subscribe(List.of(INPUT));
            slowProducer.initTransactions();
            fastProducer.initTransactions();

            OUT.println();
            OUT.println("1. An aborted transaction");
            ConsumerRecords<String, String> batch = pollSome(slow);
            stage(slowProducer, slow, batch, "slow-member");
            slowProducer.abortTransaction();
            abortedTransactions++;
            OUT.println("   slow-member aborted " + describe(batch) + ": output discarded, orders released for redelivery");

            OUT.println();
            OUT.println("2. A slow member stalls past its 1 s record lock");
            ConsumerRecords<String, String> stale = pollSome(slow);
            stage(slowProducer, slow, stale, "slow-member");
            OUT.println("   slow-member staged " + describe(stale) + " and stalls; fast-member takes over:");
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (!cluster.allAcknowledged() && System.nanoTime() < deadline) {
                ConsumerRecords<String, String> records = fast.poll(Duration.ofMillis(200));
                if (!records.isEmpty()) {
                    stage(fastProducer, fast, records, "fast-member");
                    fastProducer.commitTransaction();
                    committedTransactions++;
                    OUT.println("   fast-member committed " + describe(records));
                }
            }
            try {
                slowProducer.commitTransaction();
                committedTransactions++;
                OUT.println("   slow-member committed " + describe(stale) + " (its lock had not expired after all)");
            } catch (KafkaException refused) {
                abortedTransactions++;
                OUT.println("   slow-member's commit was refused and aborted: " + refused.getMessage());
                slowProducer.abortTransaction();
            }
        }

        List<String> output = cluster.committedOutput();
        int duplicates = output.size() - new HashSet<>(output).size();
        OUT.println();
        OUT.printf("orders: %d, committed transactions: %d, aborted transactions: %d%n", ORDERS, committedTransactions, abortedTransactions);
        OUT.printf("read_committed output: %d records, %d distinct, %d duplicates, %d missing; share group fully acknowledged: %s%n",
                output.size(), new HashSet<>(output).size(), duplicates, ORDERS - new HashSet<>(output).size(), cluster.allAcknowledged());
        OUT.flush();
    }

    private static ConsumerRecords<String, String> pollSome(GaplessShareConsumer<String, String> consumer) {
        ConsumerRecords<String, String> records = ConsumerRecords.empty();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (records.isEmpty() && System.nanoTime() < deadline) {
            records = consumer.poll(Duration.ofMillis(200));
        }
        return records;
    }

    /** Begins a transaction, enriches the orders into it and stages their acknowledgements. */
    private static void stage(TransactionalShareProducer<String, String> producer, GaplessShareConsumer<String, String> consumer,
                              ConsumerRecords<String, String> records, String who) {
        producer.beginTransaction();
        for (ConsumerRecord<String, String> r : records) {
            producer.send(new ProducerRecord<>(OUTPUT, r.key(), r.value() + " enriched by " + who));
        }
        producer.sendShareAcknowledgementsToTransaction(ShareAcknowledgements.fromRecords(records, AcknowledgeType.ACCEPT),
                consumer.shareGroupMetadata());
    }

    private static String describe(ConsumerRecords<String, String> records) {
        List<String> parts = new ArrayList<>();
        for (ConsumerRecord<String, String> r : records) {
            parts.add(r.offset() + (r.deliveryCount().orElse((short) 1) > 1 ? "(delivery " + r.deliveryCount().get() + ")" : ""));
        }
        return "offsets " + parts;
    }
}
