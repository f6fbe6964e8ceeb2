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

import io.gapless.kafka.core.ResetPolicy;
import io.gapless.kafka.share.GaplessShareConsumer;
import io.gapless.kafka.share.admin.ShareGroupConfigSnapshot;
import io.gapless.kafka.share.admin.ShareGroupSettings;
import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.TestClients;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.StringDeserializer;
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
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
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
 * Share groups on SASL_SSL with exactly the ACLs docs/security.md lists: the new-partitions policy
 * (expansion scenario, each ACL taken away in turn) and ShareGroupSettings (apply and describe;
 * without AlterConfigs or DescribeConfigs nothing is applied; without the optional cluster
 * DescribeConfigs the broker checks the bounds).
 */
@ExtendWith(SecuredKafka.class)
class GaplessShareSecurityIT {
    private static final Duration WAIT = Duration.ofSeconds(45);
    private static SecretWatch secrets;

    private final EmbeddedKafka kafka;

    GaplessShareSecurityIT(EmbeddedKafka kafka) {
        this.kafka = kafka;
    }

    @BeforeAll
    static void capture(EmbeddedKafka kafka) {
        secrets = SecretWatch.start(kafka);
    }

    @AfterAll
    static void noSecretInAnyLogLine() {
        secrets.verifyAndClose("sasl.jaas.config = [hidden]");
    }

    private Tenant tenant(String name) {
        return secrets.tenant(kafka, name);
    }

    /** One ACL of docs/security.md's share new-partitions table. */
    record Acl(ResourceType type, AclOperation operation, boolean onBaseline) {
        @Override
        public String toString() {
            return aclName(operation) + " on " + (onBaseline ? "the baseline topic" : type.name().toLowerCase());
        }
    }

    /** docs/security.md: the SDK's needs for share.auto.offset.reset.new.partitions, besides Kafka's Read on group and topic. */
    static List<Acl> newPartitionsAcls() {
        // AlterConfigs implies DescribeConfigs (Kafka's rule): the steering both reads and writes the group's configs.
        return List.of(new Acl(ResourceType.GROUP, AclOperation.ALTER_CONFIGS, false),
                new Acl(ResourceType.TOPIC, AclOperation.READ, true), new Acl(ResourceType.TOPIC, AclOperation.WRITE, true),
                new Acl(ResourceType.TOPIC, AclOperation.DESCRIBE_CONFIGS, true), new Acl(ResourceType.TOPIC, AclOperation.CREATE, true));
    }

    static Stream<Arguments> eachNewPartitionsAcl() {
        return newPartitionsAcls().stream().map(Arguments::of);
    }

    private void grant(Tenant t, Acl acl) {
        t.allow(acl.type(), acl.onBaseline() ? t.baselineTopic() : t.group(), acl.operation());
    }

    private String resourceOf(Tenant t, Acl acl) {
        return acl.onBaseline() ? t.baselineTopic() : t.group();
    }

    /** A member as an application runs it: explicit acknowledgements, base latest, new partitions earliest. */
    private final class Member implements AutoCloseable {
        final GaplessShareConsumer<String, String> consumer;
        final List<String> seen = new ArrayList<>();

        Member(Tenant t) {
            Map<String, Object> cfg = new HashMap<>();
            t.connection().forEach((k, v) -> cfg.put(String.valueOf(k), v));
            cfg.put("group.id", t.group());
            cfg.put("share.acknowledgement.mode", "explicit");
            cfg.put("share.auto.offset.reset", "latest");
            cfg.put("share.auto.offset.reset.new.partitions", "earliest");
            cfg.put("gapless.share.partition.check.interval.ms", 200L);
            cfg.put("gapless.baseline.timeout.ms", 10_000L);
            consumer = new GaplessShareConsumer<>(cfg, new StringDeserializer(), new StringDeserializer());
            consumer.subscribe(List.of(t.topic()));
        }

        void pollOnce() {
            for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(100))) {
                seen.add(r.value());
                consumer.acknowledge(r, AcknowledgeType.ACCEPT);
            }
            consumer.commitSync();
        }

        void pollUntil(Set<String> expected) {
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (!new HashSet<>(seen).containsAll(expected)) {
                if (System.nanoTime() > deadline) {
                    fail("missing " + expected.stream().filter(v -> !seen.contains(v)).count() + " records");
                }
                pollOnce();
            }
        }

        RuntimeException firstFailure() {
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (System.nanoTime() < deadline) {
                try {
                    pollOnce();
                } catch (RuntimeException e) {
                    return e;
                }
            }
            return fail("poll() did not fail within " + WAIT);
        }

        @Override
        public void close() {
            consumer.close();
        }
    }

    private void allowShareConsumer(Tenant t) {
        t.allow(ResourceType.GROUP, t.group(), AclOperation.READ);
        t.allow(ResourceType.TOPIC, t.topic(), AclOperation.READ);
    }

    @Test
    void newPartitionsWithTheDocumentedAclsLosesNothingAndReplaysNoHistory() throws Exception {
        Tenant t = tenant("share-lp");
        kafka.createTopic(t.topic(), 2);
        allowShareConsumer(t);
        newPartitionsAcls().forEach(acl -> grant(t, acl));
        try (KafkaProducer<String, String> producer = TestClients.producer(kafka)) {
            Set<String> history = new HashSet<>(TestClients.produce(producer, t.topic(), 0, "history0", 20));
            history.addAll(TestClients.produce(producer, t.topic(), 1, "history1", 20));
            try (Member member = new Member(t)) {
                member.pollOnce();
                Set<String> live = new HashSet<>(TestClients.produce(producer, t.topic(), 0, "live0", 10));
                member.pollUntil(live);
                kafka.addPartitions(t.topic(), 4);
                Set<String> added = new HashSet<>(TestClients.produce(producer, t.topic(), 2, "new2", 25));
                added.addAll(TestClients.produce(producer, t.topic(), 3, "new3", 25));
                member.pollUntil(added);
                Set<String> replayed = new HashSet<>(history);
                replayed.retainAll(member.seen);
                assertEquals(Set.of(), replayed, "no record older than the group");
                assertEquals(60, member.seen.size(), "every live and added record once");
                assertEquals(member.seen.size(), new HashSet<>(member.seen).size(), "none twice");
            }
        }
    }

    @ParameterizedTest(name = "without {0}")
    @MethodSource("eachNewPartitionsAcl")
    void newPartitionsWithAnAclTakenAwayFailsNamingItAndDeliversNothing(Acl missing) throws Exception {
        Tenant t = tenant("share-minus-" + aclName(missing.operation()).toLowerCase() + (missing.onBaseline() ? "-baseline" : "-group"));
        kafka.createTopic(t.topic(), 2);
        allowShareConsumer(t);
        newPartitionsAcls().stream().filter(acl -> !acl.equals(missing)).forEach(acl -> grant(t, acl));
        try (KafkaProducer<String, String> producer = TestClients.producer(kafka)) {
            TestClients.produce(producer, t.topic(), 0, "history0", 10);
            RuntimeException failure;
            Member member = null;
            try {
                member = new Member(t);
                failure = member.firstFailure();
                assertTrue(member.seen.isEmpty(), "nothing delivered before the failure: " + member.seen);
            } catch (RuntimeException atConstruction) {
                failure = atConstruction;
            }
            try {
                AuthorizationException cause = causeOfType(failure, AuthorizationException.class);
                assertNotNull(cause, "Kafka's AuthorizationException: " + trace(failure));
                String message = String.valueOf(failure.getMessage());
                assertTrue(message.contains(resourceOf(t, missing)), "names the resource: " + message);
                assertTrue(message.contains(aclName(missing.operation())), "names the operation: " + message);
                System.out.println("Without " + missing + ": " + failure);
                assertTrue(kafka.admin().listShareGroupOffsets(Map.of(t.group(), new org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec()))
                        .partitionsToOffsetInfo(t.group()).get().values().stream().allMatch(java.util.Objects::isNull),
                        "no share-partition initialized, nothing acknowledged");

                grant(t, missing);
                if (member == null) {
                    member = new Member(t);
                }
                member.pollOnce();
                Set<String> live = new HashSet<>(TestClients.produce(producer, t.topic(), 1, "live1", 10));
                member.pollUntil(live);
                kafka.addPartitions(t.topic(), 3);
                Set<String> added = new HashSet<>(TestClients.produce(producer, t.topic(), 2, "new2", 10));
                member.pollUntil(added);
                assertTrue(member.seen.stream().noneMatch(v -> v.startsWith("history")), "no history: " + member.seen);
                assertEquals(20, member.seen.size(), "live and added records once each: " + member.seen);
            } finally {
                if (member != null) {
                    member.close();
                }
            }
        }
    }

    @Test
    void shareGroupSettingsNeedAlterConfigsOnTheGroupToUpdateAndDescribeConfigsToRead() throws Exception {
        Tenant t = tenant("settings");
        t.allow(ResourceType.GROUP, t.group(), AclOperation.ALTER_CONFIGS);
        try (Admin admin = Admin.create(t.connection())) {
            ShareGroupSettings settings = ShareGroupSettings.forGroup(admin, t.group()).withTimeout(Duration.ofSeconds(15));
            settings.update().autoOffsetReset(ResetPolicy.EARLIEST).recordLockDuration(Duration.ofSeconds(40)).deliveryCountLimit(4).apply();
            ShareGroupConfigSnapshot now = settings.describe();
            assertEquals(Optional.of(ResetPolicy.EARLIEST), now.autoOffsetReset());
            assertEquals(Optional.of(Duration.ofSeconds(40)), now.recordLockDuration());
            assertEquals(OptionalInt.of(4), now.deliveryCountLimit());

            // Without DescribeConfigs on the cluster the broker's bounds are the broker's to check: still nothing applied.
            assertThrows(InvalidConfigurationException.class,
                    () -> settings.update().deliveryCountLimit(6).recordLockDuration(Duration.ofDays(1)).apply());
            assertEquals(OptionalInt.of(4), asSuperUser(t).describe().deliveryCountLimit(), "nothing of a refused update applied");

            // A principal that may only read the configs: describe works, an update is refused naming AlterConfigs.
            t.allow(ResourceType.GROUP, t.group(), AclOperation.DESCRIBE_CONFIGS);
            t.revoke(ResourceType.GROUP, t.group(), AclOperation.ALTER_CONFIGS);
            assertEquals(OptionalInt.of(4), settings.describe().deliveryCountLimit());
            GroupAuthorizationException e = assertThrows(GroupAuthorizationException.class, () -> settings.update().deliveryCountLimit(7).apply());
            assertTrue(e.getMessage().contains("AlterConfigs on group " + t.group()), e.getMessage());
            assertEquals(t.group(), e.groupId());
            assertEquals(OptionalInt.of(4), asSuperUser(t).describe().deliveryCountLimit(), "nothing applied without AlterConfigs");

            t.revoke(ResourceType.GROUP, t.group(), AclOperation.DESCRIBE_CONFIGS);
            GroupAuthorizationException read = assertThrows(GroupAuthorizationException.class, settings::describe);
            assertTrue(read.getMessage().contains("DescribeConfigs on group " + t.group()), read.getMessage());
        }
    }

    private ShareGroupSettings asSuperUser(Tenant t) {
        return ShareGroupSettings.forGroup(kafka.admin(), t.group());
    }
}
