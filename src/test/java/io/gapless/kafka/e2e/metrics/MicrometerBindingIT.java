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
package io.gapless.kafka.e2e.metrics;

import io.gapless.kafka.core.GaplessConsumer;
import io.gapless.kafka.core.ResetPolicy;
import io.gapless.kafka.share.GaplessShareConfig;
import io.gapless.kafka.share.GaplessShareConsumer;
import io.gapless.kafka.share.txn.ShareAcknowledgements;
import io.gapless.kafka.share.txn.TransactionalShareProducer;
import io.gapless.kafka.share.admin.ShareGroupSettings;
import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.EmbeddedKafkaTest;
import io.gapless.kafka.testkit.TestClients;
import io.gapless.kafka.testkit.TestTopics;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

import javax.management.MBeanServer;
import javax.management.ObjectName;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Collectors;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Micrometer's {@link KafkaClientMetrics} bound to each decorator reads every SDK metric back
 * (by name and tags, value for value), under the wrapped client's own {@code client-id}; the SDK's
 * metrics and its helper clients are in JMX under ids that do not collide.
 */
@EmbeddedKafkaTest
class MicrometerBindingIT {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final MBeanServer JMX = ManagementFactory.getPlatformMBeanServer();

    @Test
    void gaplessConsumer(EmbeddedKafka kafka) throws Exception {
        String topic = TestTopics.unique("metrics-consumer");
        String group = TestTopics.unique("metrics-g");
        kafka.createTopic(topic, 2);
        Properties props = TestClients.consumerProps(kafka, group, "classic");
        props.put("auto.offset.reset", "latest");
        props.put("auto.offset.reset.new.partitions", "earliest");
        try (GaplessConsumer<String, String> a = new GaplessConsumer<>(props);
             GaplessConsumer<String, String> b = new GaplessConsumer<>(props);
             KafkaProducer<String, String> producer = TestClients.producer(kafka)) {
            a.subscribe(List.of(topic));
            b.subscribe(List.of(topic));
            await("both partitions assigned and positioned").atMost(WAIT).until(() -> {
                a.poll(Duration.ofMillis(100));
                b.poll(Duration.ofMillis(100));
                a.assignment().forEach(tp -> a.position(tp, WAIT));
                b.assignment().forEach(tp -> b.position(tp, WAIT));
                return a.assignment().size() + b.assignment().size() == 2;
            });
            kafka.addPartitions(topic, 3);
            TestClients.produce(producer, topic, 2, "added", 5);
            int[] fromAdded = {0};
            await("the added partition's records (a reset by the new-partitions policy)").atMost(WAIT).until(() -> {
                for (GaplessConsumer<String, String> c : List.of(a, b)) {
                    for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(100))) {
                        fromAdded[0] += r.partition() == 2 ? 1 : 0;
                    }
                }
                return fromAdded[0] == 5;
            });

            Set<String> checked = new java.util.HashSet<>();
            for (GaplessConsumer<String, String> consumer : List.of(a, b)) {
                String clientId = kafkaClientId(consumer.metrics(), "consumer-metrics");
                assertEquals(Set.of(clientId), clientIds(SdkMeters.of(consumer.metrics())), "the SDK's metrics carry the consumer's client id");
                SimpleMeterRegistry registry = new SimpleMeterRegistry();
                try (KafkaClientMetrics binder = new KafkaClientMetrics(consumer)) {
                    binder.bindTo(registry);
                    SdkMeters.assertAllBound(consumer.metrics(), registry).forEach(m -> checked.add(m.replaceAll("\\{.*", "")));
                }
                assertTrue(JMX.isRegistered(new ObjectName("gapless.consumer:type=gapless-consumer-metrics,client-id=" + clientId)));
                for (String helper : List.of("kafka.admin.client:type=app-info,id=" + clientId + "-baseline-admin",
                        "kafka.producer:type=app-info,id=" + clientId + "-baseline-producer",
                        "kafka.consumer:type=app-info,id=" + clientId + "-baseline-reader")) {
                    assertTrue(JMX.isRegistered(new ObjectName(helper)), "helper client in JMX under its own id: " + helper);
                }
            }
            assertNotEquals(kafkaClientId(a.metrics(), "consumer-metrics"), kafkaClientId(b.metrics(), "consumer-metrics"));
            assertTrue(checked.containsAll(Set.of("kafka.gapless.consumer.new.partitions.mode", "kafka.gapless.consumer.resets.total",
                    "kafka.gapless.consumer.resets.rate", "kafka.gapless.consumer.baseline.reads.total", "kafka.gapless.consumer.baseline.reads.rate",
                    "kafka.gapless.consumer.baseline.writes.total", "kafka.gapless.consumer.baseline.writes.rate",
                    "kafka.gapless.consumer.classification.time.avg", "kafka.gapless.consumer.classification.time.max")), checked.toString());
        }
    }

    @Test
    void gaplessShareConsumer(EmbeddedKafka kafka) throws Exception {
        String topic = TestTopics.unique("metrics-share");
        String group = TestTopics.unique("metrics-sg");
        kafka.createTopic(topic, 1);
        Map<String, Object> props = new HashMap<>();
        props.put("bootstrap.servers", kafka.bootstrapServers());
        props.put("group.id", group);
        props.put("share.auto.offset.reset", "latest");
        props.put("share.auto.offset.reset.new.partitions", "earliest");
        try (KafkaProducer<String, String> producer = TestClients.producer(kafka)) {
            TestClients.produce(producer, topic, 0, "history", 5);
            try (GaplessShareConsumer<String, String> consumer = new GaplessShareConsumer<>(props, new StringDeserializer(), new StringDeserializer())) {
                consumer.subscribe(List.of(topic));
                int[] seq = {0};
                await("the group serves the partition").atMost(WAIT).until(() -> {
                    producer.send(new ProducerRecord<>(topic, 0, "k", "marker-" + seq[0]++)).get();
                    return !consumer.poll(Duration.ofMillis(300)).isEmpty();
                });
                String clientId = kafkaClientId(consumer.metrics(), "consumer-metrics");
                assertEquals(Set.of(clientId), clientIds(SdkMeters.of(consumer.metrics())), "the SDK's metrics carry the share consumer's client id");
                SimpleMeterRegistry registry = new SimpleMeterRegistry();
                List<String> checked;
                try (KafkaClientMetrics binder = new KafkaClientMetrics(SdkMeters.metricsView(consumer))) {
                    binder.bindTo(registry);
                    checked = SdkMeters.assertAllBound(consumer.metrics(), registry);
                }
                Set<String> names = checked.stream().map(m -> m.replaceAll("\\{.*", "")).collect(Collectors.toSet());
                assertTrue(names.containsAll(Set.of("kafka.gapless.share.reset.new.partitions.mode",
                        "kafka.gapless.share.reset.records.skipped.before.start.total", "kafka.gapless.share.reset.records.skipped.before.start.rate",
                        "kafka.gapless.share.reset.start.offsets.recorded.total", "kafka.gapless.share.reset.start.offsets.recorded.rate")), names.toString());
                assertTrue(JMX.isRegistered(new ObjectName("gapless.share:type=gapless-share-reset-metrics,client-id=" + clientId)));
            }
        }
    }

    @Test
    void transactionalShareProducer(EmbeddedKafka kafka) throws Exception {
        String input = TestTopics.unique("metrics-tx-in");
        String output = TestTopics.unique("metrics-tx-out");
        String group = TestTopics.unique("metrics-txg");
        String ledger = TestTopics.unique("metrics-ledger");
        String txnId = TestTopics.unique("metrics-txn");
        kafka.createTopic(input, 1);
        kafka.createTopic(output, 1);
        ShareGroupSettings.forGroup(kafka.admin(), group).update().autoOffsetReset(ResetPolicy.EARLIEST).apply();
        try (KafkaProducer<String, String> plain = TestClients.producer(kafka)) {
            TestClients.produce(plain, input, 0, "order", 3);
        }
        Map<String, Object> consumerProps = new HashMap<>();
        consumerProps.put("bootstrap.servers", kafka.bootstrapServers());
        consumerProps.put("group.id", group);
        consumerProps.put(GaplessShareConfig.ACKNOWLEDGEMENT_MODE_CONFIG, GaplessShareConfig.ACKNOWLEDGEMENT_MODE_TRANSACTIONAL);
        consumerProps.put(GaplessShareConfig.LEDGER_TOPIC_CONFIG, ledger);
        Map<String, Object> producerProps = new HashMap<>();
        producerProps.put("bootstrap.servers", kafka.bootstrapServers());
        producerProps.put("transactional.id", txnId);
        producerProps.put(GaplessShareConfig.LEDGER_TOPIC_CONFIG, ledger);
        try (GaplessShareConsumer<String, String> consumer = new GaplessShareConsumer<>(consumerProps, new StringDeserializer(), new StringDeserializer());
             TransactionalShareProducer<String, String> producer = new TransactionalShareProducer<>(producerProps, new StringSerializer(), new StringSerializer())) {
            producer.initTransactions();
            consumer.subscribe(List.of(input));
            ConsumerRecords<String, String>[] polled = new ConsumerRecords[1];
            await("the orders").atMost(WAIT).until(() -> !(polled[0] = consumer.poll(Duration.ofMillis(300))).isEmpty());
            producer.beginTransaction();
            for (ConsumerRecord<String, String> r : polled[0]) {
                producer.send(new ProducerRecord<>(output, r.key(), r.value() + " done"));
            }
            producer.sendShareAcknowledgementsToTransaction(ShareAcknowledgements.fromRecords(polled[0], AcknowledgeType.ACCEPT),
                    consumer.shareGroupMetadata());
            producer.commitTransaction();

            String clientId = kafkaClientId(producer.metrics(), "producer-metrics");
            assertEquals("producer-" + txnId, clientId, "Kafka's own id for a transactional producer");
            assertEquals(Set.of(clientId), clientIds(SdkMeters.of(producer.metrics())), "the ledger metric carries the producer's client id");
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            List<String> checked;
            try (KafkaClientMetrics binder = new KafkaClientMetrics(producer)) {
                binder.bindTo(registry);
                checked = SdkMeters.assertAllBound(producer.metrics(), registry);
            }
            assertTrue(checked.stream().anyMatch(m -> m.startsWith("kafka.gapless.share.ledger.bytes.since.snapshot")), checked.toString());
            assertTrue(!JMX.queryNames(new ObjectName("gapless.share:type=gapless-share-ledger,client-id=" + clientId + ",*"), null).isEmpty(),
                    "the ledger metric is in JMX");
        }
    }

    /** The client id Kafka's own metrics of group {@code group} carry. */
    private static String kafkaClientId(Map<MetricName, ? extends Metric> metrics, String group) {
        Set<String> ids = clientIds(metrics.entrySet().stream().filter(e -> e.getKey().group().equals(group))
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)));
        assertEquals(1, ids.size(), "one client id in " + group + ": " + ids);
        return ids.iterator().next();
    }

    private static Set<String> clientIds(Map<MetricName, ? extends Metric> metrics) {
        return metrics.keySet().stream().map(m -> m.tags().get("client-id")).filter(java.util.Objects::nonNull).collect(Collectors.toSet());
    }
}
