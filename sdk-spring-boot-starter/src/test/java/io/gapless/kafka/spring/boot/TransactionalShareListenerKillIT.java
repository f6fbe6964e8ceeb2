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
package io.gapless.kafka.spring.boot;

import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.EmbeddedKafkaTest;
import io.gapless.kafka.testkit.TestTopics;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The container-managed transactional share listener under the kill test of the SDK's own loop:
 * worker JVMs (Boot applications, {@link TransactionalShareWorker}) SIGKILLed at random points of
 * their progress and restarted with a fresh {@code transactional.id}: every input appears exactly
 * once in the {@code read_committed} output and the share group ends fully acknowledged. The
 * default run kills three times; {@code -Dgapless.soak=true} kills fifteen times over ten times the
 * records.
 */
@EmbeddedKafkaTest
class TransactionalShareListenerKillIT {
    private static final boolean SOAK = Boolean.getBoolean("gapless.soak");
    private static final int RECORDS = SOAK ? 3000 : 300;
    private static final int KILLS = SOAK ? 15 : 3;
    private static final int WORKERS = 2;
    private static final Duration WAIT = Duration.ofSeconds(SOAK ? 600 : 150);

    @Test
    void everyInputExactlyOnceInTheReadCommittedOutputWhileWorkersAreKilled(EmbeddedKafka kafka) throws Exception {
        assumeTrue(kafka.security().isEmpty(), "the worker JVMs connect in plaintext");
        String input = TestTopics.unique("boot-kill-in");
        String output = input + "-enriched";
        String group = TestTopics.unique("boot-kill");
        kafka.createTopic(input, 3);
        kafka.createTopic(output, 1);
        List<String> written = IntStream.range(0, RECORDS).mapToObj(i -> "payment-" + i).toList();
        TransactionalShareListenerIT.produce(kafka, input, written);
        TransactionalShareListenerIT.prepareGroup(kafka, group);
        Path logs = Files.createDirectories(Path.of("target", "kill-workers"));
        Random random = new Random();
        long seed = random.nextLong();
        random.setSeed(seed);
        List<Worker> workers = new ArrayList<>();
        int[] incarnation = {0};
        try {
            for (int slot = 0; slot < WORKERS; slot++) {
                workers.add(startWorker(kafka, input, output, group, slot, incarnation[0]++, logs));
            }
            for (int kill = 0; kill < KILLS; kill++) {
                int slot = random.nextInt(WORKERS);
                Worker victim = workers.get(slot);
                await("worker " + slot + " serving before it is killed").atMost(WAIT).pollInterval(Duration.ofMillis(200))
                        .until(victim::started);
                // Killed mid-stream: once the output has grown by a random step after the victim started serving.
                int before = TransactionalShareListenerIT.committedValues(kafka, output).size();
                int step = 10 + random.nextInt(RECORDS / (KILLS + 2));
                await("output to grow by " + step + " before kill " + (kill + 1) + " (seed " + seed + ")").atMost(WAIT)
                        .pollInterval(Duration.ofMillis(200))
                        .until(() -> TransactionalShareListenerIT.committedValues(kafka, output).size() >= Math.min(RECORDS, before + step));
                victim.process().destroyForcibly().waitFor();   // SIGKILL
                workers.set(slot, startWorker(kafka, input, output, group, slot, incarnation[0]++, logs));
            }
            List<String> expected = written.stream().map(v -> v + " enriched").sorted().toList();
            await("every input in the read_committed output (seed " + seed + ")").atMost(WAIT).pollInterval(Duration.ofMillis(500))
                    .until(() -> TransactionalShareListenerIT.committedValues(kafka, output).size() >= expected.size());
            await("the share group fully acknowledged").atMost(WAIT).pollInterval(Duration.ofMillis(500)).ignoreExceptions()
                    .until(() -> TransactionalShareListenerIT.fullyAcknowledged(kafka, group, input));
            List<String> committed = new ArrayList<>(TransactionalShareListenerIT.committedValues(kafka, output));
            committed.sort(null);
            assertEquals(expected, committed, "every input exactly once in the read_committed output after " + KILLS
                    + " SIGKILLs (seed " + seed + ")");
        } finally {
            workers.forEach(w -> w.process().destroyForcibly());
        }
    }

    /** One worker JVM and its log; {@code started} once its listener containers run. */
    private record Worker(Process process, Path log) {
        boolean started() throws IOException {
            return Files.exists(log) && Files.readString(log).contains("EVENT started");
        }
    }

    private static Worker startWorker(EmbeddedKafka kafka, String input, String output, String group, int slot, int incarnation,
                                      Path logs) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "-Xmx160m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                TransactionalShareWorker.class.getName(),
                kafka.bootstrapServers(), input, output, group, "w" + slot + "-" + incarnation + "-"));
        Path log = logs.resolve(group + "-worker-" + slot + "-" + incarnation + ".log");
        return new Worker(new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start(), log);
    }
}
