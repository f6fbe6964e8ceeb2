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
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An application that ran on plain Kafka Streams (committed offsets, no baseline) switches to
 * Gapless. KIP-1327's upgrade rule: every partition that exists when it adopts the SDK is
 * pre-existing (base policy); partitions added afterwards are new.
 */
@EmbeddedKafkaTest
class GaplessStreamsAdoptionIT {
    private static final Function<String, String> STRIP = v -> v.substring("out:".length());

    @ParameterizedTest(name = "group.protocol={0}")
    @ValueSource(strings = {"classic", "streams"})
    void partitionsExistingAtAdoptionArePreExistingLaterOnesNew(String protocol, EmbeddedKafka kafka) {
        String in = TestTopics.unique("adopt-in");
        String out = TestTopics.unique("adopt-out");
        String app = TestTopics.unique("adopt-app");
        kafka.createTopic(in, 2);
        kafka.createTopic(out, 1);
        try (StreamsHarness h = new StreamsHarness(kafka); StreamsHarness.Output<String> output = h.output(out)) {
            StreamsBuilder plainBuilder = new StreamsBuilder();
            plainBuilder.<String, String>stream(in).mapValues(v -> "out:" + v).to(out);
            Properties plainProps = h.streamsProps(app, protocol);
            KafkaStreams plain = new KafkaStreams(plainBuilder.build(plainProps), plainProps);
            h.start(plain);
            h.awaitReading(in, List.of(0, 1), output, STRIP); // commits offsets on both partitions
            StreamsHarness.stop(plain);

            kafka.addPartitions(in, 3);
            List<String> before = h.produce(in, List.of(0, 1, 2), 5, "before");

            GaplessStreamsBuilder b = new GaplessStreamsBuilder();
            b.<String, String>stream(in).mapValues(v -> "out:" + v).to(out);
            Properties props = h.streamsProps(app, protocol);
            props.put(GaplessConsumerConfig.AUTO_OFFSET_RESET_NEW_PARTITIONS_CONFIG, "earliest");
            KafkaStreams gapless = GaplessStreams.create(b, props);
            h.start(gapless);
            h.awaitReading(in, List.of(0, 1, 2), output, STRIP);

            kafka.addPartitions(in, 4);
            List<String> after = h.produce(in, List.of(3), 5, "after");
            output.awaitUntil(r -> Set.copyOf(output.inputValues(STRIP)).containsAll(after));

            Set<String> seen = Set.copyOf(output.inputValues(STRIP));
            assertTrue(before.stream().filter(v -> !v.contains("-p2-")).allMatch(seen::contains),
                    "committed offsets resume on the partitions the plain app had");
            assertTrue(before.stream().filter(v -> v.contains("-p2-")).noneMatch(seen::contains),
                    "a partition that existed when the app adopted the SDK is pre-existing: base policy latest");
            assertTrue(seen.containsAll(after), "a partition added after adoption is new: earliest");
            StreamsHarness.stop(gapless);
        }
    }
}
