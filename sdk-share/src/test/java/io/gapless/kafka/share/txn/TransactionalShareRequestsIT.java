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
import io.gapless.kafka.testkit.BrokerRequests;
import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.EmbeddedKafkaTest;
import io.gapless.kafka.testkit.TestTopics;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.gapless.kafka.share.txn.ShareTestSupport.committedValues;
import static io.gapless.kafka.share.txn.ShareTestSupport.configureGroup;
import static io.gapless.kafka.share.txn.ShareTestSupport.consumerConfig;
import static io.gapless.kafka.share.txn.ShareTestSupport.produce;
import static io.gapless.kafka.share.txn.ShareTestSupport.producerConfig;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Broker round trips per commit of the happy path of the emulated loop (issue 13), counted by the
 * embedded broker itself ({@code kafka.network:type=RequestMetrics}, in this JVM): the commit
 * check reads the "all" view up to its own entry (known offset, no ListOffsets) and, with no
 * overlapping entry below it, neither waits on the "committed" view nor lists its end.
 */
@EmbeddedKafkaTest
class TransactionalShareRequestsIT {
    private static final int RECORDS = 10_000;
    private static final int WARM_UP = 3;
    private static final int MEASURED = 10;

    private final EmbeddedKafka kafka;
    private final String input = TestTopics.unique("req-in");
    private final String output = TestTopics.unique("req-out");
    private final String group = TestTopics.unique("req-group");
    private final String ledger = TestTopics.unique("req-ledger");

    TransactionalShareRequestsIT(EmbeddedKafka kafka) throws Exception {
        this.kafka = kafka;
        kafka.createTopic(input, 1);
        kafka.createTopic(output, 1);
        configureGroup(kafka, group, 30_000);
        produce(kafka, input, RECORDS);
    }

    @Test
    void theHappyPathListsNoOffsetsAndReadsTheLedgerOncePerCommit() throws Exception {
        Map<String, Object> pc = producerConfig(kafka, TestTopics.unique("req-txn"), ledger);
        pc.put(ProducerConfig.RETRY_BACKOFF_MS_CONFIG, 5);
        Set<String> seen = new HashSet<>();
        Map<String, Long> delta;
        int commits = 0;
        Map<String, Object> cc = consumerConfig(kafka, group, ledger);
        // As the share-eos benchmark: exactly one batch of at most 500 records acquired per poll.
        cc.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 500);
        cc.put(ConsumerConfig.SHARE_ACQUIRE_MODE_CONFIG, "record_limit");
        try (GaplessShareConsumer<String, String> c = new GaplessShareConsumer<>(cc);
             TransactionalShareProducer<String, String> p = new TransactionalShareProducer<>(pc)) {
            c.subscribe(List.of(input));
            p.initTransactions();
            Map<String, Long> before = Map.of();
            while (commits < WARM_UP + MEASURED) {
                ConsumerRecords<String, String> records = poll(c);
                if (commits == WARM_UP) {
                    before = requests();
                }
                p.beginTransaction();
                for (ConsumerRecord<String, String> r : records) {
                    assertTrue(seen.add(r.value()), "handed out twice: " + r.value());
                    p.send(new ProducerRecord<>(output, r.key(), r.value()));
                }
                p.sendShareAcknowledgementsToTransaction(ShareAcknowledgements.fromRecords(records, AcknowledgeType.ACCEPT),
                        c.shareGroupMetadata());
                p.commitTransaction();
                commits++;
            }
            delta = BrokerRequests.since(before, requests());
        }
        double listOffsets = delta.getOrDefault("ListOffsets", 0L) / (double) MEASURED;
        double fetches = delta.getOrDefault("Fetch", 0L) / (double) MEASURED;
        double all = delta.values().stream().mapToLong(Long::longValue).sum() / (double) MEASURED;
        String figures = String.format("per commit over %d commits: %.2f requests in all, ListOffsets %.2f, Fetch %.2f; %s",
                MEASURED, all, listOffsets, fetches, delta);
        System.out.println("Broker requests " + figures);
        // What is left is the KIP-1289 mode guard's read of the group's mode topic to its end (one ListOffsets).
        assertTrue(listOffsets <= 1.1, "the commit path lists no ledger offsets (only the mode topic's end is listed): " + figures);
        // Two ledger records per commit (our entry, then the coordinator's commit marker): the read-back
        // fetch, and the fetch the consumer pipelines after it, which the marker completes.
        assertTrue(fetches <= 2.2, "one ledger read-back fetch per commit and its pipelined successor, no committed-view reads: "
                + figures);
        List<String> out = committedValues(kafka, output);
        assertEquals(seen.size(), out.size(), "every committed record exactly once in the output");
        assertEquals(seen, new HashSet<>(out));
    }

    private static Map<String, Long> requests() {
        Map<String, Long> counts = BrokerRequests.counts();
        assertTrue(!counts.isEmpty(), "the embedded broker's request metrics are not in this JVM");
        return counts;
    }

    private static ConsumerRecords<String, String> poll(GaplessShareConsumer<String, String> c) {
        ConsumerRecords<String, String>[] got = new ConsumerRecords[1];
        await().pollInSameThread().atMost(Duration.ofSeconds(30)).until(() -> {
            got[0] = c.poll(Duration.ofMillis(200));
            return !got[0].isEmpty();
        });
        return got[0];
    }
}
