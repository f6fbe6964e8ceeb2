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

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/** A run's outcome: its results, when it started, how long it took, on what machine and cluster. */
public record BenchmarkReport(List<BenchmarkResult> results, Instant started, Duration took, String machine, String mode,
                              String cluster) {

    /** The results as the printed Markdown table. */
    public String table() {
        return ResultTable.render(results);
    }
}
