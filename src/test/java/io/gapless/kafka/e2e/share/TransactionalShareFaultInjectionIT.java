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
package io.gapless.kafka.e2e.share;

import io.gapless.kafka.share.GaplessShareConfig;
import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.EmbeddedKafkaTest;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * KIP-1289's crash points, lock expiry and member churn, on worker JVMs that are really killed:
 * each fault is injected at least {@value #REPETITIONS} times (more with {@code -Dgapless.soak=true})
 * with random timings while three workers copy an input topic to an output topic; afterwards every
 * input record must be in the read_committed output exactly once and the share group must have
 * acknowledged everything. The same run with {@code at-least-once} shows the duplicates that mode allows.
 */
@EmbeddedKafkaTest
class TransactionalShareFaultInjectionIT {
    private static final boolean SOAK = Boolean.getBoolean("gapless.soak");
    static final int REPETITIONS = 3;
    private static final int REPS = SOAK ? 50 : REPETITIONS;
    /** Independent, separately verified runs per fault ({@code -Dgapless.e2e.runs}, 3 in soak mode). */
    private static final int RUNS = Integer.getInteger("gapless.e2e.runs", SOAK ? 3 : 1);

    private final EmbeddedKafka kafka;

    TransactionalShareFaultInjectionIT(EmbeddedKafka kafka) {
        this.kafka = kafka;
    }

    @ParameterizedTest
    @EnumSource(Fault.class)
    @Timeout(value = 900, unit = TimeUnit.SECONDS)
    void everyRecordIsCommittedExactlyOnce(Fault fault) throws Exception {
        // -Dgapless.e2e.faults=A,B runs only those faults (for debugging one case).
        String only = System.getProperty("gapless.e2e.faults", "");
        Assumptions.assumeTrue(only.isBlank() || List.of(only.split(",")).contains(fault.name()), "not selected");
        for (int run = 1; run <= RUNS; run++) {
            long seed = System.nanoTime();
            FaultScenario.Result result = new FaultScenario(kafka, fault, GaplessShareConfig.FALLBACK_EMULATE, REPS, seed).run();
            String context = fault + " run " + run + " (seed " + seed + "): " + result;
            System.out.println("RESULT " + context);
            assertTrue(result.injected() >= REPS, "fault injected fewer than " + REPS + " times: " + context);
            assertEquals(java.util.List.of(), result.missing(), "records lost: " + context);
            assertEquals(java.util.Map.of(), result.duplicates(), "records committed twice: " + context);
            assertEquals(result.produced(), result.outputCounts().size(), context);
            assertTrue(result.allAcknowledged(), "share group did not acknowledge every record: " + context);
        }
    }

    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void atLeastOnceModeLosesNothingButDuplicatesAfterACrashBetweenCommitAndAcknowledgement() throws Exception {
        long seed = System.nanoTime();
        FaultScenario.Result result = new FaultScenario(kafka, Fault.CRASH_AFTER_COMMIT, GaplessShareConfig.FALLBACK_AT_LEAST_ONCE,
                REPS, seed).run();
        String context = "at-least-once (seed " + seed + "): " + result;
        System.out.println("RESULT " + context);
        assertTrue(result.injected() >= REPS, context);
        assertEquals(java.util.List.of(), result.missing(), "records lost: " + context);
        assertFalse(result.duplicates().isEmpty(), "at-least-once should show duplicates after commit-then-crash: " + context);
        assertTrue(result.allAcknowledged(), context);
    }
}
