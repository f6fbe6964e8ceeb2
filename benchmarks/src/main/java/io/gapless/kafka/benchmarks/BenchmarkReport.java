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
