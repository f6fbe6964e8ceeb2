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
package io.gapless.kafka.core;

import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.KafkaNode;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 23's differential tester ({@link DifferentialTester}) on a cluster of three brokers:
 * random sequences of {@code Consumer} calls and cluster events, in lock-step on a plain
 * {@link KafkaConsumer} and a {@link GaplessConsumer}, on both group protocols. The SDK may
 * differ only where KIP-1327 says it must.
 *
 * <p>{@code mvn verify} runs one sequence per protocol with a fresh seed; {@code -Dgapless.soak=true}
 * runs {@value #SOAK_SEQUENCES} per protocol; {@code -Dgapless.diff.seed=N} replays one (its
 * protocol is the seed's parity). A failure names the seed and every step.
 */
class DifferentialExplorationIT {
    private static final Logger log = LoggerFactory.getLogger(DifferentialExplorationIT.class);
    static final int SOAK_SEQUENCES = 15;
    private static final int STEPS = 20;
    private static final int SOAK_STEPS = 30;
    /** Kept seeds: group.protocol=consumer, assign (odd); group.protocol=classic, assign (even). */
    static final long STALL_SEED_CONSUMER = 135;
    static final long STALL_SEED_CLASSIC = 988;

    /** Kept seed: group.protocol=classic, subscribe, base latest, new partitions earliest; offsets of a topic with an added partition deleted. */
    static final long DELETED_OFFSETS_SEED = 322414;

    private static EmbeddedKafka kafka;

    @BeforeAll
    static void start() {
        // No auto-creation: a consumer's metadata request would re-create a deleted topic before the step does.
        kafka = EmbeddedKafka.builder().nodes(3).controllers(1).brokerProperty("auto.create.topics.enable", "false").start();
    }

    @AfterAll
    static void stop() {
        kafka.close();
    }

    @AfterEach
    void restartStopped() {
        kafka.nodes().stream().filter(n -> !n.isRunning()).forEach(KafkaNode::start);
    }

    @ParameterizedTest(name = "group.protocol={0}")
    @ValueSource(strings = {"classic", "consumer"})
    void theSdkDiffersFromPlainKafkaOnlyWhereKip1327Says(String protocol) throws Exception {
        long parity = protocol.equals("classic") ? 0 : 1;
        DifferentialTester tester = new DifferentialTester(kafka, GaplessConsumer::new, DifferentialTester.Rule.KIP_1327);
        String fixed = System.getProperty("gapless.diff.seed");
        if (fixed != null) {
            // One seed or several (comma-separated); each runs under the protocol of its parity.
            List<String> failures = new ArrayList<>();
            for (String s : fixed.split(",")) {
                long seed = Long.parseLong(s.trim());
                if ((seed & 1) != parity) {
                    continue;
                }
                try {
                    log.info("{}", tester.run(DiffPlan.of(seed, Integer.getInteger("gapless.diff.steps", SOAK_STEPS))));
                } catch (AssertionError e) {
                    log.error("Seed {} failed: {}", seed, e.getMessage());
                    failures.add(e.getMessage());
                }
            }
            assertTrue(failures.isEmpty(), String.join("\n\n", failures));
            return;
        }
        boolean soak = Boolean.getBoolean("gapless.soak");
        long base = System.nanoTime();
        for (int i = 0; i < (soak ? SOAK_SEQUENCES : 1); i++) {
            long seed = ((base + i * 7919L) & ~1L) | parity;
            log.info("{}", tester.run(DiffPlan.of(seed, soak ? SOAK_STEPS : STEPS)));
        }
    }

    /**
     * The tester can fail: with issue 23 finding 1's all-or-nothing positioning put back
     * ({@link AllOrNothingPositioning}), these kept seeds (a partition is added on a broker that
     * then stops, the other partitions get records, both consumers poll; 135 also failed on the
     * pre-fix commit itself, sdk-core/RATIONALE.md) report that the SDK delivered less than plain Kafka.
     */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {STALL_SEED_CONSUMER, STALL_SEED_CLASSIC})
    void theTesterReportsTheOldAllOrNothingStall(long seed) {
        DifferentialTester tester = new DifferentialTester(kafka, p -> new AllOrNothingPositioning<>(new GaplessConsumer<>(p)),
                DifferentialTester.Rule.KIP_1327);
        AssertionError e = assertThrows(AssertionError.class, () -> tester.run(DiffPlan.of(seed, STEPS)));
        log.info("As expected, the tester reported: {}", e.getMessage());
        assertTrue(e.getMessage().contains("the SDK delivered less"), e.getMessage());
    }

    /**
     * Issue 23 finding 4 (offsets deleted for one topic, its added partitions' history read again)
     * is what KIP-1327 prescribes, so the tester accepts it (the group's creation time is
     * write-once; sdk-core/RATIONALE.md). Under the rule the issue proposed instead (a topic whose
     * every committed offset is gone is seen anew) the same sequence is a difference: this kept
     * seed (partition added, records, commit, the topic's offsets deleted, restart, poll) reports
     * the replay.
     */
    @Test
    @Disabled("no kept seed yet: since the tester waits for the rebalance after a partition is added, seed 322414's added"
            + " partition gets no records before its offsets are deleted, so there is no history to replay; a seed that writes"
            + " to the added partition is still to be found (DiffPlan draws such sequences rarely)")
    void theTesterReportsFinding4UnderTheSeenAnewRule() {
        DifferentialTester tester = new DifferentialTester(kafka, GaplessConsumer::new, DifferentialTester.Rule.TOPIC_WITHOUT_OFFSETS_SEEN_ANEW);
        AssertionError e = assertThrows(AssertionError.class, () -> tester.run(DiffPlan.of(DELETED_OFFSETS_SEED, STEPS)));
        log.info("As expected, the tester reported: {}", e.getMessage());
        assertTrue(e.getMessage().contains("the SDK replayed"), e.getMessage());
    }
}
