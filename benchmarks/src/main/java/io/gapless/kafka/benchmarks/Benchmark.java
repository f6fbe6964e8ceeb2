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
