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
package io.gapless.kafka.examples;

import io.gapless.kafka.examples.streams.StreamsAppRun;
import io.gapless.kafka.streams.GaplessStreams;
import io.gapless.kafka.streams.GaplessStreamsBuilder;
import io.gapless.kafka.streams.NewPartitionsReset;
import io.gapless.kafka.testkit.EmbeddedKafka;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.AutoOffsetReset;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;

import java.io.PrintStream;

/**
 * KIP-1327 for Kafka Streams, on a broker started inside this JVM: two copies of the same Streams
 * app (a map) read a 2-partition topic with {@code auto.offset.reset=latest}; one runs on plain
 * Kafka Streams, the other through Gapless with
 * {@code NewPartitionsReset.latest().withNewPartitionsResetPolicy(AutoOffsetReset.earliest())}.
 * Both topics grow to 4 partitions while the apps run, and to 6 while they are stopped; each time
 * 100 records are written to every partition at once. Prints records produced, seen and lost per
 * partition. How much plain Streams loses on the partitions added while it runs depends on when
 * its metadata refresh finds them (usually all of it); the partitions added while it is stopped
 * are always lost.
 *
 * <p>Run it with {@code mvn -B -q -pl examples -am package -DskipTests exec:java
 * -Ddemo.mainClass=io.gapless.kafka.examples.StreamsNewPartitionsDemo}.
 */
public final class StreamsNewPartitionsDemo {
    private static final int OLD = 2;
    private static final int RUNNING = 4;
    private static final int STOPPED = 6;
    private static final int PER_PARTITION = 100;

    private StreamsNewPartitionsDemo() {
    }

    public static void main(String[] args) {
        PrintStream out = System.out;
        try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
            out.println("Embedded Kafka 4.4 broker at " + kafka.bootstrapServers());
            out.println("Two copies of one Kafka Streams app (map), auto.offset.reset=latest, on 2-partition topics;");
            out.println("the topics grow to 4 partitions while the apps run and to 6 while they are stopped;");
            out.println("each time " + PER_PARTITION + " records go to every partition.");
            out.println();
            try (StreamsAppRun plain = new StreamsAppRun("Kafka Streams, latest", kafka, "demo-plain", OLD,
                    (props, topics) -> {
                        StreamsBuilder b = new StreamsBuilder();
                        b.stream(topics[0], Consumed.with(Serdes.String(), Serdes.String())
                                .withOffsetResetPolicy(AutoOffsetReset.latest())).mapValues(v -> v).to(topics[1]);
                        return new KafkaStreams(b.build(props), props);
                    });
                 StreamsAppRun gapless = new StreamsAppRun("Gapless Streams, latest + new partitions earliest", kafka,
                         "demo-gapless", OLD, (props, topics) -> {
                             GaplessStreamsBuilder b = new GaplessStreamsBuilder();
                             b.stream(topics[0], Consumed.with(Serdes.String(), Serdes.String())
                                     .withOffsetResetPolicy(NewPartitionsReset.latest()
                                             .withNewPartitionsResetPolicy(AutoOffsetReset.earliest())))
                                     .mapValues(v -> v).to(topics[1]);
                             return GaplessStreams.create(b, props);
                         })) {
                plain.start(OLD);
                gapless.start(OLD);

                // Grown while running: plain Streams finds the partitions at its next metadata refresh and starts them at the end.
                kafka.addPartitions(plain.input(), RUNNING);
                kafka.addPartitions(gapless.input(), RUNNING);
                plain.produce(0, RUNNING, PER_PARTITION);
                gapless.produce(0, RUNNING, PER_PARTITION);
                gapless.awaitComplete(0, RUNNING);
                boolean plainReads = plain.awaitReading(OLD, RUNNING); // once it reads them, what it missed there is lost
                plain.awaitComplete(0, OLD);

                // Grown while stopped: plain Streams starts the added partitions at the end when it comes back.
                plain.stop();
                gapless.stop();
                kafka.addPartitions(plain.input(), STOPPED);
                kafka.addPartitions(gapless.input(), STOPPED);
                plain.produce(0, STOPPED, PER_PARTITION);
                gapless.produce(0, STOPPED, PER_PARTITION);
                plain.restart();
                gapless.restart();
                gapless.awaitComplete(0, STOPPED);
                plainReads &= plain.awaitReading(0, STOPPED);
                plain.awaitComplete(0, OLD);

                String[] when = {"existed at start", "existed at start", "added while running", "added while running",
                        "added while stopped", "added while stopped"};
                plain.print(out, when);
                gapless.print(out, when);
                if (!plainReads) {
                    out.println("(plain Kafka Streams had not started reading every added partition within the deadline)");
                }
                out.printf("Records lost: Kafka Streams %d, Gapless %d%n", plain.lost(), gapless.lost());
            }
        }
        out.flush();
    }
}
