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

import io.gapless.kafka.testkit.EmbeddedKafka;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs the selected benchmarks one after the other on one cluster in this JVM (an embedded KRaft
 * broker, or the cluster named by {@code GAPLESS_BOOTSTRAP_SERVERS}), then prints the table and one
 * {@code RESULT} line per figure. A benchmark that fails is reported as {@code failed=<exception>}
 * and the others still run.
 */
public final class BenchmarkHarness {
    private static final Logger log = LoggerFactory.getLogger(BenchmarkHarness.class);

    private final List<Benchmark> benchmarks;

    public BenchmarkHarness(List<Benchmark> benchmarks) {
        this.benchmarks = benchmarks;
    }

    /** Every benchmark: the JMH one first (it needs no cluster), then the order of issue 7. */
    public static BenchmarkHarness all() {
        return new BenchmarkHarness(List.of(new PollOverheadBenchmark(), new ConsumeBenchmark(), new ProduceBenchmark(),
                new ExpansionBenchmark(), new ShareEosBenchmark(), new LedgerBenchmark(), new ScaleStartBenchmark()));
    }

    public BenchmarkReport run(BenchmarkOptions options, PrintStream out) {
        Instant started = Instant.now();
        long t0 = System.nanoTime();
        String loadBefore = MachineInfo.loadAverage();
        String machine = MachineInfo.describe();
        List<BenchmarkResult> results = new ArrayList<>();
        String cluster;
        boolean needsCluster = benchmarks.stream().anyMatch(b -> options.selected(b.name()) && b.needsCluster());
        try (EmbeddedKafka kafka = needsCluster ? EmbeddedKafka.forTests() : null) {
            cluster = kafka == null ? "no cluster (JMH only)" : kafka.isExternal() ? "external cluster " + kafka.bootstrapServers()
                    : "embedded single-node KRaft broker in this JVM";
            out.println("Gapless benchmarks, mode " + options.mode().name().toLowerCase() + ", " + cluster);
            out.println(machine + "; 1-minute load average " + loadBefore);
            BenchmarkContext ctx = new BenchmarkContext(kafka, options.mode());
            for (Benchmark b : benchmarks) {
                if (!options.selected(b.name())) {
                    continue;
                }
                long start = System.nanoTime();
                log.info("{}: starting", b.name());
                try {
                    results.addAll(b.run(ctx));
                } catch (RuntimeException e) {
                    log.error("{}: failed", b.name(), e);
                    BenchmarkResult failed = new BenchmarkResult(b.name()).metric("failed", e.getClass().getSimpleName());
                    failed.row(new TableRow(b.name(), "FAILED: " + e, "", "", "", "", "failed"));
                    results.add(failed);
                }
                log.info("{}: done in {} s", b.name(), String.format("%.1f", (System.nanoTime() - start) / 1e9));
            }
        }
        machine = machine + "; 1-minute load average " + loadBefore + " at start, " + MachineInfo.loadAverage() + " at end";
        BenchmarkReport report = new BenchmarkReport(results, started, Duration.ofNanos(System.nanoTime() - t0), machine,
                options.mode().name().toLowerCase(), cluster);
        out.println();
        out.print(report.table());
        out.println();
        results.forEach(r -> out.println(r.resultLine()));
        out.flush();
        return report;
    }
}
