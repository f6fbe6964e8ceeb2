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
import io.gapless.kafka.testkit.EmbeddedKafkaTest;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The demo's two rows, as assertions: plain latest loses the added partitions' records, the SDK none. */
@EmbeddedKafkaTest
class ExpansionScenarioIT {

    @Test
    void plainLatestLosesEveryRecordOnAddedPartitionsAndGaplessLosesNone(EmbeddedKafka kafka) {
        ExpansionScenario scenario = new ExpansionScenario(kafka, 2, 4, 1000);
        ExpansionResult plain = scenario.run("plain", "classic", Map.of(), KafkaConsumer::new);
        ExpansionResult gapless = scenario.run("gapless", "classic",
                Map.of("auto.offset.reset.new.partitions", "earliest"), GaplessConsumer::new);

        assertEquals(500, plain.producedOnNewPartitions());
        assertEquals(500, plain.lostOnNewPartitions(), "the loss KIP-1327 describes");
        assertEquals(0, plain.lost() - plain.lostOnNewPartitions(), "old partitions lose nothing");

        assertEquals(0, gapless.lost(), "nothing lost anywhere");
        assertEquals(0, gapless.historyReplayedCount(), "no record older than the group replayed");
        assertEquals(0, gapless.duplicates());
    }
}
