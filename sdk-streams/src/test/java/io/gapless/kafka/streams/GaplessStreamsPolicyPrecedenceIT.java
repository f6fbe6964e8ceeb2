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
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.AutoOffsetReset;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Per-source policies and the application-wide settings together, on a Processor API topology
 * ({@link GaplessTopology}). Application-wide: {@code auto.offset.reset=latest},
 * {@code auto.offset.reset.new.partitions=earliest}. Sources:
 * <ul>
 *   <li>{@code undeclared}: no policy, takes both application-wide settings;</li>
 *   <li>{@code plain}: a plain {@code AutoOffsetReset.latest()}, takes the application-wide new-partitions policy;</li>
 *   <li>{@code override}: {@code NewPartitionsReset.latest().withNewPartitionsResetPolicy(latest())}, its own wins;</li>
 *   <li>{@code duration}: new partitions {@code byDuration(1h)}, reads the records of the last hour.</li>
 * </ul>
 * Every source grows from 1 to 2 partitions while the app is stopped. Two stream threads: two main
 * consumers, each with its own view of the one group baseline.
 */
@EmbeddedKafkaTest
class GaplessStreamsPolicyPrecedenceIT {
    private static final int PER_PARTITION = 5;
    private static final Function<String, String> STRIP = v -> v.substring("out:".length());

    @ParameterizedTest(name = "group.protocol={0}")
    @ValueSource(strings = {"classic", "streams"})
    void perSourcePolicyWinsOverTheApplicationWideSetting(String protocol, EmbeddedKafka kafka) {
        String suffix = TestTopics.unique("");
        Map<String, String> topics = Map.of("undeclared", "undeclared" + suffix, "plain", "plain" + suffix,
                "override", "override" + suffix, "duration", "duration" + suffix);
        topics.values().forEach(t -> kafka.createTopic(t, 1));
        String out = "precedence-out" + suffix;
        kafka.createTopic(out, 1);
        String app = "precedence-app" + suffix;

        try (StreamsHarness h = new StreamsHarness(kafka); StreamsHarness.Output<String> output = h.output(out)) {
            KafkaStreams streams = GaplessStreams.create(topology(topics, out), props(h, app, protocol));
            h.start(streams);
            for (String t : topics.values()) {
                h.awaitReading(t, List.of(0), output, STRIP);
            }
            StreamsHarness.stop(streams);

            topics.values().forEach(t -> kafka.addPartitions(t, 2));
            Map<String, List<String>> written = topics.entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey,
                    e -> h.produce(e.getValue(), List.of(0, 1), PER_PARTITION, e.getKey() + "-stopped")));

            streams = GaplessStreams.create(topology(topics, out), props(h, app, protocol));
            h.start(streams);
            for (String t : topics.values()) {
                h.awaitReading(t, List.of(1), output, STRIP); // every added partition is being read
            }
            List<String> overrideNew = written.get("override").stream().filter(v -> v.contains("-p1-")).toList();
            List<String> overrideOld = written.get("override").stream().filter(v -> v.contains("-p0-")).toList();
            List<String> expected = new java.util.ArrayList<>(overrideOld);
            List.of("undeclared", "plain", "duration").forEach(k -> expected.addAll(written.get(k)));
            // Partitions 0 and 1 are different tasks: wait for what should come out, then check what must not.
            output.awaitUntil(r -> Set.copyOf(output.inputValues(STRIP)).containsAll(expected));
            Set<String> seen = Set.copyOf(output.inputValues(STRIP));
            assertTrue(seen.containsAll(written.get("undeclared")), "no policy: application-wide earliest for new partitions");
            assertTrue(seen.containsAll(written.get("plain")), "plain AutoOffsetReset: application-wide new-partitions policy");
            assertTrue(seen.containsAll(written.get("duration")), "byDuration(1h) for new partitions reads the last hour");
            assertTrue(seen.containsAll(overrideOld), "committed offsets resume on the old partition");
            // The marker on partition 1 came out after these records were written to it: they were skipped.
            assertEquals(0, overrideNew.stream().filter(seen::contains).count(),
                    "the source's own new-partitions policy (latest) wins over the application-wide earliest");
            StreamsHarness.stop(streams);
        }
    }

    private static Properties props(StreamsHarness h, String app, String protocol) {
        Properties p = h.streamsProps(app, protocol);
        p.put(org.apache.kafka.streams.StreamsConfig.NUM_STREAM_THREADS_CONFIG, 2); // two main consumers share the group baseline
        p.put("auto.offset.reset", "latest");
        p.put(GaplessConsumerConfig.AUTO_OFFSET_RESET_NEW_PARTITIONS_CONFIG, "earliest");
        return p;
    }

    private static GaplessTopology topology(Map<String, String> topics, String out) {
        GaplessTopology t = new GaplessTopology();
        StringDeserializer sd = new StringDeserializer();
        t.addSource("undeclared-source", sd, sd, topics.get("undeclared"));
        t.addSource(AutoOffsetReset.latest(), "plain-source", sd, sd, topics.get("plain"));
        t.addSource(NewPartitionsReset.latest().withNewPartitionsResetPolicy(AutoOffsetReset.latest()), "override-source", sd, sd,
                topics.get("override"));
        t.addSource(NewPartitionsReset.latest().withNewPartitionsResetPolicy(AutoOffsetReset.byDuration(Duration.ofHours(1))),
                "duration-source", sd, sd, topics.get("duration"));
        t.addProcessor("map", Prefix::new, "undeclared-source", "plain-source", "override-source", "duration-source");
        t.addSink("sink", out, new StringSerializer(), new StringSerializer(), "map");
        return t;
    }

    /** Forwards every record with its value prefixed by {@code out:}. */
    private static final class Prefix implements Processor<String, String, String, String> {
        private ProcessorContext<String, String> context;

        @Override
        public void init(ProcessorContext<String, String> context) {
            this.context = context;
        }

        @Override
        public void process(Record<String, String> record) {
            context.forward(record.withValue("out:" + record.value()));
        }
    }
}
