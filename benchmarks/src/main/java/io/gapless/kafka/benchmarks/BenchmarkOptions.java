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

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Command-line options: {@code --quick} (a shorter run), {@code --smoke} (seconds; proves that
 * everything runs), {@code --only=poll-overhead,consume,expansion} (a subset),
 * {@code --results-file=<path>} (write the table there, full runs only by default).
 */
public record BenchmarkOptions(BenchmarkMode mode, Set<String> only, String resultsFile) {
    public static final Set<String> ALL = new LinkedHashSet<>(Arrays.asList(
            PollOverheadBenchmark.NAME, ConsumeBenchmark.NAME, ProduceBenchmark.NAME, ExpansionBenchmark.NAME, ShareEosBenchmark.NAME,
            LedgerBenchmark.NAME, ScaleStartBenchmark.NAME));

    public static BenchmarkOptions parse(String... args) {
        BenchmarkMode mode = BenchmarkMode.FULL;
        Set<String> only = ALL;
        String resultsFile = null;
        for (String arg : args) {
            for (String a : arg.trim().split("\\s+")) {
                if (a.isEmpty()) {
                    continue;
                }
                if (a.equals("--quick")) {
                    mode = BenchmarkMode.QUICK;
                } else if (a.equals("--smoke")) {
                    mode = BenchmarkMode.SMOKE;
                } else if (a.equals("--full")) {
                    mode = BenchmarkMode.FULL;
                } else if (a.startsWith("--only=")) {
                    only = Arrays.stream(a.substring("--only=".length()).split(","))
                            .map(s -> s.trim().toLowerCase(Locale.ROOT)).filter(s -> !s.isEmpty())
                            .collect(Collectors.toCollection(LinkedHashSet::new));
                    Set<String> unknown = new LinkedHashSet<>(only);
                    unknown.removeAll(ALL);
                    if (!unknown.isEmpty()) {
                        throw new IllegalArgumentException("Unknown benchmark(s) " + unknown + "; known: " + ALL);
                    }
                } else if (a.startsWith("--results-file=")) {
                    resultsFile = a.substring("--results-file=".length());
                } else {
                    throw new IllegalArgumentException("Unknown option '" + a + "'; use --quick, --smoke, --full, --only=" + String.join(",", ALL)
                            + ", --results-file=<path>");
                }
            }
        }
        return new BenchmarkOptions(mode, only, resultsFile);
    }

    public boolean selected(String benchmark) {
        return only.contains(benchmark);
    }
}
