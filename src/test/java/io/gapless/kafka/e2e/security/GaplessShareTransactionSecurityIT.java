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

import io.gapless.kafka.core.spi.StateTopics;
import io.gapless.kafka.share.GaplessShareConfig;
import io.gapless.kafka.share.GaplessShareConsumer;
import io.gapless.kafka.share.txn.ShareAcknowledgements;
import io.gapless.kafka.share.txn.ShareTransactionConfigs;
import io.gapless.kafka.share.txn.TransactionalShareAcknowledger;
import io.gapless.kafka.share.txn.TransactionPhase;
import io.gapless.kafka.share.txn.TransactionalShareProducer;
import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.TestClients;
import io.gapless.kafka.testkit.TestTopics;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.SharePartitionOffsetInfo;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static io.gapless.kafka.e2e.security.GaplessConsumerSecurityIT.aclName;
import static io.gapless.kafka.e2e.security.GaplessConsumerSecurityIT.causeOfType;
import static io.gapless.kafka.e2e.security.GaplessConsumerSecurityIT.trace;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Transactional share acknowledgements (the ack ledger) on SASL_SSL with exactly the ACLs
 * docs/security.md lists: the consume-transform-produce loop of
 * {@link TransactionalShareProducer} and {@link GaplessShareConsumer}, and
 * {@link TransactionalShareAcknowledger}; each ACL taken away in turn fails naming it with nothing
 * committed or acknowledged without output; a principal allowed only its own groups (PREFIXED ACLs)
 * cannot write another group's ledger or baseline; no secret in any log line, metric tag or
 * exception message.
 */
@ExtendWith(SecuredKafka.class)
class GaplessShareTransactionSecurityIT {
    private static final Duration WAIT = Duration.ofSeconds(45);
    private static final int RECORDS = 12;
    private static SecretWatch secrets;

    private final EmbeddedKafka kafka;

    GaplessShareTransactionSecurityIT(EmbeddedKafka kafka) {
        this.kafka = kafka;
    }

    @BeforeAll
    static void capture(EmbeddedKafka kafka) {
        secrets = SecretWatch.start(kafka);
    }

    @AfterAll
    static void noSecretInAnyLogLine() {
        secrets.verifyAndClose("sasl.jaas.config = [hidden]", "transactional.id");
    }

    /** A tenant of the transactional loop: its group, input topic, output topic, transactional id and KIP-1289 mode topic. */
    private record Loop(Tenant t, String output, String transactionalId) {
        String ledgerTopic() {
            return StateTopics.forGroup(GaplessShareConfig.LEDGER_TOPIC_PREFIX_DEFAULT, t.group());
        }

        /** The group's own KIP-1289 mode topic (not there yet when the loop starts: each test sees the SDK create it). */
        String modesTopic() {
            return StateTopics.forGroup(ShareTransactionConfigs.MODE_TOPIC_PREFIX_DEFAULT, t.group());
        }
    }

    /** One ACL of the documented table: its resource (from the loop) and operation; {@code sdk}: the SDK's, not Kafka's own. */
    record Acl(String what, ResourceType type, Function<Loop, String> resource, AclOperation operation, boolean sdk) {
        @Override
        public String toString() {
            return aclName(operation) + " on " + what;
        }
    }

    /** docs/security.md: what the SDK needs for transactional share acknowledgements, besides the loop's own topics. */
    static List<Acl> documentedAcls() {
        return List.of(
                new Acl("the share group", ResourceType.GROUP, l -> l.t().group(), AclOperation.READ, false),
                new Acl("its transactional.id", ResourceType.TRANSACTIONAL_ID, Loop::transactionalId, AclOperation.WRITE, false),
                new Acl("the ledger topic", ResourceType.TOPIC, Loop::ledgerTopic, AclOperation.READ, true),
                new Acl("the ledger topic", ResourceType.TOPIC, Loop::ledgerTopic, AclOperation.WRITE, true),
                new Acl("the ledger topic", ResourceType.TOPIC, Loop::ledgerTopic, AclOperation.DESCRIBE_CONFIGS, true),
                new Acl("the ledger topic", ResourceType.TOPIC, Loop::ledgerTopic, AclOperation.CREATE, true),
                new Acl("the ledger topic", ResourceType.TOPIC, Loop::ledgerTopic, AclOperation.DELETE, true),
                new Acl("the mode topic", ResourceType.TOPIC, Loop::modesTopic, AclOperation.READ, true),
                new Acl("the mode topic", ResourceType.TOPIC, Loop::modesTopic, AclOperation.CREATE, true));
    }

    /** The ACLs whose absence fails the loop (Delete only stops the ledger's truncation, below). */
    static Stream<Arguments> eachFailingAcl() {
        return documentedAcls().stream().filter(a -> a.operation() != AclOperation.DELETE).map(Arguments::of);
    }

    private Loop loop(String name) throws Exception {
        Tenant t = secrets.tenant(kafka, name);
        return prepare(new Loop(t, TestTopics.unique(name + "-out"), TestTopics.unique(name + "-txn")));
    }

    /** The loop's topics, RECORDS inputs, the group reading from the earliest offset, Read on the input and Write on the output. */
    private Loop prepare(Loop l) throws Exception {
        Tenant t = l.t();
        kafka.createTopic(t.topic(), 1);
        kafka.createTopic(l.output(), 1);
        ConfigResource group = new ConfigResource(ConfigResource.Type.GROUP, t.group());
        kafka.admin().incrementalAlterConfigs(Map.of(group, List.of(
                new AlterConfigOp(new ConfigEntry("share.auto.offset.reset", "earliest"), AlterConfigOp.OpType.SET),
                new AlterConfigOp(new ConfigEntry("share.record.lock.duration.ms", "15000"), AlterConfigOp.OpType.SET))))
                .all().get(30, TimeUnit.SECONDS);
        try (KafkaProducer<String, String> producer = TestClients.producer(kafka)) {
            TestClients.produce(producer, t.topic(), 0, "order", RECORDS);
        }
        t.allow(ResourceType.TOPIC, t.topic(), AclOperation.READ);
        t.allow(ResourceType.TOPIC, l.output(), AclOperation.WRITE);
        return l;
    }

    private void grant(Loop l, Acl acl) {
        l.t().allow(acl.type(), acl.resource().apply(l), acl.operation());
    }

    private Map<String, Object> consumerConfig(Loop l) {
        Map<String, Object> c = new HashMap<>();
        l.t().connection().forEach((k, v) -> c.put(String.valueOf(k), v));
        c.put("group.id", l.t().group());
        c.put(GaplessShareConfig.ACKNOWLEDGEMENT_MODE_CONFIG, GaplessShareConfig.ACKNOWLEDGEMENT_MODE_TRANSACTIONAL);
        return c;
    }

    private Map<String, Object> producerConfig(Loop l) {
        Map<String, Object> p = new HashMap<>();
        l.t().connection().forEach((k, v) -> p.put(String.valueOf(k), v));
        p.put("transactional.id", l.transactionalId());
        p.put("transaction.timeout.ms", 10_000);
        p.put("max.block.ms", 15_000);
        return p;
    }

    /** The application's loop: one transaction per poll, output and acknowledgements together. */
    private final class Worker implements AutoCloseable {
        final GaplessShareConsumer<String, String> consumer;
        final TransactionalShareProducer<String, String> producer;
        final Loop loop;

        Worker(Loop l) {
            this(l, Map.of());
        }

        /** @param extra settings of both clients on top of the loop's */
        Worker(Loop l, Map<String, Object> extra) {
            this(l, extra, Map.of());
        }

        Worker(Loop l, Map<String, Object> extra, Map<String, Object> producerOnly) {
            loop = l;
            Map<String, Object> p = producerConfig(l);
            p.putAll(extra);
            p.putAll(producerOnly);
            Map<String, Object> cc = consumerConfig(l);
            cc.putAll(extra);
            producer = new TransactionalShareProducer<>(p, new StringSerializer(), new StringSerializer());
            GaplessShareConsumer<String, String> c = null;
            try {
                c = new GaplessShareConsumer<>(cc, new StringDeserializer(), new StringDeserializer());
                c.subscribe(List.of(l.t().topic()));
                producer.initTransactions();
            } catch (RuntimeException e) {
                if (c != null) {
                    c.close();
                }
                producer.close();
                throw e;
            }
            consumer = c;
        }

        /** One poll and, when it returned records, one transaction. */
        void once() {
            ConsumerRecords<String, String> polled = consumer.poll(Duration.ofMillis(200));
            if (polled.isEmpty()) {
                return;
            }
            producer.beginTransaction();
            try {
                for (ConsumerRecord<String, String> r : polled) {
                    producer.send(new ProducerRecord<>(loop.output(), r.key(), r.value() + " done"));
                }
                producer.sendShareAcknowledgementsToTransaction(ShareAcknowledgements.fromRecords(polled, AcknowledgeType.ACCEPT),
                        consumer.shareGroupMetadata());
                producer.commitTransaction();
            } catch (KafkaException e) {
                try {
                    producer.abortTransaction();
                } catch (KafkaException ignored) {
                    // The producer may be in a fatal state; the records are redelivered either way.
                }
                throw e;
            }
        }

        /** Until every record is output and the group acknowledged every one (records whose acknowledgement did not land come back and are settled from the ledger). */
        void runUntilAllOutput() throws Exception {
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (committedOutput(loop).size() < RECORDS || unacknowledged(loop) > 0) {
                if (System.nanoTime() > deadline) {
                    fail(committedOutput(loop).size() + " of " + RECORDS + " records output, " + unacknowledged(loop) + " unacknowledged");
                }
                once();
            }
        }

        RuntimeException firstFailure() {
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (System.nanoTime() < deadline) {
                try {
                    once();
                } catch (RuntimeException e) {
                    return e;
                }
            }
            return fail("the loop did not fail within " + WAIT);
        }

        @Override
        public void close() {
            try {
                consumer.close();
            } finally {
                producer.close(Duration.ofSeconds(5));
            }
        }
    }

    private List<String> committedOutput(Loop l) {
        Map<String, Object> c = new HashMap<>();
        kafka.clientProperties().forEach((k, v) -> c.put(String.valueOf(k), v));
        c.put("isolation.level", "read_committed");
        List<String> values = new ArrayList<>();
        TopicPartition tp = new TopicPartition(l.output(), 0);
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(c, new StringDeserializer(), new StringDeserializer())) {
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            long end = consumer.endOffsets(List.of(tp)).get(tp);
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (consumer.position(tp) < end && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(100)).forEach(r -> values.add(r.value()));
            }
        }
        return values;
    }

    /** The group's lag on its input partition (Kafka's share-group lag): RECORDS when not initialized. */
    private long unacknowledged(Loop l) throws Exception {
        TopicPartition tp = new TopicPartition(l.t().topic(), 0);
        SharePartitionOffsetInfo info = kafka.admin()
                .listShareGroupOffsets(Map.of(l.t().group(), new ListShareGroupOffsetsSpec().topicPartitions(List.of(tp))))
                .partitionsToOffsetInfo(l.t().group()).get(30, TimeUnit.SECONDS).get(tp);
        return info == null ? RECORDS : info.lag().orElse((long) RECORDS);
    }

    private void awaitAllAcknowledged(Loop l) throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (unacknowledged(l) > 0) {
            if (System.nanoTime() > deadline) {
                fail("the group still lags by " + unacknowledged(l) + " of " + RECORDS);
            }
            Thread.sleep(100); // polling an admin API until a deadline, not for correctness
        }
    }

    private void assertEachRecordOutputOnce(Loop l) throws Exception {
        List<String> out = committedOutput(l);
        assertEquals(RECORDS, out.size(), "every record output once: " + out);
        assertEquals(RECORDS, new HashSet<>(out).size(), "none twice: " + out);
        awaitAllAcknowledged(l);
    }

    @Test
    void withTheDocumentedAclsEveryRecordIsOutputOnceAndAcknowledged() throws Exception {
        Loop l = loop("stx");
        documentedAcls().forEach(acl -> grant(l, acl));
        try (Worker w = new Worker(l)) {
            w.runUntilAllOutput();
            secrets.assertNoSecretIn(w.producer.metrics().keySet().stream().map(m -> m.group() + " " + m.name() + " " + m.tags())
                    .collect(Collectors.joining("\n")));
            secrets.assertNoSecretIn(w.consumer.metrics().keySet().stream().map(m -> m.group() + " " + m.name() + " " + m.tags())
                    .collect(Collectors.joining("\n")));
        }
        assertEachRecordOutputOnce(l);
    }

    @Test
    void fencingAPeerNeedsWriteOnItsTransactionalIdAndARefusalNamesIt() throws Exception {
        // X stalls with its ledger entry written in an open transaction; Y, another principal of the group, gets the records
        // again once X's locks expire and must fence X to commit.
        Loop x = loop("stx-fence-x");
        kafka.admin().incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.GROUP, x.t().group()), List.of(
                new AlterConfigOp(new ConfigEntry("share.record.lock.duration.ms", "3000"), AlterConfigOp.OpType.SET))))
                .all().get(30, TimeUnit.SECONDS);
        documentedAcls().forEach(acl -> grant(x, acl));
        Tenant yUser = secrets.tenant(kafka, "stx-fence-y");
        Loop y = new Loop(new Tenant(kafka, yUser.user(), yUser.password(), x.t().group(), x.t().topic()), x.output(),
                TestTopics.unique("stx-fence-y-txn"));
        documentedAcls().forEach(acl -> grant(y, acl));
        y.t().allow(ResourceType.TOPIC, x.t().topic(), AclOperation.READ);
        y.t().allow(ResourceType.TOPIC, x.output(), AclOperation.WRITE);

        java.util.concurrent.atomic.AtomicBoolean stall = new java.util.concurrent.atomic.AtomicBoolean(true);
        TransactionPhase.Listener stallOnce = phase -> {
            if (phase == TransactionPhase.LEDGER_WRITTEN && stall.getAndSet(false)) {
                throw new IllegalStateException("X stalls with its entry written");
            }
        };
        try (Worker wx = new Worker(x, Map.of(), Map.of(TransactionPhase.LISTENER_CONFIG, stallOnce, "transaction.timeout.ms", 120_000))) {
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (stall.get()) {
                if (System.nanoTime() > deadline) {
                    fail("X got no records");
                }
                try {
                    wx.once();
                } catch (IllegalStateException stalled) {
                    // X's transaction stays open, its ledger entry in it
                }
            }
            try (Worker wy = new Worker(y)) {
                RuntimeException failure = wy.firstFailure();
                System.out.println("Y without Write on X's transactional.id: " + failure);
                AuthorizationException cause = causeOfType(failure, AuthorizationException.class);
                assertNotNull(cause, trace(failure));
                assertTrue(cause.getMessage().contains("Write on transactional id " + x.transactionalId()), cause.getMessage());
                assertEquals(List.of(), committedOutput(x), "nothing committed");

                y.t().allow(ResourceType.TRANSACTIONAL_ID, x.transactionalId(), AclOperation.WRITE);
                wy.runUntilAllOutput();
            }
        }
        assertEachRecordOutputOnce(x);
    }

    @Test
    void aModeTopicTheOperatorCreatedNeedsOnlyRead() throws Exception {
        Loop l = loop("stx-premodes");
        kafka.admin().createTopics(List.of(new org.apache.kafka.clients.admin.NewTopic(l.modesTopic(), 1, (short) 1)
                .configs(Map.of("cleanup.policy", "compact")))).all().get(30, TimeUnit.SECONDS);
        documentedAcls().stream().filter(acl -> !(acl.operation() == AclOperation.CREATE && acl.what().equals("the mode topic")))
                .forEach(acl -> grant(l, acl));
        try (Worker w = new Worker(l)) {
            w.runUntilAllOutput();
        }
        assertEachRecordOutputOnce(l);
    }

    @Test
    void theAcknowledgerWithoutOutputNeedsTheSameAcls() throws Exception {
        Loop l = loop("sack");
        documentedAcls().forEach(acl -> grant(l, acl));
        Set<String> settled = new HashSet<>();
        try (GaplessShareConsumer<String, String> consumer = new GaplessShareConsumer<>(consumerConfig(l), new StringDeserializer(),
                new StringDeserializer());
             TransactionalShareAcknowledger acknowledger = new TransactionalShareAcknowledger(producerConfig(l))) {
            consumer.subscribe(List.of(l.t().topic()));
            acknowledger.initTransactions();
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (settled.size() < RECORDS) {
                if (System.nanoTime() > deadline) {
                    fail("settled " + settled.size() + " of " + RECORDS);
                }
                ConsumerRecords<String, String> polled = consumer.poll(Duration.ofMillis(200));
                if (!polled.isEmpty()) {
                    acknowledger.commitAcknowledgements(ShareAcknowledgements.fromRecords(polled, AcknowledgeType.ACCEPT),
                            consumer.shareGroupMetadata());
                    polled.forEach(r -> settled.add(r.value()));
                }
            }
        }
        awaitAllAcknowledged(l);
    }

    @ParameterizedTest(name = "without {0}")
    @MethodSource("eachFailingAcl")
    void withAnAclTakenAwayTheLoopFailsNamingItAndNothingIsAcknowledgedWithoutOutput(Acl missing) throws Exception {
        Loop l = loop("stx-minus-" + aclName(missing.operation()).toLowerCase());
        documentedAcls().stream().filter(acl -> !acl.equals(missing)).forEach(acl -> grant(l, acl));
        RuntimeException failure;
        try (Worker w = new Worker(l)) {
            failure = w.firstFailure();
        } catch (RuntimeException atStart) {
            failure = atStart;
        }
        System.out.println("Without " + missing + ": " + failure);
        AuthorizationException cause = causeOfType(failure, AuthorizationException.class);
        assertNotNull(cause, "Kafka's AuthorizationException: " + trace(failure));
        if (missing.sdk()) {
            // Kafka's own calls (the share group, the producer's own transactional.id) fail as without the SDK.
            String message = cause.getMessage();
            assertTrue(message.contains(missing.resource().apply(l)), "names the resource: " + message);
            assertTrue(message.contains(aclName(missing.operation())), "names the operation: " + message);
        }
        secrets.assertNoSecretIn(trace(failure));
        assertEquals(List.of(), committedOutput(l), "nothing committed");
        assertEquals(RECORDS, unacknowledged(l), "nothing acknowledged");

        grant(l, missing);
        try (Worker w = new Worker(l)) {
            w.runUntilAllOutput();
        }
        assertEachRecordOutputOnce(l);
    }

    @Test
    void withoutDeleteOnTheLedgerTheLoopGoesOnAndOnlyTheLedgerIsNotTruncated() throws Exception {
        // Delete is for deleteRecords below each snapshot (forced after every commit here): taken away, commits go on, a WARN says so.
        Map<String, Object> snapshotEachCommit = Map.of(ShareTransactionConfigs.LEDGER_MAX_BYTES_BETWEEN_SNAPSHOTS_CONFIG, 1L);
        for (boolean withDelete : List.of(true, false)) {
            Loop l = loop(withDelete ? "stx-delete" : "stx-nodelete");
            documentedAcls().stream().filter(acl -> withDelete || acl.operation() != AclOperation.DELETE).forEach(acl -> grant(l, acl));
            try (Worker w = new Worker(l, snapshotEachCommit)) {
                w.runUntilAllOutput();
            }
            assertEachRecordOutputOnce(l);
            if (withDelete) {
                assertTrue(logStartOffset(l.ledgerTopic()) > 0, "the ledger is truncated below its snapshots");
            } else {
                assertEquals(0, logStartOffset(l.ledgerTopic()), "without Delete the ledger is never truncated");
                assertTrue(secrets.logs().contains("snapshot failed", l.ledgerTopic()), "a WARN names the failed truncation");
            }
        }
    }

    private long logStartOffset(String topic) throws Exception {
        TopicPartition tp = new TopicPartition(topic, 0);
        return kafka.admin().listOffsets(Map.of(tp, OffsetSpec.earliest())).all().get(30, TimeUnit.SECONDS).get(tp).offset();
    }

    private long endOffset(String topic) throws Exception {
        TopicPartition tp = new TopicPartition(topic, 0);
        return kafka.admin().listOffsets(Map.of(tp, OffsetSpec.latest())).all().get(30, TimeUnit.SECONDS).get(tp).offset();
    }

    @Test
    void aPrincipalAllowedOnlyItsOwnGroupsCannotWriteAnotherGroupsLedgerBaselineOrModeTopic() throws Exception {
        // A runs one loop, so that its ledger topic exists with entries; its baseline topic is made by the operator.
        Loop a = loop("tenant-a");
        documentedAcls().forEach(acl -> grant(a, acl));
        try (Worker w = new Worker(a)) {
            w.runUntilAllOutput();
        }
        String aBaseline = a.t().baselineTopic();
        kafka.createTopic(aBaseline, 1);
        long aLedgerEnd = endOffset(a.ledgerTopic());
        long aBaselineEnd = endOffset(aBaseline);
        long aModesEnd = endOffset(a.modesTopic());

        // B: its groups are "tenant-b.<name>"; PREFIXED ACLs on its ledger and baseline topics, its transactional ids and groups.
        String bUser = TestTopics.unique("tenant-b");
        String bPassword = "pw-" + java.util.UUID.randomUUID();
        kafka.addUser(bUser, bPassword);
        secrets.add(bPassword);
        secrets.add(kafka.clientProperties(bUser).getProperty("sasl.jaas.config"));
        String bPrefix = "tenant-b.";
        Tenant b = new Tenant(kafka, bUser, bPassword, TestTopics.unique(bPrefix + "workers"), TestTopics.unique("tenant-b-in"));
        Loop bl = new Loop(b, TestTopics.unique("tenant-b-out"), TestTopics.unique(bPrefix + "txn"));
        kafka.allow(bUser, new ResourcePattern(ResourceType.GROUP, bPrefix, PatternType.PREFIXED), AclOperation.READ);
        kafka.allow(bUser, new ResourcePattern(ResourceType.TRANSACTIONAL_ID, bPrefix, PatternType.PREFIXED), AclOperation.WRITE);
        kafka.allow(bUser, new ResourcePattern(ResourceType.TOPIC, GaplessShareConfig.LEDGER_TOPIC_PREFIX_DEFAULT + bPrefix, PatternType.PREFIXED),
                AclOperation.READ, AclOperation.WRITE, AclOperation.DESCRIBE_CONFIGS, AclOperation.CREATE, AclOperation.DELETE);
        kafka.allow(bUser, new ResourcePattern(ResourceType.TOPIC, Tenant.BASELINE_PREFIX + bPrefix, PatternType.PREFIXED),
                AclOperation.READ, AclOperation.WRITE, AclOperation.DESCRIBE_CONFIGS, AclOperation.CREATE);
        kafka.allow(bUser, new ResourcePattern(ResourceType.TOPIC, ShareTransactionConfigs.MODE_TOPIC_PREFIX_DEFAULT + bPrefix,
                PatternType.PREFIXED), AclOperation.READ, AclOperation.WRITE, AclOperation.CREATE);

        Map<String, Object> plain = new HashMap<>();
        b.connection().forEach((k, v) -> plain.put(String.valueOf(k), v));
        plain.put("max.block.ms", 15_000);
        // Plain writes to A's ledger, A's baseline and A's KIP-1289 mode topic (a forged "native" record would stop A's commits).
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(plain, new StringSerializer(), new StringSerializer())) {
            for (String topic : List.of(a.ledgerTopic(), aBaseline, a.modesTopic())) {
                Exception e = assertThrows(Exception.class, () -> producer.send(new ProducerRecord<>(topic, 0, "forged", "forged"))
                        .get(30, TimeUnit.SECONDS));
                assertNotNull(causeOfType(e, org.apache.kafka.common.errors.TopicAuthorizationException.class), trace(e));
            }
        }
        // A transactional write to A's ledger, with B's own transactional id.
        Map<String, Object> txn = new HashMap<>(plain);
        txn.put("transactional.id", bl.transactionalId());
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(txn, new StringSerializer(), new StringSerializer())) {
            producer.initTransactions();
            producer.beginTransaction();
            Exception e = assertThrows(Exception.class, () -> {
                producer.send(new ProducerRecord<>(a.ledgerTopic(), 0, "forged", "forged")).get(30, TimeUnit.SECONDS);
                producer.commitTransaction();
            });
            assertNotNull(causeOfType(e, org.apache.kafka.common.errors.TopicAuthorizationException.class), trace(e));
        }
        // The SDK pointed at A's ledger topic: B's own share transactions are refused, nothing of B's output committed.
        prepare(bl);
        try (Worker w = new Worker(bl, Map.of(GaplessShareConfig.LEDGER_TOPIC_CONFIG, a.ledgerTopic()))) {
            RuntimeException e = w.firstFailure();
            assertNotNull(causeOfType(e, AuthorizationException.class), trace(e));
        } catch (AuthorizationException atStart) {
            // refused before the first poll: as good
        }
        assertEquals(List.of(), committedOutput(bl), "nothing of B's committed through A's ledger");
        // B may not fence A's members: A's transactional id is not B's.
        txn.put("transactional.id", a.transactionalId());
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(txn, new StringSerializer(), new StringSerializer())) {
            Exception e = assertThrows(Exception.class, producer::initTransactions);
            assertNotNull(causeOfType(e, org.apache.kafka.common.errors.TransactionalIdAuthorizationException.class), trace(e));
        }
        // B cannot join A's group either.
        Map<String, Object> intoA = consumerConfig(bl);
        intoA.put("group.id", a.t().group());
        try (GaplessShareConsumer<String, String> c = new GaplessShareConsumer<>(intoA, new StringDeserializer(), new StringDeserializer())) {
            c.subscribe(List.of(a.t().topic()));
            long deadline = System.nanoTime() + WAIT.toNanos();
            RuntimeException e = null;
            while (e == null && System.nanoTime() < deadline) {
                try {
                    assertTrue(c.poll(Duration.ofMillis(200)).isEmpty(), "nothing of A's delivered to B");
                } catch (AuthorizationException refused) {
                    e = refused;
                }
            }
            assertNotNull(e, "B's poll in A's group is refused");
        }
        assertEquals(aLedgerEnd, endOffset(a.ledgerTopic()), "A's ledger holds nothing of B's");
        assertEquals(aBaselineEnd, endOffset(aBaseline), "A's baseline holds nothing of B's");
        assertEquals(aModesEnd, endOffset(a.modesTopic()), "A's mode topic holds nothing of B's");
        assertEachRecordOutputOnce(a);
    }

}
