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

import io.gapless.kafka.examples.spring.SpringDemoResult;
import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.EmbeddedKafkaTest;
import org.junit.jupiter.api.Test;

import java.util.HashSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The Spring demo's printed rows, as assertions. */
@EmbeddedKafkaTest
class SpringKafkaDemoIT {

    @Test
    void springsOwnFactoryLosesAddedPartitionsTheGaplessFactoryNoneAndEveryPaymentIsEnrichedOnce(EmbeddedKafka kafka) throws Exception {
        SpringDemoResult r = SpringKafkaDemo.run(kafka);
        r.print(System.out);

        assertEquals(100, r.lostOnPartitionsAddedWhileStopped(r.plainSeen()),
                "Spring's factory with latest loses every record written to partitions added while stopped");
        for (int p = 0; p < 6; p++) {
            assertEquals(0, r.lost(r.gaplessSeen(), p), "Gapless loses nothing on partition " + p);
        }
        assertEquals(0, r.historyReplayed(r.gaplessSeen()), "no record older than the group");
        assertEquals(0, r.gaplessDuplicates());

        assertEquals(r.payments(), new HashSet<>(r.enriched()).size(), "every payment enriched: " + r.enriched());
        assertEquals(0, r.enrichedDuplicates(), "none twice: " + r.enriched());
        assertTrue(r.paymentsAcknowledged(), "the share group acknowledged every payment");
    }
}
