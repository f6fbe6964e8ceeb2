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
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.gapless.kafka.share.txn.ShareTestSupport.committedValues;
import static io.gapless.kafka.share.txn.ShareTestSupport.configureGroup;
import static io.gapless.kafka.share.txn.ShareTestSupport.producerConfig;
import static io.gapless.kafka.share.txn.UpstreamScenarios.awaitLag;
import static io.gapless.kafka.share.txn.UpstreamScenarios.explicitConsumerConfig;
import static io.gapless.kafka.share.txn.UpstreamScenarios.pollFor;
import static io.gapless.kafka.share.txn.UpstreamScenarios.pollUntil;
import static io.gapless.kafka.share.txn.UpstreamScenarios.produceOneBatch;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The single-broker KIP-1289 scenarios of Kafka's own {@code ShareConsumerTransactionTest},
 * restated on the SDK against Kafka 4.4 (where the SDK emulates KIP-1289 with its ack ledger):
 * the application code is Kafka's shape ({@code explicit} mode, {@code acknowledge},
 * {@code acknowledgementsForTransaction()}, {@code sendShareAcknowledgementsToTransaction}), only
 * the imports name the SDK. The record lock is 2 s, so "nothing redelivered" is watched for longer
 * than a lock.
 */
@EmbeddedKafkaTest
class UpstreamShapeTransactionsIT {
    private static final int LOCK_MS = 2000;
    private static final Duration LONGER_THAN_A_LOCK = Duration.ofMillis(LOCK_MS + 1500);

    private final EmbeddedKafka kafka;
    private final String group = TestTopics.unique("upstream-group");
    private final String ledger = TestTopics.unique("upstream-ledger");
    private final TopicPartition tp = new TopicPartition(TestTopics.unique("upstream-in"), 0);
    private final String output = TestTopics.unique("upstream-out");
    private final List<AutoCloseable> closeables = new ArrayList<>();

    UpstreamShapeTransactionsIT(EmbeddedKafka kafka) throws Exception {
        this.kafka = kafka;
        kafka.createTopic(tp.topic(), 1);
        kafka.createTopic(output, 1);
        configureGroup(kafka, group, LOCK_MS);
    }

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : closeables) {
            c.close();
        }
    }

    private GaplessShareConsumer<String, String> consumer() {
        GaplessShareConsumer<String, String> c = new GaplessShareConsumer<>(explicitConsumerConfig(kafka, group, ledger));
        closeables.add(c);
        c.subscribe(List.of(tp.topic()));
        return c;
    }

    private TransactionalShareProducer<String, String> producer() {
        TransactionalShareProducer<String, String> p = new TransactionalShareProducer<>(producerConfig(kafka, TestTopics.unique("txn"), ledger));
        closeables.add(p);
        p.initTransactions();
        return p;
    }

    /** One record, acknowledged with {@code type}, taken for a transaction that commits or aborts; returns what was taken. */
    private ShareAcknowledgements oneRecordTransaction(GaplessShareConsumer<String, String> consumer, AcknowledgeType type, boolean commit) {
        TransactionalShareProducer<String, String> producer = producer();
        List<ConsumerRecord<String, String>> records = pollUntil(consumer, 1);
        ConsumerRecord<String, String> record = records.get(0);
        assertEquals(0L, record.offset());
        assertEquals("first", record.value());

        ShareGroupMetadata metadata = consumer.shareGroupMetadata();
        consumer.acknowledge(record, type);
        ShareAcknowledgements acks = consumer.acknowledgementsForTransaction();
        assertFalse(acks.isEmpty());
        TopicIdPartition acknowledged = acks.acknowledgements().keySet().iterator().next();
        assertEquals(tp, acknowledged.topicPartition());
        assertEquals(kafka.topicId(tp.topic()), acknowledged.topicId(), "with the topic id, as Kafka's consumer reports it");
        assertEquals(List.of(new ShareAcknowledgementBatch(0, 0, List.of(type.id))), acks.acknowledgements().get(acknowledged));

        producer.beginTransaction();
        producer.send(new ProducerRecord<>(output, record.key(), record.value()));
        producer.sendShareAcknowledgementsToTransaction(acks, metadata);
        if (commit) {
            producer.commitTransaction();
        } else {
            producer.abortTransaction();
        }
        return acks;
    }

    @Test
    void commitAccept() throws Exception {
        produceOneBatch(kafka, tp, "first");
        GaplessShareConsumer<String, String> consumer = consumer();
        oneRecordTransaction(consumer, AcknowledgeType.ACCEPT, true);
        awaitLag(kafka, group, tp, 0);
        assertEquals(List.of(), pollFor(consumer, LONGER_THAN_A_LOCK), "nothing redelivered");
        assertEquals(List.of("first"), committedValues(kafka, output), "the output committed once");
    }

    @Test
    void abortAcceptRedeliversTheSameOffset() throws Exception {
        produceOneBatch(kafka, tp, "first");
        GaplessShareConsumer<String, String> consumer = consumer();
        oneRecordTransaction(consumer, AcknowledgeType.ACCEPT, false);
        awaitLag(kafka, group, tp, 1);
        List<ConsumerRecord<String, String>> again = pollUntil(consumer, 1);
        assertEquals(0L, again.get(0).offset());
        assertEquals("first", again.get(0).value());
        // KIP-1289 returns an aborted record to its holder: the SDK renews its lock, so the delivery is not burnt.
        assertEquals((short) 1, again.get(0).deliveryCount().orElseThrow(), "the same delivery, back with its holder");
        assertEquals(List.of(), committedValues(kafka, output), "the aborted output is invisible");
    }

    @Test
    void commitReject() throws Exception {
        produceOneBatch(kafka, tp, "first");
        GaplessShareConsumer<String, String> consumer = consumer();
        oneRecordTransaction(consumer, AcknowledgeType.REJECT, true);
        awaitLag(kafka, group, tp, 0);
        assertEquals(List.of(), pollFor(consumer, LONGER_THAN_A_LOCK), "a rejected record never comes back");
    }

    @Test
    void commitAHandBuiltSubset() throws Exception {
        produceOneBatch(kafka, tp, "zero", "one", "two");
        GaplessShareConsumer<String, String> consumer = consumer();
        TransactionalShareProducer<String, String> producer = producer();
        List<ConsumerRecord<String, String>> records = pollUntil(consumer, 3);
        assertEquals("one", records.get(1).value());
        TopicIdPartition partition = new TopicIdPartition(kafka.topicId(tp.topic()), tp);
        ShareAcknowledgements subset = new ShareAcknowledgements(Map.of(partition,
                List.of(new ShareAcknowledgementBatch(1, 1, List.of(AcknowledgeType.ACCEPT.id)))));
        assertEquals(1L, subset.acknowledgements().get(partition).get(0).firstOffset());
        producer.beginTransaction();
        producer.sendShareAcknowledgementsToTransaction(subset, consumer.shareGroupMetadata());
        producer.commitTransaction();
        awaitLag(kafka, group, tp, 2);
        assertTrue(records.stream().allMatch(r -> r.deliveryCount().orElseThrow() == 1));
    }
}
