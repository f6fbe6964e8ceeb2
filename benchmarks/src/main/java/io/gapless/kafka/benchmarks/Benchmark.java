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

import java.util.List;

/** One benchmark: measures plain Kafka and the SDK side by side and reports one or more figures. */
public interface Benchmark {

    /** The name used on the command line ({@code --only=consume,expansion}) and in {@code RESULT} lines. */
    String name();

    /** Runs the benchmark; a feature that is not built yet yields a {@link BenchmarkResult#skipped} result. */
    List<BenchmarkResult> run(BenchmarkContext context);

    /** Whether it talks to the cluster; when no selected benchmark does, none is started. */
    default boolean needsCluster() {
        return true;
    }
}
