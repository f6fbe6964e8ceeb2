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
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import static io.gapless.kafka.share.txn.ShareTestSupport.allAcknowledged;
import static io.gapless.kafka.share.txn.ShareTestSupport.committedValues;
import static io.gapless.kafka.share.txn.ShareTestSupport.consumerConfig;
import static io.gapless.kafka.share.txn.ShareTestSupport.produce;
import static io.gapless.kafka.share.txn.ShareTestSupport.producerConfig;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A group that started at {@code latest} (Kafka's default) and is later reset to the beginning to
 * process its backlog: Kafka delivers the backlog, which no one ever processed. A snapshot (one
 * after every commit) keeps the start offset it read as a watermark, claiming every record below
 * it was acknowledged or archived; after the reset the SDK must still output each backlog record
 * once, as the plain consumer processes each one, side by side on the same topic.
 */
@EmbeddedKafkaTest
class TransactionalShareBacklogAfterResetIT {
    private static final int BACKLOG = 5;
    private static final int NEW = 3;

    private final EmbeddedKafka kafka;
    private final String input = TestTopics.unique("backlog-in");
    private final String output = TestTopics.unique("backlog-out");
    private final String ledger = TestTopics.unique("backlog-ledger");
    private final List<AutoCloseable> closeables = new ArrayList<>();

    TransactionalShareBacklogAfterResetIT(EmbeddedKafka kafka) {
        this.kafka = kafka;
        kafka.createTopic(input, 1);
        kafka.createTopic(output, 1);
    }

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : closeables) {
            try {
                c.close();
            } catch (RuntimeException e) {
                // already closed by the test
            }
        }
    }

    private void configureLatest(String group) throws Exception {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.GROUP, group);
        kafka.admin().incrementalAlterConfigs(Map.of(resource, List.of(
                new AlterConfigOp(new ConfigEntry("share.auto.offset.reset", "latest"), AlterConfigOp.OpType.SET),
                new AlterConfigOp(new ConfigEntry("share.delivery.count.limit", "2"), AlterConfigOp.OpType.SET))))
                .all().get(30, TimeUnit.SECONDS);
    }

    private void resetToBeginning(String group) {
        TopicPartition tp = new TopicPartition(input, 0);
        await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> {
            kafka.admin().alterShareGroupOffsets(group, Map.of(tp, 0L)).all().get(10, TimeUnit.SECONDS);
            return true;
        });
    }

    private GaplessShareConsumer<String, String> sdkConsumer(String group) {
        GaplessShareConsumer<String, String> c = new GaplessShareConsumer<>(consumerConfig(kafka, group, ledger));
        c.subscribe(List.of(input));
        closeables.add(c);
        return c;
    }

    private TransactionalShareProducer<String, String> sdkProducer() {
        Map<String, Object> config = producerConfig(kafka, TestTopics.unique("txn"), ledger);
        config.put(GaplessShareConfig.LEDGER_MAX_BYTES_BETWEEN_SNAPSHOTS_CONFIG, 1);   // a snapshot after every commit
        TransactionalShareProducer<String, String> p = new TransactionalShareProducer<>(config);
        closeables.add(p);
        p.initTransactions();
        return p;
    }

    private KafkaShareConsumer<String, String> plainConsumer(String group) {
        Map<String, Object> c = new HashMap<>();
        c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        c.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        c.put(ConsumerConfig.SHARE_ACKNOWLEDGEMENT_MODE_CONFIG, "explicit");
        KafkaShareConsumer<String, String> consumer = new KafkaShareConsumer<>(c, new StringDeserializer(), new StringDeserializer());
        consumer.subscribe(List.of(input));
        closeables.add(consumer);
        return consumer;
    }

    /**
     * Produces one probe record at a time until the group receives one: its share-partition is then
     * initialized (at latest), and the probes before that one join the backlog.
     */
    private void awaitInitialized(String group, java.util.function.BooleanSupplier pollGotSome) {
        int[] probe = {0};
        await().pollInSameThread().atMost(Duration.ofSeconds(60)).until(() -> {
            produce(kafka, input, 1, "probe-" + group + "-" + probe[0]++ + "-");
            for (int i = 0; i < 3; i++) {
                if (pollGotSome.getAsBoolean()) {
                    return true;
                }
            }
            return false;
        });
    }

    private void drainSdk(String group, TransactionalShareProducer<String, String> p, GaplessShareConsumer<String, String> c) {
        await().pollInSameThread().atMost(Duration.ofSeconds(90)).until(() -> {
            ConsumerRecords<String, String> records = c.poll(Duration.ofMillis(200));
            if (!records.isEmpty()) {
                p.beginTransaction();
                try {
                    for (ConsumerRecord<String, String> r : records) {
                        p.send(new ProducerRecord<>(output, r.key(), r.value()));
                    }
                    p.sendShareAcknowledgementsToTransaction(ShareAcknowledgements.fromRecords(records, AcknowledgeType.ACCEPT),
                            c.shareGroupMetadata());
                    p.commitTransaction();
                } catch (KafkaException e) {
                    p.abortTransaction();
                }
            }
            return allAcknowledged(kafka, group, input);
        });
    }

    private void drainPlain(String group, KafkaShareConsumer<String, String> c, TreeSet<String> seen) {
        await().pollInSameThread().atMost(Duration.ofSeconds(90)).until(() -> {
            for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(200))) {
                seen.add(r.value());
                c.acknowledge(r, AcknowledgeType.ACCEPT);
            }
            c.commitSync();
            return allAcknowledged(kafka, group, input);
        });
    }

    @Test
    void aBacklogBelowTheStartAGroupWasInitializedAtIsProcessedAfterAResetToTheBeginning() throws Exception {
        produce(kafka, input, BACKLOG, "old");

        // Plain Kafka: start at latest, process the new records, reset to the beginning, process the backlog.
        String plainGroup = TestTopics.unique("backlog-plain");
        configureLatest(plainGroup);
        KafkaShareConsumer<String, String> plain = plainConsumer(plainGroup);
        TreeSet<String> plainSeen = new TreeSet<>();
        awaitInitialized(plainGroup, () -> {
            ConsumerRecords<String, String> got = plain.poll(Duration.ofMillis(200));
            got.forEach(r -> {
                plainSeen.add(r.value());
                plain.acknowledge(r, AcknowledgeType.ACCEPT);
            });
            plain.commitSync();
            return !got.isEmpty();
        });

        // The SDK, same steps.
        String group = TestTopics.unique("backlog-group");
        configureLatest(group);
        GaplessShareConsumer<String, String> c1 = sdkConsumer(group);
        awaitInitialized(group, () -> !c1.poll(Duration.ofMillis(200)).isEmpty());

        produce(kafka, input, NEW, "new");
        drainPlain(plainGroup, plain, plainSeen);
        TransactionalShareProducer<String, String> p1 = sdkProducer();
        drainSdk(group, p1, c1);
        plain.close();
        c1.close();
        p1.close();

        resetToBeginning(plainGroup);
        resetToBeginning(group);
        drainPlain(plainGroup, plainConsumer(plainGroup), plainSeen);
        drainSdk(group, sdkProducer(), sdkConsumer(group));

        Map<String, Integer> counts = new TreeMap<>();
        committedValues(kafka, output).forEach(v -> counts.merge(v, 1, Integer::sum));
        Map<String, Integer> plainCounts = new TreeMap<>();
        plainSeen.forEach(v -> plainCounts.put(v, 1));
        assertEquals(BACKLOG + NEW, plainCounts.keySet().stream().filter(v -> !v.startsWith("probe")).count(),
                "plain Kafka processes the backlog and the new records: " + plainCounts);
        assertEquals(plainCounts, counts, "the SDK outputs what plain Kafka processes, once each");
    }
}
