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
package io.gapless.kafka.cli;

import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.EmbeddedKafkaTest;
import io.gapless.kafka.testkit.TestTopics;
import io.gapless.kafka.share.ledger.SyntheticLedger;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The shaded jar as an operator runs it: {@code java -jar gapless-cli.jar ...} in its own JVM, with its real exit code. */
@EmbeddedKafkaTest
class GaplessCliJarIT {
    private static final Path JAR = Path.of(System.getProperty("gapless.cli.jar", "target/gapless-cli.jar"));
    private final EmbeddedKafka kafka;

    GaplessCliJarIT(EmbeddedKafka kafka) {
        this.kafka = kafka;
    }

    private static Cli.Result java(String... args) throws IOException, InterruptedException {
        return javaWithHeap("256m", args);
    }

    private static Cli.Result javaWithHeap(String heap, String... args) throws IOException, InterruptedException {
        assertTrue(Files.isRegularFile(JAR), JAR.toAbsolutePath() + " is built by the package phase");
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx" + heap,
                "-jar", JAR.toString()));
        command.addAll(List.of(args));
        Path out = Files.createTempFile("gapless-cli", ".out");
        Path err = Files.createTempFile("gapless-cli", ".err");
        Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("java -jar " + String.join(" ", args) + " did not end within 120 s");
        }
        Cli.Result r = new Cli.Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
        Files.delete(out);
        Files.delete(err);
        return r;
    }

    @Test
    void theJarRunsWithEverythingItNeeds() throws Exception {
        Cli.Result version = java("--version");
        assertEquals(0, version.code(), version.toString());
        assertTrue(version.out().startsWith("gapless 0.1.0") && version.out().contains("kafka-clients 4.4.0"), version.toString());

        Cli.Result probe = java("probe", "--bootstrap-server", kafka.bootstrapServers());
        assertEquals(0, probe.code(), probe.toString());
        assertTrue(probe.out().contains("KIP-1327 Kafka Streams, group.protocol=streams"), "Kafka Streams' decision loads from the jar: " + probe);
        assertTrue(probe.out().contains("KIP-1289 transactional share acknowledgements"), probe.toString());
    }

    @Test
    void failuresExitWithOneAndSayWhyOnStderr() throws Exception {
        Cli.Result unreachable = java("share-settings", "describe", "g", "--bootstrap-server", Cli.unreachable(), "--timeout", "1000");
        assertEquals(1, unreachable.code(), unreachable.toString());
        assertTrue(unreachable.err().contains("Error: Timed out"), unreachable.toString());
        assertEquals("", unreachable.out());

        Cli.Result usage = java("ledger", "status");
        assertEquals(1, usage.code(), usage.toString());
        assertTrue(usage.err().contains("Usage: gapless ledger status"), usage.toString());
    }

    /**
     * {@code ledger dump} and {@code ledger status} stream the ledger: a ledger far larger than the
     * tool's heap holds in decoded form is listed and counted in a small heap, within --timeout.
     * The default size keeps {@code mvn verify} short; -Dgapless.soak=true measures a large one.
     */
    @Test
    void ledgerDumpAndStatusOfALargeLedgerRunInASmallHeap() throws Exception {
        boolean soak = Boolean.getBoolean("gapless.soak");
        int entries = soak ? 1_000_000 : 60_000;
        // The committed view's index (compact runs, about 31 bytes per entry since the last snapshot, as the group's
        // producers hold it) is what remains; this ledger has no snapshot, so the soak's million entries need more.
        String heap = soak ? "128m" : "32m";
        String group = TestTopics.unique("jar-large-ledger");
        String ledger = "__gapless_ledger." + group;
        kafka.createTopic(ledger, 1);
        long writeStart = System.nanoTime();
        SyntheticLedger.write(kafka.bootstrapServers(), ledger, group, "payments", entries, 10);
        long writeMs = (System.nanoTime() - writeStart) / 1_000_000;

        long dumpStart = System.nanoTime();
        Cli.Result dump = javaWithHeap(heap, "ledger", "dump", group, "--bootstrap-server", kafka.bootstrapServers(), "--timeout", "100000");
        long dumpMs = (System.nanoTime() - dumpStart) / 1_000_000;
        assertEquals(0, dump.code(), dump.code() + " " + dump.err());
        long lines = dump.out().lines().filter(l -> l.contains(" entry ")).count();
        assertEquals(entries, lines, "one line per entry");

        long statusStart = System.nanoTime();
        Cli.Result status = javaWithHeap(heap, "ledger", "status", group, "--bootstrap-server", kafka.bootstrapServers(), "--timeout", "100000");
        long statusMs = (System.nanoTime() - statusStart) / 1_000_000;
        assertEquals(0, status.code(), status.toString());
        assertTrue(status.out().matches("(?s).*entries\\s+" + entries + " \\(" + entries + " committed, of them 0 confirmed; 0 aborted, 0 open\\).*"),
                status.out());
        System.out.printf("ledger of %d entries (%d MB): written in %d ms, dump %d ms (%d MB of output), status %d ms, -Xmx%s%n", entries,
                kafka.admin().describeLogDirs(kafka.admin().describeCluster().nodes().get().stream().map(n -> n.id()).toList()).allDescriptions().get().values().stream().flatMap(d -> d.values().stream())
                        .flatMap(d -> d.replicaInfos().entrySet().stream()).filter(e -> e.getKey().topic().equals(ledger))
                        .mapToLong(e -> e.getValue().size()).sum() / (1024 * 1024), writeMs, dumpMs, dump.out().length() / (1024 * 1024),
                statusMs, heap);
    }
}
