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

import io.gapless.kafka.examples.boot.GaplessBootDemo;
import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.EmbeddedKafkaTest;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The Boot demo on the embedded broker: what it prints, as assertions. */
@EmbeddedKafkaTest
class GaplessBootDemoIT {

    @Test
    void bootGetsGaplessFactoriesNothingIsLostOnAddedPartitionsAndEveryGoodPaymentIsEnrichedOnce(EmbeddedKafka kafka) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            GaplessBootDemo.run(kafka, out);
        }
        String printed = bytes.toString(StandardCharsets.UTF_8);
        System.out.print(printed);
        List<String> lines = printed.lines().toList();
        assertTrue(lines.contains("Boot's consumer factory: io.gapless.kafka.spring.GaplessKafkaConsumerFactory"), printed);
        assertTrue(lines.contains("Orders written to the added partitions before the group met them, received: "
                + "[on-added-partition-2, on-added-partition-3]"), printed);
        assertTrue(lines.contains("payments: 20 good + 1 poison; read_committed enriched output: 20 records, 20 distinct; poison output: 0"),
                printed);
        List<String> health = lines.stream().filter(l -> l.startsWith("gapless health: ")).toList();
        assertEquals(1, health.size(), printed);
        assertTrue(health.get(0).contains("UP"), health.get(0));
    }
}
