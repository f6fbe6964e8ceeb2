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
import io.gapless.kafka.streams.GaplessStreams;
import io.gapless.kafka.streams.GaplessStreamsBuilder;
import io.gapless.kafka.streams.NewPartitionsReset;
import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.TestClients;
import io.gapless.kafka.testkit.TestTopics;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.AutoOffsetReset;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.apache.kafka.streams.kstream.Consumed;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;

import static io.gapless.kafka.e2e.security.GaplessConsumerSecurityIT.aclName;
import static io.gapless.kafka.e2e.security.GaplessConsumerSecurityIT.causeOfType;
import static io.gapless.kafka.e2e.security.GaplessConsumerSecurityIT.trace;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A stateless GaplessStreams app (map) on SASL_SSL with exactly the ACLs docs/security.md lists for Kafka
 * Streams plus the SDK's baseline topic: the expansion scenario on both group protocols, and each
 * baseline ACL taken away in turn (the stream thread fails naming it, nothing processed or
 * committed; once granted, the app reads the added partitions from their start).
 */
@ExtendWith(SecuredKafka.class)
class GaplessStreamsSecurityIT {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final AclOperation[] BASELINE_ACLS = {AclOperation.READ, AclOperation.WRITE, AclOperation.DESCRIBE_CONFIGS,
        AclOperation.CREATE};
    private static SecretWatch secrets;

    private final EmbeddedKafka kafka;

    GaplessStreamsSecurityIT(EmbeddedKafka kafka) {
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

    /** An application: the tenant's group is its application.id, its topic the source; the sink is {@code <source>-out}. */
    private record App(Tenant tenant, String source, String sink) {
    }

    private App app(String name, AclOperation... baselineAcls) {
        Tenant t = secrets.tenant(kafka, name);
        App app = new App(t, t.topic(), t.topic() + "-out");
        kafka.createTopic(app.source(), 2);
        kafka.createTopic(app.sink(), 1);
        // Kafka Streams' own needs for a stateless app (no internal topics): its group, Read on the source, Write on the sink.
        t.allow(ResourceType.GROUP, t.group(), AclOperation.READ);
        t.allow(ResourceType.TOPIC, app.source(), AclOperation.READ);
        t.allow(ResourceType.TOPIC, app.sink(), AclOperation.WRITE);
        t.allow(ResourceType.TOPIC, t.baselineTopic(), baselineAcls);
        return app;
    }

    private KafkaStreams streams(App app, String protocol, AtomicReference<Throwable> died) throws Exception {
        GaplessStreamsBuilder b = new GaplessStreamsBuilder();
        b.stream(app.source(), Consumed.with(Serdes.String(), Serdes.String())
                        .withOffsetResetPolicy(NewPartitionsReset.latest().withNewPartitionsResetPolicy(AutoOffsetReset.earliest())))
                .mapValues(v -> "out:" + v).to(app.sink());
        Properties p = new Properties();
        p.putAll(app.tenant().connection());
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, app.tenant().group());
        p.put(StreamsConfig.GROUP_PROTOCOL_CONFIG, protocol);
        p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 1);
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
        p.put(StreamsConfig.METADATA_MAX_AGE_CONFIG, 500);
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.METADATA_MAX_AGE_CONFIG), 500);
        p.put(StreamsConfig.STATE_DIR_CONFIG, Files.createTempDirectory("gapless-streams-sec-").toString());
        p.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        p.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        p.put("gapless.baseline.timeout.ms", 10_000L);
        KafkaStreams streams = GaplessStreams.create(b, p);
        streams.setUncaughtExceptionHandler(e -> {
            died.compareAndSet(null, e);
            return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        });
        return streams;
    }

    @ParameterizedTest(name = "group.protocol={0}")
    @ValueSource(strings = {"classic", "streams"})
    void theDocumentedAclsAreEnoughForTheExpansionScenario(String protocol) throws Exception {
        App app = app("streams-lp-" + protocol, BASELINE_ACLS);
        AtomicReference<Throwable> died = new AtomicReference<>();
        try (KafkaProducer<String, String> producer = TestClients.producer(kafka); Output out = new Output(app.sink());
             KafkaStreams streams = streams(app, protocol, died)) {
            List<String> history = produce(producer, app.source(), List.of(0, 1), "history");
            streams.start();
            awaitReading(producer, app.source(), List.of(0, 1), out, died);
            kafka.addPartitions(app.source(), 4);
            List<String> live = produce(producer, app.source(), List.of(0, 1, 2, 3), "live");
            await().atMost(WAIT).until(() -> {
                out.poll();
                return died.get() == null && out.values().containsAll(live);
            });
            out.drain();
            List<String> processed = out.values().stream().filter(v -> !v.startsWith("marker")).toList();
            assertTrue(processed.stream().noneMatch(history::contains), "no history");
            assertEquals(live.size(), processed.size(), "every live record once: " + processed);
            close(streams);
        }
    }

    @ParameterizedTest(name = "without {0} on the baseline topic")
    @EnumSource(value = AclOperation.class, names = {"READ", "WRITE", "DESCRIBE_CONFIGS", "CREATE"})
    void eachBaselineAclTakenAwayFailsTheThreadNamingItAndProcessesNothing(AclOperation missing) throws Exception {
        AclOperation[] rest = java.util.Arrays.stream(BASELINE_ACLS).filter(op -> op != missing).toArray(AclOperation[]::new);
        App app = app("streams-minus-" + missing.name().toLowerCase().replace('_', '-'), rest);
        try (KafkaProducer<String, String> producer = TestClients.producer(kafka); Output out = new Output(app.sink())) {
            produce(producer, app.source(), List.of(0, 1), "history");
            AtomicReference<Throwable> died = new AtomicReference<>();
            try (KafkaStreams streams = streams(app, "classic", died)) {
                streams.start();
                await().atMost(WAIT).until(() -> died.get() != null);
                Throwable e = died.get();
                BaselineUnavailableException unavailable = causeOfType(e, BaselineUnavailableException.class);
                assertNotNull(unavailable, trace(e));
                assertNotNull(causeOfType(e, AuthorizationException.class), trace(e));
                assertTrue(unavailable.getMessage().contains(app.tenant().baselineTopic()), unavailable.getMessage());
                assertTrue(unavailable.getMessage().contains(aclName(missing)), unavailable.getMessage());
                close(streams);
            }
            // The dead thread may not have left the group: remove it, so the next start does not wait for its session to expire
            // (Kafka's admin refuses to remove "all members" of a group that has none: the thread died before joining).
            if (!kafka.admin().describeConsumerGroups(List.of(app.tenant().group())).all().get().get(app.tenant().group()).members().isEmpty()) {
                kafka.admin().removeMembersFromConsumerGroup(app.tenant().group(),
                        new org.apache.kafka.clients.admin.RemoveMembersFromConsumerGroupOptions()).all().get();
            }
            out.drain();
            assertTrue(out.values().isEmpty(), "nothing processed: " + out.values());
            assertTrue(kafka.admin().listConsumerGroupOffsets(app.tenant().group()).partitionsToOffsetAndMetadata().get().isEmpty(),
                    "nothing committed");

            app.tenant().allow(ResourceType.TOPIC, app.tenant().baselineTopic(), missing);
            AtomicReference<Throwable> died2 = new AtomicReference<>();
            try (KafkaStreams streams = streams(app, "classic", died2)) {
                streams.start();
                awaitReading(producer, app.source(), List.of(0, 1), out, died2);
                kafka.addPartitions(app.source(), 3);
                List<String> added = produce(producer, app.source(), List.of(2), "added");
                await().atMost(WAIT).until(() -> {
                    out.poll();
                    return died2.get() == null && out.values().containsAll(added);
                });
                assertTrue(out.values().stream().noneMatch(v -> v.startsWith("history")), "no history");
                close(streams);
            }
        }
    }

    private static void close(KafkaStreams streams) {
        streams.close(CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
                .withTimeout(Duration.ofSeconds(30)));
    }

    private static List<String> produce(KafkaProducer<String, String> producer, String topic, List<Integer> partitions, String prefix) {
        List<String> values = new ArrayList<>();
        for (int p : partitions) {
            values.addAll(TestClients.produce(producer, topic, p, prefix + "-p" + p, 10));
        }
        return values;
    }

    /** Sends markers to each partition until one comes out: the partitions are positioned and processed. */
    private static void awaitReading(KafkaProducer<String, String> producer, String topic, List<Integer> partitions, Output out,
                                     AtomicReference<Throwable> died) {
        for (int p : partitions) {
            String prefix = "marker-" + TestTopics.unique("m") + "-p" + p;
            await().atMost(WAIT).pollInterval(Duration.ofMillis(300)).until(() -> {
                assertEquals(null, died.get(), () -> "the app died: " + trace(died.get()));
                TestClients.produce(producer, topic, p, prefix, 1);
                out.poll();
                return out.values().stream().anyMatch(v -> v.startsWith(prefix));
            });
        }
    }

    /** The sink, read by the super user from the beginning. */
    private final class Output implements AutoCloseable {
        private final KafkaConsumer<String, String> consumer;
        private final List<String> values = new ArrayList<>();

        Output(String topic) {
            Properties c = kafka.clientProperties();
            c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
            consumer = new KafkaConsumer<>(c, new StringDeserializer(), new StringDeserializer());
            List<TopicPartition> tps = IntStream.range(0, kafka.partitionCount(topic)).mapToObj(i -> new TopicPartition(topic, i)).toList();
            consumer.assign(tps);
            consumer.seekToBeginning(tps);
        }

        void poll() {
            for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(100))) {
                values.add(r.value().substring("out:".length()));
            }
        }

        void drain() {
            long end = System.nanoTime() + Duration.ofMillis(500).toNanos();
            while (System.nanoTime() < end) {
                poll();
            }
        }

        List<String> values() {
            return values;
        }

        @Override
        public void close() {
            consumer.close(org.apache.kafka.clients.consumer.CloseOptions.timeout(Duration.ofSeconds(5)));
        }
    }
}
