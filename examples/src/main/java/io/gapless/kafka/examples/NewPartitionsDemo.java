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

import io.gapless.kafka.core.GaplessConsumer;
import io.gapless.kafka.testkit.EmbeddedKafka;
import org.apache.kafka.clients.consumer.KafkaConsumer;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The loss KIP-1327 describes, on a real broker started inside this JVM: a consumer group with
 * {@code auto.offset.reset=latest} on a 2-partition topic, the topic grown to 4, 1000 records
 * written over all 4 partitions at once. Prints a table of records produced, seen and lost, for
 * Kafka's own consumer and for {@link GaplessConsumer} with {@code auto.offset.reset.new.partitions=earliest},
 * on both group protocols.
 *
 * <p>Run it with {@code mvn -B -q -pl examples -am package -DskipTests exec:java}.
 */
public final class NewPartitionsDemo {
    private NewPartitionsDemo() {
    }

    public static void main(String[] args) {
        PrintStream out = System.out;
        List<ExpansionResult> results = new ArrayList<>();
        try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
            out.println("Embedded Kafka 4.4 broker at " + kafka.bootstrapServers());
            out.println("Topic with 2 partitions, group positioned with auto.offset.reset=latest, topic grown to 4,");
            out.println("then 1000 records written over all 4 partitions at once.");
            out.println();
            ExpansionScenario scenario = new ExpansionScenario(kafka, 2, 4, 1000);
            Map<String, String> gapless = Map.of("auto.offset.reset.new.partitions", "earliest");
            for (String protocol : new String[] {"classic", "consumer"}) {
                results.add(scenario.run("KafkaConsumer, latest (" + protocol + ")", protocol, Map.of(), KafkaConsumer::new));
                results.add(scenario.run("GaplessConsumer, latest + new earliest (" + protocol + ")", protocol, gapless,
                        GaplessConsumer::new));
            }
        }
        results.forEach(r -> r.print(out));
        out.flush();
    }
}
