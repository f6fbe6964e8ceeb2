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

import java.nio.file.Path;
import java.util.Arrays;

/**
 * Runs the benchmarks and prints the table and the {@code RESULT} lines.
 *
 * <pre>
 * mvn -B -q -pl benchmarks -am package -DskipTests exec:java                         # full run
 * mvn -B -q -pl benchmarks -am package -DskipTests exec:java -Dexec.args="--quick"   # within 3 minutes
 * mvn -B -q -pl benchmarks -am package -DskipTests exec:java -Dbench.args="--quick"  # the same
 * </pre>
 *
 * A full run also writes its table into the file named by the system property
 * {@value #RESULTS_PROPERTY} (the pom points it at {@code benchmarks/RESULTS.md}), or by
 * {@code --results-file=<path>} in any mode.
 */
public final class BenchmarkMain {
    static final String RESULTS_PROPERTY = "gapless.bench.results";
    /**
     * Options as a system property, for builds where {@code -Dexec.args} also reaches another
     * module's exec execution: {@code -Dbench.args="--quick"}.
     */
    static final String ARGS_PROPERTY = "bench.args";

    private BenchmarkMain() {
    }

    public static void main(String[] args) {
        String[] all = Arrays.copyOf(args, args.length + 1);
        all[args.length] = System.getProperty(ARGS_PROPERTY, "");
        BenchmarkOptions options = BenchmarkOptions.parse(all);
        BenchmarkReport report = BenchmarkHarness.all().run(options, System.out);
        String file = options.resultsFile();
        if (file == null && options.mode() == BenchmarkMode.FULL && options.only().equals(BenchmarkOptions.ALL)) {
            file = System.getProperty(RESULTS_PROPERTY);
        }
        if (file != null && !file.isBlank()) {
            ResultsFile.write(Path.of(file), report);
            System.out.println("Table written to " + file);
        }
    }
}
