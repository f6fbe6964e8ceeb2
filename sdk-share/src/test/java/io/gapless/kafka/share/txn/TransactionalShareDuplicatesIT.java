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
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.gapless.kafka.share.txn.ShareTestSupport.configureGroup;
import static io.gapless.kafka.share.txn.ShareTestSupport.produce;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 22's reproductions on the embedded broker, each step driven one at a time: two
 * participants of one transaction where only one acknowledgement lands (finding 1), two stale
 * holders at delivery limit 2 after the record was archived below the start offset (finding 2),
 * and a healthy producer the slow path must not fence (finding 5). Every input at most once in
 * the read_committed output, and once the group is drained, exactly once or archived.
 */
@EmbeddedKafkaTest
class TransactionalShareDuplicatesIT {
    private static final int LOCK_MS = 1500;

    private final EmbeddedKafka kafka;
    private final ShareTxnFixture f;
    private final String input;
    private final String output;
    private final String group;

    TransactionalShareDuplicatesIT(EmbeddedKafka kafka) {
        this.kafka = kafka;
        this.f = new ShareTxnFixture(kafka, "dup");
        this.input = f.input;
        this.output = f.output;
        this.group = f.group;
    }

    @AfterEach
    void close() {
        f.close();
    }

    private static ConsumerRecords<String, String> pollUntilSome(GaplessShareConsumer<String, String> c) {
        List<ConsumerRecords<String, String>> got = new ArrayList<>();
        await().pollInSameThread().atMost(Duration.ofSeconds(30)).until(() -> {
            ConsumerRecords<String, String> records = c.poll(Duration.ofMillis(200));
            if (!records.isEmpty()) {
                got.add(records);
            }
            return !got.isEmpty();
        });
        return got.get(0);
    }

    private static void assertAtMostOnce(Map<String, Integer> counts) {
        counts.forEach((value, n) -> assertEquals(1, n, value + " was committed " + n + " times: " + counts));
    }

    /**
     * Finding 1: C1 and C2 hold disjoint records of one share-partition, one transaction stages both;
     * only C1's acknowledgements land (C2 is closed before the commit, so Kafka released its records).
     */
    @Test
    void oneParticipantsAcknowledgementDoesNotConfirmAnothersRecords() throws Exception {
        configureGroup(kafka, group, 30_000, 5);
        produce(kafka, input, 5, "a");
        GaplessShareConsumer<String, String> c1 = f.consumer();
        ConsumerRecords<String, String> first = pollUntilSome(c1);
        produce(kafka, input, 5, "b");
        GaplessShareConsumer<String, String> c2 = f.consumer();
        ConsumerRecords<String, String> second = pollUntilSome(c2);
        TransactionalShareProducer<String, String> p = f.producer();
        p.beginTransaction();
        for (ConsumerRecord<String, String> r : first) {
            p.send(new ProducerRecord<>(output, r.key(), r.value()));
        }
        for (ConsumerRecord<String, String> r : second) {
            p.send(new ProducerRecord<>(output, r.key(), r.value()));
        }
        p.sendShareAcknowledgementsToTransaction(ShareAcknowledgements.fromRecords(first, AcknowledgeType.ACCEPT), c1.shareGroupMetadata());
        p.sendShareAcknowledgementsToTransaction(ShareAcknowledgements.fromRecords(second, AcknowledgeType.ACCEPT), c2.shareGroupMetadata());
        c2.close();
        p.commitTransaction();
        p.close();   // writes the confirmations its next entry would have carried

        f.drain(f.producer(), c1);
        Map<String, Integer> counts = f.outputCounts();
        assertAtMostOnce(counts);
        assertEquals(first.count() + second.count(), counts.size(), "every input exactly once: " + counts);
    }

    /**
     * Finding 2: with share.delivery.count.limit=2, H1 (delivery 1) and H2 (delivery 2) both outlive
     * their locks, the record is archived and a later commit moves the start offset past it; then H1
     * and H2 commit it, and Kafka reports both acknowledgements as success.
     */
    @Test
    void twoStaleHoldersOfAnArchivedRecordDoNotBothCommitIt() throws Exception {
        configureGroup(kafka, group, LOCK_MS, 2);
        produce(kafka, input, 1, "r");
        GaplessShareConsumer<String, String> h1 = f.consumer();
        ConsumerRecords<String, String> d1 = pollUntilSome(h1);
        GaplessShareConsumer<String, String> h2 = f.consumer();
        ConsumerRecords<String, String> d2 = pollUntilSome(h2);
        assertEquals((short) 2, d2.iterator().next().deliveryCount().orElseThrow());

        produce(kafka, input, 1, "s");
        f.drain(f.producer(), f.consumer());   // s committed; lag 0 once r is archived

        TransactionalShareProducer<String, String> p1 = f.producer();
        boolean h1Committed = f.commit(p1, Map.entry(h1, d1));
        p1.close();   // writes the confirmations its next entry would have carried
        boolean h2Committed = f.commit(f.producer(), Map.entry(h2, d2));
        Map<String, Integer> counts = f.outputCounts();
        assertAtMostOnce(counts);
        assertEquals(1, counts.get("s0"));
        assertTrue(!(h1Committed && h2Committed), "at most one stale holder commits r0: " + counts);
    }

    /**
     * Finding 5: P1's entry for r committed (its acknowledgement did not land: r had been redelivered
     * to C2); P2, staging the redelivery, takes the slow path. It must not fence P1, whose
     * transaction is long resolved: P1's next transaction commits.
     */
    @Test
    void theSlowPathDoesNotFenceAProducerWhoseEntryIsResolved() throws Exception {
        configureGroup(kafka, group, LOCK_MS, 5);
        produce(kafka, input, 1, "r");
        GaplessShareConsumer<String, String> c1 = f.consumer();
        ConsumerRecords<String, String> d1 = pollUntilSome(c1);
        GaplessShareConsumer<String, String> c2 = f.consumer();
        ConsumerRecords<String, String> d2 = pollUntilSome(c2);
        assertEquals((short) 2, d2.iterator().next().deliveryCount().orElseThrow());

        TransactionalShareProducer<String, String> p1 = f.producer();
        assertTrue(f.commit(p1, Map.entry(c1, d1)), "P1 sees no entry for r: it commits");
        TransactionalShareProducer<String, String> p2 = f.producer();
        assertTrue(!f.commit(p2, Map.entry(c2, d2)), "P2 is refused: P1 committed r");

        produce(kafka, input, 1, "s");
        ConsumerRecords<String, String> next = pollUntilSome(c1);
        p1.beginTransaction();
        for (ConsumerRecord<String, String> r : next) {
            p1.send(new ProducerRecord<>(output, r.key(), r.value()));
        }
        p1.sendShareAcknowledgementsToTransaction(ShareAcknowledgements.fromRecords(next, AcknowledgeType.ACCEPT), c1.shareGroupMetadata());
        p1.commitTransaction();   // fenced on unfixed code
        assertEquals(Map.of("r0", 1, "s0", 1), f.outputCounts());
    }
}
