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
package io.gapless.kafka.compat;

import io.gapless.kafka.core.GaplessConsumer;
import io.gapless.kafka.core.GaplessConsumerConfig;
import io.gapless.kafka.core.UnsupportedClientVersionException;
import io.gapless.kafka.share.GaplessShareConfig;
import io.gapless.kafka.share.GaplessShareConsumer;
import io.gapless.kafka.share.admin.ShareGroupSettings;
import io.gapless.kafka.share.txn.TransactionalShareProducer;
import io.gapless.kafka.streams.GaplessStreams;
import io.gapless.kafka.streams.GaplessStreamsBuilder;
import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.EmbeddedKafkaTest;
import io.gapless.kafka.testkit.TestTopics;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiConsumer;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every SDK entry point on the kafka-clients release this JVM holds (one failsafe execution per
 * release, see this module's POM), against the Kafka 4.4 broker in a child JVM: it either works
 * (constructs, does one real call, closes) or is refused at construction with an
 * {@link UnsupportedClientVersionException} naming the release found and the one required, having
 * created nothing on the broker. The expectations below are docs/compatibility.md's matrix, stated
 * here independently of the SDK's own table so that the two check each other.
 */
@EmbeddedKafkaTest
class ConstructionMatrixIT {
    private static final Logger log = LoggerFactory.getLogger(ConstructionMatrixIT.class);

    /** docs/compatibility.md's matrix: the first kafka-clients (and kafka-streams) minor each entry point works with. */
    enum EntryPoint {
        GAPLESS_CONSUMER("GaplessConsumer", "4.1", ConstructionMatrixIT::gaplessConsumer),
        GAPLESS_STREAMS("GaplessStreams", "4.1", ConstructionMatrixIT::gaplessStreams),
        GAPLESS_SHARE_CONSUMER("GaplessShareConsumer", "4.2", ConstructionMatrixIT::gaplessShareConsumer),
        TRANSACTIONAL_SHARE_PRODUCER("TransactionalShareProducer", "4.2", ConstructionMatrixIT::transactionalShareProducer),
        SHARE_GROUP_SETTINGS("ShareGroupSettings", "4.1", ConstructionMatrixIT::shareGroupSettings);

        final String name;
        final String firstMinor;
        final BiConsumer<EmbeddedKafka, String> use;

        EntryPoint(String name, String firstMinor, BiConsumer<EmbeddedKafka, String> use) {
            this.name = name;
            this.firstMinor = firstMinor;
            this.use = use;
        }

        boolean worksOn(String release) {
            return compareMinor(release, firstMinor) >= 0;
        }
    }

    private final EmbeddedKafka kafka;

    ConstructionMatrixIT(EmbeddedKafka kafka) {
        this.kafka = kafka;
    }

    /** The release under test, as the POM's execution names it; this module's own default run is the compile release. */
    private static String expectedRelease() {
        return System.getProperty("gapless.compat.kafka.version", "4.4.0");
    }

    @Test
    void thisJvmHoldsTheReleaseUnderTestAndNoBrokerJars() {
        assertEquals(expectedRelease(), releaseOf("kafka/kafka-version.properties"), "kafka-clients on the test classpath");
        assertEquals(expectedRelease(), releaseOf("kafka/kafka-streams-version.properties"), "kafka-streams on the test classpath");
        if (!expectedRelease().equals("4.4.0")) {
            assertTrue(Arrays.stream(System.getProperty("java.class.path").split(java.io.File.pathSeparator))
                            .noneMatch(entry -> entry.contains("kafka_2.13") || entry.contains("kafka-server")),
                    "the broker runs in its own JVM: no broker jar in this one");
        }
    }

    static Stream<EntryPoint> entryPoints() {
        return Stream.of(EntryPoint.values());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("entryPoints")
    void worksOrIsRefusedAtConstruction(EntryPoint entryPoint) {
        String release = expectedRelease();
        String topic = TestTopics.unique("compat-in");
        kafka.createTopic(topic, 1);
        if (entryPoint.worksOn(release)) {
            entryPoint.use.accept(kafka, topic);
            log.info("{} on kafka-clients {}: works", entryPoint.name, release);
            return;
        }
        Set<String> topicsBefore = topics(kafka);
        UnsupportedClientVersionException e = assertThrows(UnsupportedClientVersionException.class,
                () -> entryPoint.use.accept(kafka, topic), entryPoint.name + " on kafka-clients " + release);
        assertAll(
                () -> assertEquals(entryPoint.name, e.entryPoint()),
                () -> assertEquals(release, e.found()),
                () -> assertEquals(entryPoint.firstMinor, e.required()),
                () -> assertTrue(e.getMessage().contains(release) && e.getMessage().contains(entryPoint.firstMinor),
                        "the message names both releases: " + e.getMessage()),
                () -> assertEquals(topicsBefore, topics(kafka), "a refused constructor creates nothing on the broker"));
        log.info("{} on kafka-clients {}: refused as designed: {}", entryPoint.name, release, e.getMessage());
    }

    private static void gaplessConsumer(EmbeddedKafka kafka, String topic) {
        Map<String, Object> config = new HashMap<>();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        config.put(ConsumerConfig.GROUP_ID_CONFIG, TestTopics.unique("compat-group"));
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
        config.put(GaplessConsumerConfig.AUTO_OFFSET_RESET_NEW_PARTITIONS_CONFIG, "earliest");
        try (GaplessConsumer<String, String> consumer = new GaplessConsumer<>(config, new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            consumer.poll(Duration.ofMillis(500));
        }
    }

    private static void gaplessStreams(EmbeddedKafka kafka, String topic) {
        GaplessStreamsBuilder builder = new GaplessStreamsBuilder();
        builder.<String, String>stream(topic).foreach((k, v) -> { });
        Properties props = new Properties();
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, TestTopics.unique("compat-app"));
        props.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        props.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        props.put(GaplessConsumerConfig.AUTO_OFFSET_RESET_NEW_PARTITIONS_CONFIG, "earliest");
        try (KafkaStreams streams = GaplessStreams.create(builder, props)) {
            assertEquals(KafkaStreams.State.CREATED, streams.state());
        }
    }

    private static void gaplessShareConsumer(EmbeddedKafka kafka, String topic) {
        Map<String, Object> config = new HashMap<>();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        config.put(ConsumerConfig.GROUP_ID_CONFIG, TestTopics.unique("compat-share-group"));
        config.put("share.auto.offset.reset", "latest");
        config.put("share.auto.offset.reset.new.partitions", "earliest");
        config.put(GaplessShareConfig.ACKNOWLEDGEMENT_MODE_CONFIG, GaplessShareConfig.ACKNOWLEDGEMENT_MODE_TRANSACTIONAL);
        config.put(GaplessShareConfig.LEDGER_TOPIC_CONFIG, TestTopics.unique("compat-ledger"));
        try (GaplessShareConsumer<String, String> consumer = new GaplessShareConsumer<>(config, new StringDeserializer(),
                new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            consumer.poll(Duration.ofMillis(500));
        }
    }

    private static void transactionalShareProducer(EmbeddedKafka kafka, String topic) {
        Map<String, Object> config = new HashMap<>();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        config.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, TestTopics.unique("compat-txn"));
        config.put(GaplessShareConfig.LEDGER_TOPIC_CONFIG, TestTopics.unique("compat-ledger"));
        try (TransactionalShareProducer<String, String> producer = new TransactionalShareProducer<>(config, new StringSerializer(),
                new StringSerializer())) {
            producer.initTransactions();
        }
    }

    private static void shareGroupSettings(EmbeddedKafka kafka, String topic) {
        ShareGroupSettings settings = ShareGroupSettings.forGroup(kafka.admin(), TestTopics.unique("compat-settings-group"));
        assertTrue(settings.describe() != null);
    }

    /** Every topic, internal ones included. */
    private static Set<String> topics(EmbeddedKafka kafka) {
        try {
            return kafka.admin().listTopics(new ListTopicsOptions().listInternal(true)).names().get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@code version=} of a properties file Kafka's jars carry, read without any SDK or Kafka code. */
    private static String releaseOf(String resource) {
        try (InputStream in = KafkaConsumer.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                return "missing " + resource;
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Compares the major.minor parts of two releases ("4.1.2" against "4.2"). */
    private static int compareMinor(String release, String minor) {
        String[] a = release.split("\\.");
        String[] b = minor.split("\\.");
        int major = Integer.compare(Integer.parseInt(a[0]), Integer.parseInt(b[0]));
        return major != 0 ? major : Integer.compare(Integer.parseInt(a[1]), Integer.parseInt(b[1]));
    }
}
