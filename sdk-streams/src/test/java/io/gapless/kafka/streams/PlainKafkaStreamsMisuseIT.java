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
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.apache.kafka.streams.kstream.Consumed;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The SDK's types used without its entry point. A {@link NewPartitionsReset} with a new-partitions
 * policy in a plain {@code StreamsBuilder} fails the stream thread instead of resetting by its base
 * policy (which would lose the records of new partitions silently). A topology from
 * {@link GaplessStreamsBuilder} started with plain {@code KafkaStreams} replays rather than loses.
 */
@EmbeddedKafkaTest
class PlainKafkaStreamsMisuseIT {

    @Test
    void aNewPartitionsPolicyInAPlainStreamsBuilderFailsTheThread(EmbeddedKafka kafka) {
        String in = TestTopics.unique("misuse-in");
        String out = TestTopics.unique("misuse-out");
        kafka.createTopic(in, 1);
        kafka.createTopic(out, 1);
        try (StreamsHarness h = new StreamsHarness(kafka)) {
            StreamsBuilder builder = new StreamsBuilder();
            builder.stream(in, Consumed.with(Serdes.String(), Serdes.String())
                            .withOffsetResetPolicy(NewPartitionsReset.latest().withNewPartitionsResetPolicy(AutoOffsetReset.earliest())))
                    .to(out);
            Properties props = h.streamsProps(TestTopics.unique("misuse-plain"), "classic");
            KafkaStreams streams = new KafkaStreams(builder.build(), props);
            List<Throwable> deaths = new CopyOnWriteArrayList<>();
            streams.setUncaughtExceptionHandler(e -> {
                deaths.add(e);
                return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
            });
            streams.start();
            try {
                await().atMost(StreamsHarness.WAIT).until(() -> !deaths.isEmpty());
                String message = deaths.get(0).getMessage() + " / " + deaths.get(0).getCause();
                assertTrue(message.contains("No valid committed offset found for input [" + in + "]"), message);
            } finally {
                StreamsHarness.stop(streams);
            }
        }
    }

    @Test
    void aGaplessTopologyInPlainKafkaStreamsReplaysInsteadOfLosing(EmbeddedKafka kafka) {
        String in = TestTopics.unique("misuse-in");
        String out = TestTopics.unique("misuse-out");
        kafka.createTopic(in, 1);
        kafka.createTopic(out, 1);
        try (StreamsHarness h = new StreamsHarness(kafka);
             StreamsHarness.Output<String> output = h.output(out)) {
            List<String> before = h.produce(in, List.of(0), 5, "before");
            GaplessStreamsBuilder builder = new GaplessStreamsBuilder();
            builder.<String, String>stream(in).to(out);
            Properties props = h.streamsProps(TestTopics.unique("misuse-gapless"), "classic"); // auto.offset.reset=latest
            KafkaStreams streams = new KafkaStreams(builder.build(), props);
            h.start(streams);
            try {
                output.awaitUntil(r -> output.inputValues(v -> v).containsAll(before));
            } finally {
                StreamsHarness.stop(streams);
            }
        }
    }
}
