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
package io.gapless.kafka.e2e.security;

import io.gapless.kafka.core.BaselineUnavailableException;
import io.gapless.kafka.core.GaplessConsumer;
import io.gapless.kafka.core.spi.BaselineTopic;
import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.KafkaSecurity;
import io.gapless.kafka.testkit.TestClients;
import io.gapless.kafka.testkit.TestTopics;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * GaplessConsumer on SASL_SSL with exactly the ACLs docs/security.md's permission table lists: the
 * expansion scenario on both group protocols, each baseline ACL taken away in turn, the
 * base-policy fallback, a topic the principal cannot describe when the group starts, tenant
 * isolation, and no secret in any log line, metric tag or exception message.
 */
@ExtendWith(SecuredKafka.class)
class GaplessConsumerSecurityIT {
    private static final Duration WAIT = Duration.ofSeconds(45);
    /** docs/security.md: what the consumer's principal needs on its group's baseline topic, besides Kafka's own Read on group and topic. */
    private static final AclOperation[] BASELINE_ACLS = {AclOperation.READ, AclOperation.WRITE, AclOperation.DESCRIBE_CONFIGS,
        AclOperation.CREATE};

    private static SecretWatch secrets;

    private final EmbeddedKafka kafka;

    GaplessConsumerSecurityIT(EmbeddedKafka kafka) {
        this.kafka = kafka;
    }

    @BeforeAll
    static void capture(EmbeddedKafka kafka) {
        secrets = SecretWatch.start(kafka);
    }

    @AfterAll
    static void noSecretInAnyLogLine() {
        secrets.verifyAndClose(" = [hidden]");
    }

    private Tenant tenant(String name) {
        return secrets.tenant(kafka, name);
    }

    private Properties props(Tenant t, String protocol) {
        Properties p = t.consumerProps(protocol);
        p.put("auto.offset.reset", "latest");
        p.put("auto.offset.reset.new.partitions", "earliest");
        p.put("gapless.baseline.timeout.ms", 10_000L);
        return p;
    }

    @ParameterizedTest(name = "group.protocol={0}")
    @ValueSource(strings = {"classic", "consumer"})
    void theDocumentedAclsAreEnoughForTheExpansionScenario(String protocol) throws Exception {
        Tenant t = tenant("lp-" + protocol);
        kafka.createTopic(t.topic(), 2);
        t.allowConsumer();
        t.allow(ResourceType.TOPIC, t.baselineTopic(), BASELINE_ACLS);
        try (KafkaProducer<String, String> producer = TestClients.producer(kafka)) {
            TestClients.produce(producer, t.topic(), 0, "history0", 20);
            TestClients.produce(producer, t.topic(), 1, "history1", 20);
            try (GaplessConsumer<String, String> consumer = new GaplessConsumer<>(props(t, protocol))) {
                consumer.subscribe(List.of(t.topic()));
                List<ConsumerRecord<String, String>> received = new ArrayList<>(awaitPositioned(consumer, 2));
                kafka.addPartitions(t.topic(), 4);
                Set<String> expected = new HashSet<>();
                for (int p = 0; p < 4; p++) {
                    expected.addAll(TestClients.produce(producer, t.topic(), p, "live" + p, 125));
                }
                received.addAll(TestClients.pollUntil(consumer, WAIT, r -> values(r).containsAll(expected)));
                received.addAll(TestClients.drain(consumer, Duration.ofMillis(500)));
                assertEquals(500, received.size(), "every live record exactly once, no history");
                assertEquals(expected, values(received));
                assertEquals(2.0, newResets(consumer), "the two added partitions were reset as new");
                assertNoSecretInMetrics(consumer);
            }
        }
        TopicDescription baseline = kafka.admin().describeTopics(List.of(t.baselineTopic())).allTopicNames().get().get(t.baselineTopic());
        assertEquals(1, baseline.partitions().size(), "one partition per group's topic");
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, t.baselineTopic());
        Config config = kafka.admin().describeConfigs(List.of(resource)).all().get().get(resource);
        assertEquals("compact", config.get("cleanup.policy").value());
        assertEquals("LogAppendTime", config.get("message.timestamp.type").value());
    }

    @ParameterizedTest(name = "without {0} on the baseline topic")
    @EnumSource(value = AclOperation.class, names = {"READ", "WRITE", "DESCRIBE_CONFIGS", "CREATE"})
    void eachBaselineAclTakenAwayFailsNamingItAndLosesNothing(AclOperation missing) throws Exception {
        Tenant t = tenant("minus-" + missing.name().toLowerCase().replace('_', '-'));
        kafka.createTopic(t.topic(), 2);
        t.allowConsumer();
        AclOperation[] rest = java.util.Arrays.stream(BASELINE_ACLS).filter(op -> op != missing).toArray(AclOperation[]::new);
        t.allow(ResourceType.TOPIC, t.baselineTopic(), rest);
        try (KafkaProducer<String, String> producer = TestClients.producer(kafka)) {
            TestClients.produce(producer, t.topic(), 0, "history0", 10);
            TestClients.produce(producer, t.topic(), 1, "history1", 10);
            try (GaplessConsumer<String, String> consumer = new GaplessConsumer<>(props(t, "classic"))) {
                consumer.subscribe(List.of(t.topic()));
                List<ConsumerRecord<String, String>> before = new ArrayList<>();
                RuntimeException failure = firstFailure(consumer, before);
                assertTrue(before.isEmpty(), "nothing handed out before the failure: " + before.size());
                BaselineUnavailableException e = assertInstanceOf(BaselineUnavailableException.class, failure);
                AuthorizationException cause = causeOfType(e, AuthorizationException.class);
                assertNotNull(cause, "Kafka's AuthorizationException is the cause: " + trace(e));
                String operation = aclName(missing);
                System.out.println("Without " + operation + ": " + e.getMessage());
                assertTrue(e.getMessage().contains(t.baselineTopic()), "names the topic: " + e.getMessage());
                assertTrue(e.getMessage().contains(operation), "names the operation " + operation + ": " + e.getMessage());
                secrets.assertNoSecretIn(trace(e));
                assertTrue(committed(t.group()).isEmpty(), "nothing committed");

                // While the ACL is missing the topic grows: the partition added then is new once the ACL is back.
                kafka.addPartitions(t.topic(), 3);
                List<String> duringOutage = TestClients.produce(producer, t.topic(), 2, "outage", 10);
                t.allow(ResourceType.TOPIC, t.baselineTopic(), missing);

                List<ConsumerRecord<String, String>> received = new ArrayList<>(awaitPositionedRetrying(consumer, 3));
                Set<String> expected = new HashSet<>(duringOutage);
                for (int p = 0; p < 3; p++) {
                    expected.addAll(TestClients.produce(producer, t.topic(), p, "live" + p, 10));
                }
                List<ConsumerRecord<String, String>> before2 = List.copyOf(received);
                received.addAll(TestClients.pollUntil(consumer, WAIT, r -> union(before2, r).containsAll(expected)));
                received.addAll(TestClients.drain(consumer, Duration.ofMillis(300)));
                assertEquals(expected, values(received), "the outage's new partition read from its start, no history");
                assertEquals(expected.size(), received.size(), "none twice");
            }
        }
    }

    @Test
    void basePolicyIsTheOnlyFallbackAndItWarns() throws Exception {
        Tenant t = tenant("fallback");
        kafka.createTopic(t.topic(), 2);
        t.allowConsumer();
        t.allow(ResourceType.TOPIC, t.baselineTopic(), AclOperation.READ, AclOperation.DESCRIBE_CONFIGS, AclOperation.CREATE);
        Properties p = props(t, "consumer");
        p.put("gapless.baseline.unavailable", "base-policy");
        try (KafkaProducer<String, String> producer = TestClients.producer(kafka);
             GaplessConsumer<String, String> consumer = new GaplessConsumer<>(p)) {
            TestClients.produce(producer, t.topic(), 0, "history", 10);
            consumer.subscribe(List.of(t.topic()));
            List<ConsumerRecord<String, String>> received = new ArrayList<>(awaitPositioned(consumer, 2));
            assertTrue(secrets.logs().contains("WARN", "base-policy", t.baselineTopic(), "Write"),
                    "a WARN names the fallback, the topic and the missing operation");
            List<String> live = TestClients.produce(producer, t.topic(), 1, "live", 10);
            received.addAll(TestClients.pollUntil(consumer, WAIT, r -> values(r).containsAll(live)));
            assertEquals(Set.copyOf(live), values(received), "pre-existing partitions by the base policy, no history");
        }
    }

    @Test
    void aTopicThePrincipalCannotDescribeAtTheStartCountsAsNewWhenItIsGrantedLater() throws Exception {
        Tenant t = tenant("hidden");
        String hidden = TestTopics.unique("hidden-topic");
        kafka.createTopic(t.topic(), 1);
        kafka.createTopic(hidden, 1);
        t.allowConsumer();
        t.allow(ResourceType.TOPIC, t.baselineTopic(), BASELINE_ACLS);
        try (KafkaProducer<String, String> producer = TestClients.producer(kafka)) {
            List<String> hiddenHistory = TestClients.produce(producer, hidden, 0, "hidden-history", 10);
            TestClients.produce(producer, t.topic(), 0, "history", 10);
            try (GaplessConsumer<String, String> consumer = new GaplessConsumer<>(props(t, "classic"))) {
                consumer.subscribe(List.of(t.topic()));
                List<ConsumerRecord<String, String>> received = new ArrayList<>(awaitPositioned(consumer, 1));
                t.allow(ResourceType.TOPIC, hidden, AclOperation.READ);
                consumer.subscribe(List.of(t.topic(), hidden));
                received.addAll(TestClients.pollUntil(consumer, WAIT, r -> values(r).containsAll(hiddenHistory)));
                received.addAll(TestClients.drain(consumer, Duration.ofMillis(300)));
                assertEquals(Set.copyOf(hiddenHistory), values(received),
                        "the topic the snapshot could not list is new: read from its start; the group's own topic's history is not");
                assertTrue(secrets.logs().contains("Reset " + hidden + "-0 to offset 0 by policy earliest", "did not exist"),
                        "the reset says why");
            }
        }
    }

    @Test
    void aPrincipalAllowedOnlyItsOwnGroupCannotWriteOrReadAnotherGroupsBaseline() throws Exception {
        Tenant a = tenant("tenant-a");
        Tenant b = tenant("tenant-b");
        for (Tenant t : List.of(a, b)) {
            kafka.createTopic(t.topic(), 1);
            t.allowConsumer();
            t.allow(ResourceType.TOPIC, t.baselineTopic(), BASELINE_ACLS);
            try (GaplessConsumer<String, String> consumer = new GaplessConsumer<>(props(t, "consumer"))) {
                consumer.subscribe(List.of(t.topic()));
                awaitPositioned(consumer, 1);
            }
        }
        long aBaselineEnd = endOffset(a.baselineTopic());
        Properties forger = TestClients.producerProps(kafka);
        forger.putAll(b.connection());
        forger.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
        forger.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 10_000);
        forger.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(forger)) {
            ExecutionException refused = assertThrows(ExecutionException.class,
                    () -> producer.send(new ProducerRecord<>(a.baselineTopic(), a.group(), "forged")).get());
            TopicAuthorizationException e = assertInstanceOf(TopicAuthorizationException.class, refused.getCause());
            assertEquals(Set.of(a.baselineTopic()), e.unauthorizedTopics());
        }
        Properties reader = TestClients.consumerProps(kafka, b.group(), "classic");
        reader.putAll(b.connection());
        try (org.apache.kafka.clients.consumer.KafkaConsumer<String, String> consumer = new org.apache.kafka.clients.consumer.KafkaConsumer<>(reader)) {
            consumer.assign(List.of(new org.apache.kafka.common.TopicPartition(a.baselineTopic(), 0)));
            consumer.seekToBeginning(consumer.assignment());
            TopicAuthorizationException e = assertThrows(TopicAuthorizationException.class, () -> {
                for (int i = 0; i < 100; i++) {
                    consumer.poll(Duration.ofMillis(100));
                }
            });
            assertEquals(Set.of(a.baselineTopic()), e.unauthorizedTopics(), "B cannot read A's baseline either");
        }
        // B pointing its own consumer at A's topic (the shared-topic setting) is refused by the broker too.
        Properties p = props(b, "classic");
        p.put("gapless.baseline.topic", a.baselineTopic());
        try (GaplessConsumer<String, String> consumer = new GaplessConsumer<>(p)) {
            consumer.subscribe(List.of(b.topic()));
            List<ConsumerRecord<String, String>> none = new ArrayList<>();
            BaselineUnavailableException e = assertInstanceOf(BaselineUnavailableException.class, firstFailure(consumer, none));
            assertNotNull(causeOfType(e, AuthorizationException.class), trace(e));
            assertTrue(e.getMessage().contains(a.baselineTopic()), e.getMessage());
        }
        assertEquals(aBaselineEnd, endOffset(a.baselineTopic()), "A's baseline is untouched");
    }

    @Test
    void onMutualTlsTheClientCertificateReachesEveryHelperAndItsKeyIsNeverLogged() throws Exception {
        try (EmbeddedKafka tls = EmbeddedKafka.builder().security(KafkaSecurity.ssl()).start()) {
            String user = "cert-user";
            String group = TestTopics.unique("cert-group");
            String topic = TestTopics.unique("cert-topic");
            tls.addUser(user);
            Properties connection = tls.clientProperties(user);
            secrets.add(connection.getProperty("ssl.keystore.key"));
            tls.createTopic(topic, 1);
            tls.allow(user, ResourceType.GROUP, group, AclOperation.READ);
            tls.allow(user, ResourceType.TOPIC, topic, AclOperation.READ);
            tls.allow(user, ResourceType.TOPIC, BaselineTopic.of(null, BaselineTopic.PREFIX_DEFAULT, group).name(), BASELINE_ACLS);
            Properties p = TestClients.consumerProps(tls, group, "consumer");
            p.putAll(connection);
            p.put("auto.offset.reset", "latest");
            p.put("auto.offset.reset.new.partitions", "earliest");
            try (KafkaProducer<String, String> producer = TestClients.producer(tls);
                 GaplessConsumer<String, String> consumer = new GaplessConsumer<>(p)) {
                TestClients.produce(producer, topic, 0, "history", 5);
                consumer.subscribe(List.of(topic));
                List<ConsumerRecord<String, String>> received = new ArrayList<>(awaitPositioned(consumer, 1));
                tls.addPartitions(topic, 2);
                List<String> added = TestClients.produce(producer, topic, 1, "added", 5);
                List<ConsumerRecord<String, String>> first = List.copyOf(received);
                received.addAll(TestClients.pollUntil(consumer, WAIT, r -> union(first, r).containsAll(added)));
                assertEquals(Set.copyOf(added), values(received), "the added partition from its start, no history");
                assertNoSecretInMetrics(consumer);
            }
        }
    }

    // ---- helpers ----

    private static List<ConsumerRecord<String, String>> awaitPositioned(GaplessConsumer<String, String> consumer, int partitions) {
        return TestClients.pollUntil(consumer, WAIT, r -> {
            if (consumer.assignment().size() != partitions) {
                return false;
            }
            consumer.assignment().forEach(tp -> consumer.position(tp, WAIT));
            return true;
        });
    }

    /** As {@link #awaitPositioned}, polling on through the failures an ACL just granted may still cause. */
    private static List<ConsumerRecord<String, String>> awaitPositionedRetrying(GaplessConsumer<String, String> consumer, int partitions) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (true) {
            try {
                return awaitPositioned(consumer, partitions);
            } catch (BaselineUnavailableException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
            }
        }
    }

    /** What poll() throws first; records received before are added to {@code sink}. */
    private static RuntimeException firstFailure(GaplessConsumer<String, String> consumer, List<ConsumerRecord<String, String>> sink) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            try {
                consumer.poll(Duration.ofMillis(200)).forEach(sink::add);
            } catch (RuntimeException e) {
                return e;
            }
        }
        return fail("poll() did not fail within " + WAIT);
    }

    private Set<?> committed(String group) throws Exception {
        return kafka.admin().listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get().keySet();
    }

    private long endOffset(String topic) throws Exception {
        org.apache.kafka.common.TopicPartition tp = new org.apache.kafka.common.TopicPartition(topic, 0);
        return kafka.admin().listOffsets(java.util.Map.of(tp, org.apache.kafka.clients.admin.OffsetSpec.latest())).all().get().get(tp).offset();
    }

    private static double newResets(GaplessConsumer<String, String> consumer) {
        return consumer.metrics().entrySet().stream()
                .filter(e -> e.getKey().name().equals("resets-total") && "new".equals(e.getKey().tags().get("classification")))
                .mapToDouble(e -> (Double) e.getValue().metricValue()).sum();
    }

    private static void assertNoSecretInMetrics(GaplessConsumer<String, String> consumer) {
        String tags = consumer.metrics().keySet().stream().map(m -> m.group() + " " + m.name() + " " + m.tags())
                .collect(Collectors.joining("\n"));
        secrets.assertNoSecretIn(tags);
    }


    static <T extends Throwable> T causeOfType(Throwable e, Class<T> type) {
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (type.isInstance(c)) {
                return type.cast(c);
            }
        }
        return null;
    }

    static String trace(Throwable e) {
        StringWriter out = new StringWriter();
        e.printStackTrace(new PrintWriter(out));
        return out.toString();
    }

    /** The operation as Kafka's ACL tools and docs/security.md name it: DescribeConfigs, Write, ... */
    static String aclName(AclOperation op) {
        return java.util.Arrays.stream(op.name().split("_")).map(w -> w.charAt(0) + w.substring(1).toLowerCase())
                .collect(Collectors.joining());
    }

    private static Set<String> union(Collection<ConsumerRecord<String, String>> a, Collection<ConsumerRecord<String, String>> b) {
        Set<String> all = values(a);
        all.addAll(values(b));
        return all;
    }

    private static Set<String> values(Collection<ConsumerRecord<String, String>> records) {
        return records.stream().map(ConsumerRecord::value).collect(Collectors.toSet());
    }
}
