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
package io.gapless.kafka.streams;

import io.gapless.kafka.core.GaplessConsumerConfig;
import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.EmbeddedKafkaTest;
import io.gapless.kafka.testkit.TestTopics;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.AutoOffsetReset;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Kafka Streams' task recovery ({@code TaskCorruptedException} -> {@code closeDirtyAndRevive} ->
 * {@code resetOffsetsIfNeededAndInitializeMetadata} -> {@code StreamThread.resetOffsets})
 * re-positions every input partition of the corrupted task that has no committed offset by the
 * topology's own reset policy, without an {@code InvalidOffsetException} for the main consumer.
 * Triggered for real: a count whose stores hold a changelog offset below the changelog's log
 * start (changelog truncated), so that restoration fails out of range. The source partitions
 * without a committed offset must still be positioned by the SDK's decision: no stream thread
 * dies, and a new partition is read by its new-partitions policy.
 *
 * <p>At-least-once: under {@code exactly_once_v2} with the classic protocol Kafka Streams also
 * forces a rebalance after a corrupted active task, which may close the revived task before it
 * reaches that path (then the ordinary poll path positions it); exactly-once is covered by the
 * crash test in the e2e module.
 */
@EmbeddedKafkaTest
class GaplessStreamsTaskRecoveryIT {
    private static final int PER_PARTITION = 10;
    private static final String CORRUPTED = "Detected the states of tasks";

    @ParameterizedTest(name = "group.protocol={0}")
    @ValueSource(strings = {"classic", "streams"})
    void sourceWithoutPolicyDoesNotKillTheThreadWhenItsTaskIsRevived(String protocol, EmbeddedKafka kafka) {
        String a = TestTopics.unique("rec-a");
        String b = TestTopics.unique("rec-b");
        String out = TestTopics.unique("rec-out");
        kafka.createTopic(a, 2);
        kafka.createTopic(b, 2);
        kafka.createTopic(out, 1);
        String app = TestTopics.unique("rec-undeclared");
        try (StreamsHarness h = new StreamsHarness(kafka);
             StreamsHarness.Output<Long> output = h.output(out, new LongDeserializer());
             LogCapture corruption = LogCapture.of("org.apache.kafka.streams.processor.internals.StreamThread")) {
            Properties props = h.streamsProps(app, protocol);
            props.put(GaplessConsumerConfig.AUTO_OFFSET_RESET_NEW_PARTITIONS_CONFIG, "earliest");
            App first = new App(GaplessStreams.create(builder(a, b, out, null), props));
            first.start();
            // Source b gets no record: its partitions have no committed offset.
            h.awaitReadingKeys(a, List.of(0, 1), output);
            List<String> before = h.produce(a, List.of(0, 1), PER_PARTITION, "before");
            output.awaitUntil(r -> keys(r).containsAll(before));
            first.assertNoThreadDied();
            StreamsHarness.stop(first.streams);
            truncateChangelog(kafka, props, app, 2);

            App second = new App(GaplessStreams.create(builder(a, b, out, null), props));
            second.start();
            List<String> after = h.produce(a, List.of(0, 1), PER_PARTITION, "after");
            second.awaitReadingOrDeath(h, b, List.of(0, 1), output);
            second.assertNoThreadDied();
            assertTrue(corruption.count(CORRUPTED) > 0, "Kafka Streams treated the tasks as corrupted: " + corruption.messages());
            output.awaitUntil(r -> keys(r).containsAll(before) && keys(r).containsAll(after));
            assertCountedOnce(output.records());
            StreamsHarness.stop(second.streams);
        }
    }

    @ParameterizedTest(name = "group.protocol={0}")
    @ValueSource(strings = {"classic", "streams"})
    void newPartitionOfARevivedTaskFollowsTheNewPartitionsPolicy(String protocol, EmbeddedKafka kafka) {
        String a = TestTopics.unique("rec-a");
        String b = TestTopics.unique("rec-b");
        String out = TestTopics.unique("rec-out");
        kafka.createTopic(a, 1);
        kafka.createTopic(b, 1);
        kafka.createTopic(out, 1);
        String app = TestTopics.unique("rec-declared");
        AutoOffsetReset policy = NewPartitionsReset.latest().withNewPartitionsResetPolicy(AutoOffsetReset.earliest());
        try (StreamsHarness h = new StreamsHarness(kafka);
             StreamsHarness.Output<Long> output = h.output(out, new LongDeserializer());
             LogCapture corruption = LogCapture.of("org.apache.kafka.streams.processor.internals.StreamThread")) {
            Properties props = h.streamsProps(app, protocol);
            App first = new App(GaplessStreams.create(builder(a, b, out, policy), props));
            first.start();
            h.awaitReadingKeys(a, List.of(0), output);
            h.awaitReadingKeys(b, List.of(0), output);
            first.assertNoThreadDied();
            StreamsHarness.stop(first.streams);

            // Both sources grow (a-1 and b-1 are new for the group); the count's changelog must grow with them.
            kafka.addPartitions(a, 2);
            kafka.addPartitions(b, 2);
            kafka.addPartitions(app + "-counts-changelog", 2);
            App second = new App(GaplessStreams.create(builder(a, b, out, policy), props));
            second.start();
            // Task 0_1 counts records of a-1; b-1 stays empty, so it gets no committed offset.
            List<String> onA = h.produce(a, List.of(1), PER_PARTITION, "a1");
            h.awaitReadingKeys(a, List.of(0, 1), output);
            output.awaitUntil(r -> keys(r).containsAll(onA));
            second.assertNoThreadDied();
            StreamsHarness.stop(second.streams);

            // While the application is down: records land on b-1, and the changelog is truncated.
            List<String> onNew = h.produce(b, List.of(1), PER_PARTITION, "new");
            truncateChangelog(kafka, props, app, 2);
            App third = new App(GaplessStreams.create(builder(a, b, out, policy), props));
            third.start();
            third.awaitReadingOrDeath(h, a, List.of(0, 1), output);
            third.assertNoThreadDied();
            assertTrue(corruption.count(CORRUPTED) > 0, "Kafka Streams treated the tasks as corrupted: " + corruption.messages());
            h.awaitReadingKeys(b, List.of(0, 1), output);
            output.drain(Duration.ofMillis(300));
            Set<String> counted = keys(output.records());
            List<String> lost = onNew.stream().filter(v -> !counted.contains(v)).toList();
            assertEquals(List.of(), lost, "records on the new partition b-1, written while the application was down, are all counted");
            assertCountedOnce(output.records());
            third.assertNoThreadDied();
            StreamsHarness.stop(third.streams);
        }
    }

    /** A Streams application with a handler that records every exception that would kill a stream thread. */
    static final class App {
        final KafkaStreams streams;
        final List<Throwable> deaths = new CopyOnWriteArrayList<>();

        App(KafkaStreams streams) {
            this.streams = streams;
            streams.setUncaughtExceptionHandler(e -> {
                deaths.add(e);
                return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
            });
        }

        void start() {
            streams.start();
        }

        void assertNoThreadDied() {
            assertEquals(List.of(), deaths.stream().map(App::describe).toList(), "no stream thread died");
        }

        /** Waits until the app reads {@code partitions} of {@code topic}; fails at once with the cause when a stream thread died meanwhile. */
        void awaitReadingOrDeath(StreamsHarness h, String topic, List<Integer> partitions, StreamsHarness.Output<Long> output) {
            try {
                h.awaitReadingKeys(topic, partitions, output);
            } catch (org.awaitility.core.ConditionTimeoutException e) {
                assertNoThreadDied();
                throw e;
            }
        }

        private static String describe(Throwable t) {
            StringBuilder s = new StringBuilder();
            for (Throwable c = t; c != null; c = c.getCause()) {
                s.append(c.getClass().getSimpleName()).append(": ").append(c.getMessage()).append(" / ");
            }
            return s.toString();
        }
    }

    /** Counts per input value over both source topics (one source node, so task k reads a-k and b-k): a stateful source task. */
    private static GaplessStreamsBuilder builder(String a, String b, String out, AutoOffsetReset policy) {
        GaplessStreamsBuilder builder = new GaplessStreamsBuilder();
        Consumed<String, String> consumed = Consumed.with(Serdes.String(), Serdes.String());
        builder.stream(List.of(a, b), policy == null ? consumed : consumed.withOffsetResetPolicy(policy))
                .groupByKey()
                .count(Materialized.as("counts"))
                .toStream()
                .to(out, Produced.with(Serdes.String(), Serdes.Long()));
        return builder;
    }

    /**
     * Rewinds the changelog offset held by every store of the stopped {@code app} to 0 and deletes
     * the changelog's records, so that restoration starts below the log start.
     */
    private static void truncateChangelog(EmbeddedKafka kafka, Properties props, String app, int partitions) {
        String changelog = app + "-counts-changelog";
        assertTrue(CrashedStores.setChangelogOffsets(props, app, 0L) > 0, "stores holding a changelog offset");
        try {
            var admin = kafka.admin();
            admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.TOPIC, changelog), List.of(
                    new AlterConfigOp(new ConfigEntry("cleanup.policy", "compact,delete"), AlterConfigOp.OpType.SET))))
                    .all().get(30, TimeUnit.SECONDS);
            Collection<TopicPartition> tps = IntStream.range(0, partitions).mapToObj(p -> new TopicPartition(changelog, p)).toList();
            Map<TopicPartition, OffsetSpec> latest = tps.stream().collect(Collectors.toMap(tp -> tp, tp -> OffsetSpec.latest()));
            Map<TopicPartition, RecordsToDelete> delete = new HashMap<>();
            admin.listOffsets(latest).all().get(30, TimeUnit.SECONDS)
                    .forEach((tp, info) -> delete.put(tp, RecordsToDelete.beforeOffset(info.offset())));
            admin.deleteRecords(delete).all().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("Cannot truncate " + changelog, e);
        }
    }

    private static Set<String> keys(List<ConsumerRecord<String, Long>> records) {
        return records.stream().map(ConsumerRecord::key).collect(Collectors.toSet());
    }

    /** Every input value is unique, so each key's final count must be 1 and appear once (read_committed). */
    private static void assertCountedOnce(List<ConsumerRecord<String, Long>> records) {
        Map<String, Long> max = new HashMap<>();
        records.forEach(r -> max.merge(r.key(), r.value(), Math::max));
        Map<String, Long> twice = max.entrySet().stream().filter(e -> e.getValue() != 1L)
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
        assertEquals(Map.of(), twice, "no record counted twice");
        assertEquals(max.size(), records.size(), "one committed count update per record");
    }
}
