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
import io.gapless.kafka.testkit.TestTopics;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static io.gapless.kafka.share.txn.ShareTestSupport.allAcknowledged;
import static io.gapless.kafka.share.txn.ShareTestSupport.committedValues;
import static io.gapless.kafka.share.txn.ShareTestSupport.consumerConfig;
import static io.gapless.kafka.share.txn.ShareTestSupport.producerConfig;
import static org.awaitility.Awaitility.await;

/**
 * One share group, input, output and ledger on the embedded broker, with the SDK clients of the
 * transactional-mode broker tests (created on demand, closed together) and the copy loop they run.
 */
final class ShareTxnFixture implements AutoCloseable {
    final EmbeddedKafka kafka;
    final String input;
    final String output;
    final String group;
    final String ledger;
    private final List<AutoCloseable> closeables = new ArrayList<>();

    ShareTxnFixture(EmbeddedKafka kafka, String prefix) {
        this.kafka = kafka;
        this.input = TestTopics.unique(prefix + "-in");
        this.output = TestTopics.unique(prefix + "-out");
        this.group = TestTopics.unique(prefix + "-group");
        this.ledger = TestTopics.unique(prefix + "-ledger");
        kafka.createTopic(input, 1);
        kafka.createTopic(output, 1);
    }

    GaplessShareConsumer<String, String> consumer() {
        GaplessShareConsumer<String, String> c = new GaplessShareConsumer<>(consumerConfig(kafka, group, ledger));
        c.subscribe(List.of(input));
        closeables.add(c);
        return c;
    }

    TransactionalShareProducer<String, String> producer() {
        TransactionalShareProducer<String, String> p = new TransactionalShareProducer<>(producerConfig(kafka, TestTopics.unique("txn"), ledger));
        closeables.add(p);
        p.initTransactions();
        return p;
    }

    /** One transaction: the records' values to the output, their acknowledgements from each consumer. Returns whether it committed. */
    @SafeVarargs
    final boolean commit(TransactionalShareProducer<String, String> p,
                         Map.Entry<GaplessShareConsumer<String, String>, ConsumerRecords<String, String>>... parts) {
        p.beginTransaction();
        try {
            for (Map.Entry<GaplessShareConsumer<String, String>, ConsumerRecords<String, String>> part : parts) {
                for (ConsumerRecord<String, String> r : part.getValue()) {
                    p.send(new ProducerRecord<>(output, r.key(), r.value()));
                }
                p.sendShareAcknowledgementsToTransaction(ShareAcknowledgements.fromRecords(part.getValue(), AcknowledgeType.ACCEPT),
                        part.getKey().shareGroupMetadata());
            }
            p.commitTransaction();
            return true;
        } catch (KafkaException e) {
            p.abortTransaction();
            return false;
        }
    }

    /** Copies records to the output transactionally until the group has acknowledged everything; refusals are retried. */
    void drain(TransactionalShareProducer<String, String> p, GaplessShareConsumer<String, String> c) {
        await().pollInSameThread().atMost(Duration.ofSeconds(60)).until(() -> {
            ConsumerRecords<String, String> records = c.poll(Duration.ofMillis(200));
            if (!records.isEmpty()) {
                commit(p, Map.entry(c, records));
            }
            return allAcknowledged(kafka, group, input);
        });
    }

    /** How often each value is in the read_committed output. */
    Map<String, Integer> outputCounts() {
        Map<String, Integer> counts = new TreeMap<>();
        committedValues(kafka, output).forEach(v -> counts.merge(v, 1, Integer::sum));
        return counts;
    }

    @Override
    public void close() {
        for (AutoCloseable c : closeables) {
            try {
                c.close();
            } catch (Exception e) {
                // closed by the test already, or broken on purpose
            }
        }
    }
}
