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

import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.EmbeddedKafkaTest;
import io.gapless.kafka.testkit.TestTopics;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.AutoOffsetReset;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.kstream.Consumed;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What "new" means to a Streams application: a snapshot of the cluster taken when its group
 * started, not the moment the topology first reads a topic. A topology upgrade adds two sources:
 * one that already existed when the application started (pre-existing: base policy
 * {@code latest}, its history is skipped although the application never read it before) and one
 * created after the start (new: the new-partitions policy {@code earliest}, its history is read).
 */
@EmbeddedKafkaTest
class GaplessStreamsTopologyUpgradeIT {
    private static final int PER_PARTITION = 10;
    private static final Function<String, String> STRIP = v -> v.substring("out:".length());

    @Test
    void anUpgradeAddingATopicThatExistedAtTheStartSkipsItsHistoryOneCreatedLaterIsReadWhole(EmbeddedKafka kafka) {
        String first = TestTopics.unique("upg-first");
        String existing = TestTopics.unique("upg-existing");
        String later = TestTopics.unique("upg-later");
        String out = TestTopics.unique("upg-out");
        kafka.createTopic(first, 1);
        kafka.createTopic(existing, 1);
        kafka.createTopic(out, 1);
        String app = TestTopics.unique("upg-app");
        try (StreamsHarness h = new StreamsHarness(kafka); StreamsHarness.Output<String> output = h.output(out)) {
            List<String> existingHistory = h.produce(existing, List.of(0), PER_PARTITION, "existing-history");
            KafkaStreams v1 = app(h, app, out, first);
            h.start(v1);
            h.awaitReading(first, List.of(0), output, STRIP);
            StreamsHarness.stop(v1);

            kafka.createTopic(later, 1);
            List<String> laterHistory = h.produce(later, List.of(0), PER_PARTITION, "later-history");
            KafkaStreams v2 = app(h, app, out, first, existing, later);
            h.start(v2);
            h.awaitReading(existing, List.of(0), output, STRIP);
            h.awaitReading(later, List.of(0), output, STRIP);
            output.awaitUntil(r -> output.inputValues(STRIP).containsAll(laterHistory));
            output.drain(Duration.ofMillis(500));
            List<String> seen = output.inputValues(STRIP);
            assertEquals(PER_PARTITION, seen.stream().filter(laterHistory::contains).count(),
                    "the topic created after the application started is new: its history is read by the new-partitions policy");
            assertTrue(seen.stream().noneMatch(existingHistory::contains),
                    "the topic that existed when the application started is pre-existing: base policy latest skips its history: " + seen);
            StreamsHarness.stop(v2);
        }
    }

    private static KafkaStreams app(StreamsHarness h, String app, String out, String... sources) {
        GaplessStreamsBuilder b = new GaplessStreamsBuilder();
        for (String source : sources) {
            b.stream(source, Consumed.with(Serdes.String(), Serdes.String())
                            .withOffsetResetPolicy(NewPartitionsReset.latest().withNewPartitionsResetPolicy(AutoOffsetReset.earliest())))
                    .mapValues(v -> "out:" + v).to(out);
        }
        Properties props = h.streamsProps(app, "classic");
        return GaplessStreams.create(b, props);
    }
}
