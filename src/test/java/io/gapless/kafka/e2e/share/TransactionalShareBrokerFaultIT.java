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

import io.gapless.kafka.testkit.EmbeddedKafka;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Transactional share acknowledgements under broker faults (issue 12's fault suite): a three-node
 * cluster with every broker in its own JVM, three worker JVMs on an input topic of three
 * partitions, REJECT mixed with ACCEPT, share.delivery.count.limit=4, a fresh transactional.id per
 * worker incarnation. {@link ClusterFaultScenario.Kind}: the leaders of the input, output, ledger,
 * {@code __transaction_state} and {@code __share_group_state} partitions SIGKILLed while a worker
 * holds an open transaction with its ledger entry written; a halt at every step of the commit
 * (EndTxn sent to a frozen coordinator included, during a snapshot and its deleteRecords); a lock
 * expiry after the ledger entry was written. Each run is checked as a user would: every accepted
 * input exactly once in the read_committed output, no REJECTed one in it, the group fully
 * acknowledged, no record archived by the delivery limit. More injections and runs with
 * {@code -Dgapless.soak=true} (three times the injections, three runs) or {@code -Dgapless.e2e.runs=N};
 * {@code -Dgapless.e2e.faults=HALTS,...} selects kinds.
 */
class TransactionalShareBrokerFaultIT {
    private static final boolean SOAK = Boolean.getBoolean("gapless.soak");
    private static final int RUNS = Integer.getInteger("gapless.e2e.runs", SOAK ? 3 : 1);
    private static EmbeddedKafka kafka;

    @BeforeAll
    static void start() {
        kafka = EmbeddedKafka.builder().nodes(3).childProcesses(true).start();
    }

    @AfterAll
    static void stop() {
        kafka.close();
    }

    private static int repetitions(ClusterFaultScenario.Kind kind) {
        int once = switch (kind) {
            case LEADER_KILLS -> 2;  // and until every target partition's leader was killed once
            case HALTS -> ClusterFaultScenario.HALT_POINTS.size();
            case LOCK_EXPIRY_AFTER_ENTRY -> 2;
        };
        return SOAK ? 3 * once : once;
    }

    @ParameterizedTest
    @EnumSource(ClusterFaultScenario.Kind.class)
    @Timeout(value = 1200, unit = TimeUnit.SECONDS)
    void everyAcceptedRecordIsCommittedExactlyOnce(ClusterFaultScenario.Kind kind) throws Exception {
        String only = System.getProperty("gapless.e2e.faults", "");
        Assumptions.assumeTrue(only.isBlank() || List.of(only.split(",")).contains(kind.name()), "not selected");
        int reps = repetitions(kind);
        for (int run = 1; run <= RUNS; run++) {
            long seed = System.nanoTime();
            ClusterFaultScenario.Result result = new ClusterFaultScenario(kafka, kind, reps, seed).run();
            String context = kind + " run " + run + " (seed " + seed + "): " + result;
            System.out.println("RESULT " + context);
            assertTrue(result.injected() >= reps, "fault injected fewer than " + reps + " times: " + context);
            assertEquals(List.of(), result.leadersNotKilled(), "partitions whose leader was never killed: " + context);
            assertEquals(List.of(), result.missing(), "records lost: " + context);
            assertEquals(Map.of(), result.duplicates(), "records committed twice, or REJECTed ones committed: " + context);
            assertTrue(result.allAcknowledged(), "share group did not acknowledge every record: " + context);
            assertEquals(0, result.archived(), "records archived by the delivery limit without output: " + context);
        }
    }
}
