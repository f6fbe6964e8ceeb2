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
package io.gapless.kafka.spring.boot;

import io.gapless.kafka.core.ResetPolicy;
import io.gapless.kafka.share.admin.ShareGroupSettings;
import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.EmbeddedKafkaTest;
import io.gapless.kafka.testkit.TestClients;
import io.gapless.kafka.testkit.TestTopics;
import org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec;
import org.apache.kafka.clients.admin.SharePartitionOffsetInfo;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.core.KafkaTemplate;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The container-managed transactional share listener in a Boot application: a {@code @KafkaListener}
 * that only calls {@code template.send}, two consumer threads, one poison record and records that
 * fail on their first delivery. Every good input appears exactly once in the {@code read_committed}
 * output, the poison record is handed to the listener exactly {@code max-attempts} times, commits
 * no output and ends rejected (the group acknowledged every input record); the {@code gapless}
 * health is up and names the group's ack ledger.
 */
@EmbeddedKafkaTest
class TransactionalShareListenerIT {
    static final Duration WAIT = Duration.ofSeconds(120);
    private static final int PAYMENTS = 150;
    private static final int FLAKY = 5;
    private static final int PARTITIONS = 3;

    @Test
    void exactlyOnceInTheReadCommittedOutputWithAPoisonRecordRejectedAfterMaxAttempts(EmbeddedKafka kafka) throws Exception {
        String input = TestTopics.unique("boot-payments");
        String output = input + "-enriched";
        String group = TestTopics.unique("boot-enricher");
        kafka.createTopic(input, PARTITIONS);
        kafka.createTopic(output, 1);
        List<String> written = new ArrayList<>();
        IntStream.range(0, PAYMENTS).forEach(i -> written.add("payment-" + i));
        IntStream.range(0, FLAKY).forEach(i -> written.add("flaky-" + i));
        written.add(PaymentEnricher.POISON);
        produce(kafka, input, written);
        prepareGroup(kafka, group);

        try (ConfigurableApplicationContext app = start(kafka, input, output, group, "tx-" + group + "-")) {
            PaymentEnricher enricher = app.getBean(PaymentEnricher.class);
            List<String> expected = written.stream().filter(v -> !v.equals(PaymentEnricher.POISON)).map(v -> v + " enriched").sorted().toList();
            await("every good payment enriched in the read_committed output").atMost(WAIT).pollInterval(Duration.ofMillis(500))
                    .until(() -> committedValues(kafka, output).size() >= expected.size());
            await("the share group acknowledged every input record, the poison one rejected").atMost(WAIT).pollInterval(Duration.ofMillis(500))
                    .ignoreExceptions().until(() -> fullyAcknowledged(kafka, group, input));
            List<String> committed = new ArrayList<>(committedValues(kafka, output));
            committed.sort(null);
            assertEquals(expected, committed, "each good payment exactly once, no output of the poison record");
            assertEquals(3, enricher.attempts(PaymentEnricher.POISON), "the poison record is handed over max-attempts times");
            IntStream.range(0, FLAKY).forEach(i -> assertTrue(enricher.attempts("flaky-" + i) >= 2, "flaky-" + i + " was retried"));
            GaplessClients clients = app.getBean(GaplessClients.class);
            assertEquals(2, clients.open().stream().filter(c -> c.kind().equals("share-consumer")).count(), "two GaplessShareConsumers");
            clients.open().forEach(c -> assertEquals("emulate", c.mode(), "Kafka 4.4 lacks KIP-1289: the ack ledger"));
            Health health = app.getBean(GaplessHealthIndicator.class).health(true);
            assertEquals(Status.UP, health.getStatus(), health::toString);
            assertEquals(Map.of("__gapless_ledger." + group, "present (1 partitions)"), health.getDetails().get("stateTopics"), health::toString);
        }
    }

    /**
     * The inputs predate the group: it starts at the earliest offset; short locks so that a lost
     * holder's records come back soon; a delivery limit above the container's attempts (records
     * released because another record of their poll failed cost a delivery too).
     */
    static void prepareGroup(EmbeddedKafka kafka, String group) {
        ShareGroupSettings.forGroup(kafka.admin(), group).update().autoOffsetReset(ResetPolicy.EARLIEST)
                .recordLockDuration(Duration.ofSeconds(5)).deliveryCountLimit(10).apply();
    }

    static ConfigurableApplicationContext start(EmbeddedKafka kafka, String input, String output, String group, String txPrefix) {
        return start(PaymentEnricher.class, kafka, input, output, group, txPrefix);
    }

    /** {@code application} with the properties of {@link #start(EmbeddedKafka, String, String, String, String)}. */
    static ConfigurableApplicationContext start(Class<?> application, EmbeddedKafka kafka, String input, String output, String group,
                                                String txPrefix) {
        List<String> properties = new ArrayList<>(List.of(
                "spring.kafka.bootstrap-servers=" + kafka.bootstrapServers(),
                "spring.kafka.consumer.key-deserializer=org.apache.kafka.common.serialization.StringDeserializer",
                "spring.kafka.consumer.value-deserializer=org.apache.kafka.common.serialization.StringDeserializer",
                "spring.kafka.producer.key-serializer=org.apache.kafka.common.serialization.StringSerializer",
                "spring.kafka.producer.value-serializer=org.apache.kafka.common.serialization.StringSerializer",
                "spring.kafka.producer.transaction-id-prefix=" + txPrefix,
                "spring.kafka.producer.properties.transaction.timeout.ms=10000",
                "gapless.share.listener.max-attempts=3",
                "gapless.share.listener.concurrency=2",
                "payments.input=" + input, "payments.output=" + output, "payments.group=" + group));
        kafka.clientProperties().forEach((k, v) -> {
            if (!"bootstrap.servers".equals(k)) {
                properties.add("spring.kafka.properties." + k + "=" + v);
            }
        });
        return new SpringApplicationBuilder(application).web(WebApplicationType.NONE)
                .properties(properties.toArray(String[]::new)).run();
    }

    static void produce(EmbeddedKafka kafka, String topic, List<String> values) throws Exception {
        Map<String, Object> props = new HashMap<>();
        kafka.clientProperties().forEach((k, v) -> props.put((String) k, v));
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
            for (String value : values) {
                producer.send(new ProducerRecord<>(topic, value, value));
            }
            producer.flush();
        }
    }

    /** Whether the share group's lag is 0 on every partition of {@code topic}: every record acknowledged (accepted or rejected). */
    static boolean fullyAcknowledged(EmbeddedKafka kafka, String group, String topic) throws Exception {
        List<TopicPartition> partitions = IntStream.range(0, kafka.partitionCount(topic)).mapToObj(p -> new TopicPartition(topic, p)).toList();
        Map<TopicPartition, SharePartitionOffsetInfo> offsets = kafka.admin()
                .listShareGroupOffsets(Map.of(group, new ListShareGroupOffsetsSpec().topicPartitions(partitions)))
                .partitionsToOffsetInfo(group).get(30, TimeUnit.SECONDS);
        return partitions.stream().allMatch(tp -> offsets.get(tp) != null && offsets.get(tp).lag().orElse(-1L) == 0);
    }

    static List<String> committedValues(EmbeddedKafka kafka, String topic) {
        return TestClients.committedValues(kafka, topic);
    }

    /** The application: the listener only sends; a poison record always fails, a flaky one fails its first delivery. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class PaymentEnricher {
        static final String POISON = "poison";
        private final Map<String, AtomicInteger> attempts = new ConcurrentHashMap<>();
        private final KafkaTemplate<String, String> template;
        private final String output;

        PaymentEnricher(KafkaTemplate<String, String> template, org.springframework.core.env.Environment env) {
            this.template = template;
            this.output = env.getRequiredProperty("payments.output");
        }

        @KafkaListener(id = "enricher", groupId = "${payments.group}", topics = "${payments.input}",
                containerFactory = "transactionalShareListenerContainerFactory")
        void enrich(ConsumerRecord<String, String> payment) {
            int attempt = attempts.computeIfAbsent(payment.value(), v -> new AtomicInteger()).incrementAndGet();
            template.send(output, payment.key(), payment.value() + " enriched");   // joins the poll's transaction
            if (payment.value().equals(POISON) || (payment.value().startsWith("flaky-") && attempt == 1)) {
                throw new IllegalStateException("cannot enrich " + payment.value());
            }
        }

        int attempts(String value) {
            AtomicInteger n = attempts.get(value);
            return n == null ? 0 : n.get();
        }
    }
}
