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
package io.gapless.kafka.benchmarks;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Runs every benchmark in {@code --smoke} mode (tiny sizes, one run each) on an embedded broker
 * and checks that each prints a well-formed {@code RESULT} line, so the module cannot rot. It
 * checks no number: smoke sizes measure nothing.
 */
class BenchmarkSmokeIT {
    private static final Pattern RESULT = Pattern.compile("RESULT [a-z0-9-]+( [a-z0-9_]+=[^ =]+)+");

    @Test
    void everyBenchmarkPrintsResultLines() {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(buffer, true, StandardCharsets.UTF_8);
        BenchmarkReport report = BenchmarkHarness.all().run(BenchmarkOptions.parse("--smoke"), out);
        String printed = buffer.toString(StandardCharsets.UTF_8);

        List<String> lines = printed.lines().filter(l -> l.startsWith("RESULT ")).toList();
        lines.forEach(l -> assertTrue(RESULT.matcher(l).matches(), "malformed: " + l));
        for (String benchmark : List.of("poll-overhead", "consume", "produce", "expansion-classic", "expansion-stopped-classic", "share-eos", "ledger")) {
            assertEquals(1, lines.stream().filter(l -> l.startsWith("RESULT " + benchmark + " ")).count(),
                    "one RESULT line for " + benchmark + " in:\n" + printed);
        }
        assertFalse(printed.contains(" failed="), "a benchmark failed:\n" + printed);
        assertTrue(printed.contains("| benchmark "), "the table is printed");
        assertEquals(lines.size(), report.results().size());
    }
}
