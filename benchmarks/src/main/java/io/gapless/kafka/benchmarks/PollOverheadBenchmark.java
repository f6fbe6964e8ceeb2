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

import io.gapless.kafka.core.PollOverheadJmh;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;
import org.openjdk.jmh.util.ListStatistics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What {@code GaplessConsumer.poll} costs on top of its delegate, measured with JMH in isolation
 * ({@link PollOverheadJmh}: a delegate that returns a prepared batch, emulation active). Each side
 * runs in its own forked JVM; forks alternate (bare, SDK, SDK, bare, ...) as the other
 * benchmarks' runs do, and {@code ns_per_poll} is the mean of the per-pair differences of the
 * fork means, with a 95% t interval over the pairs and JMH's own 99.9% error (all iterations of
 * each side, combined as for a difference of independent means). JMH's GC profiler gives the
 * bytes allocated per poll.
 */
public final class PollOverheadBenchmark implements Benchmark {
    static final String NAME = "poll-overhead";
    static final double TARGET_NS = 200;
    private static final Logger log = LoggerFactory.getLogger(PollOverheadBenchmark.class);
    private static final String BARE = "kafkaConsumerStub";
    private static final String SDK = "gaplessConsumer";
    private static final int CPU_POLLS = 500_000;
    private static final int CPU_ROUNDS_PER_PAIR = 8;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean needsCluster() {
        return false;
    }

    @Override
    public List<io.gapless.kafka.benchmarks.BenchmarkResult> run(BenchmarkContext ctx) {
        BenchmarkMode mode = ctx.mode();
        JmhClasspath.exposeToForks();
        List<List<Fork>> forks = Rounds.run(NAME, 0, mode.jmh().pairs(), List.of(
                (round, run) -> fork(BARE, mode),
                (round, run) -> fork(SDK, mode)));
        io.gapless.kafka.benchmarks.BenchmarkResult result = result(forks.get(0), forks.get(1));
        cpuPerPoll(mode, result);
        return List.of(result);
    }

    /**
     * The same two polls timed by the calling thread's CPU time instead of wall time, in this JVM,
     * in interleaved rounds: on a machine whose load average is many times its cores, wall time
     * per call mostly measures how long the thread waited for a core (the bare stub's JMH figure
     * itself moves from 3 to over 100 ns), CPU time much less so.
     */
    private static void cpuPerPoll(BenchmarkMode mode, io.gapless.kafka.benchmarks.BenchmarkResult result) {
        PollOverheadJmh.Bare bare = new PollOverheadJmh.Bare();
        PollOverheadJmh.Sdk sdk = new PollOverheadJmh.Sdk();
        bare.setUp();
        try {
            sdk.setUp();
            try {
                int rounds = mode.jmh().pairs() * CPU_ROUNDS_PER_PAIR;
                List<List<Double>> cpu = Rounds.run(NAME + " (CPU time)", rounds / 5, rounds, List.of(
                        (round, run) -> cpuNanosPerPoll(bare::poll),
                        (round, run) -> cpuNanosPerPoll(sdk::poll)));
                double[] plain = cpu.get(0).stream().mapToDouble(Double::doubleValue).toArray();
                double[] gapless = cpu.get(1).stream().mapToDouble(Double::doubleValue).toArray();
                Intervals.Interval diff = Intervals.difference(gapless, plain);
                result.metric("cpu_ns_per_poll", diff.estimate())
                        .metric("cpu_ns_per_poll_ci_low", diff.low())
                        .metric("cpu_ns_per_poll_ci_high", diff.high())
                        .metric("plain_cpu_ns_per_poll", Stats.median(plain))
                        .metric("sdk_cpu_ns_per_poll", Stats.median(gapless))
                        .row(TableRow.checked(NAME, "the same, CPU time of the polling thread per poll (" + rounds + " interleaved rounds of "
                                        + CPU_POLLS + " polls in one JVM)", Format.number(Stats.median(plain)) + " ns",
                                Format.number(Stats.median(gapless)) + " ns", "+" + Format.number(diff.estimate()) + " ns, 95% interval "
                                        + Format.number(diff.low()) + " to " + Format.number(diff.high()) + " ns",
                                "<= " + Format.number(TARGET_NS) + " ns", diff.high() <= TARGET_NS));
            } finally {
                sdk.tearDown();
            }
        } finally {
            bare.tearDown();
        }
    }

    private static double cpuNanosPerPoll(java.util.function.IntSupplier poll) {
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long sink = 0;
        long start = threads.getCurrentThreadCpuTime();
        for (int i = 0; i < CPU_POLLS; i++) {
            sink += poll.getAsInt();
        }
        long used = threads.getCurrentThreadCpuTime() - start;
        if (sink != (long) CPU_POLLS * PollOverheadJmh.RECORDS) {
            throw new IllegalStateException("polls returned " + sink + " records");
        }
        return used / (double) CPU_POLLS;
    }

    /** One fork's outcome: its mean, every iteration's score, the bytes allocated per poll. */
    private record Fork(double mean, double[] iterations, double allocBytes) {
    }

    private static Fork fork(String method, BenchmarkMode mode) {
        Options options = new OptionsBuilder()
                .include(PollOverheadJmh.class.getName() + "\\." + method + "$")
                .forks(1)
                .warmupIterations(mode.jmh().warmupIterations())
                .warmupTime(TimeValue.milliseconds(mode.jmh().iterationMillis()))
                .measurementIterations(mode.jmh().measurementIterations())
                .measurementTime(TimeValue.milliseconds(mode.jmh().iterationMillis()))
                .addProfiler(GCProfiler.class)
                // Not the host's arguments (Maven's, under exec:java): a small fixed heap, the default collector.
                .jvmArgs("-Xms512m", "-Xmx512m")
                .shouldFailOnError(true)
                .verbosity(VerboseMode.SILENT)
                .build();
        RunResult run;
        try {
            run = new Runner(options).runSingle();
        } catch (RunnerException e) {
            throw new IllegalStateException("JMH run of " + method + " failed", e);
        }
        List<Double> scores = new ArrayList<>();
        for (BenchmarkResult b : run.getBenchmarkResults()) {
            for (IterationResult i : b.getIterationResults()) {
                scores.add(i.getPrimaryResult().getScore());
            }
        }
        double alloc = Double.NaN;
        for (Map.Entry<String, Result> e : run.getSecondaryResults().entrySet()) {
            if (e.getKey().endsWith("gc.alloc.rate.norm")) {
                alloc = e.getValue().getScore();
            }
        }
        Fork fork = new Fork(run.getPrimaryResult().getScore(), scores.stream().mapToDouble(Double::doubleValue).toArray(), alloc);
        log.info("{}: {} {} ns/poll, {} B/poll", NAME, method, Format.number(fork.mean()), Format.number(alloc));
        return fork;
    }

    private static io.gapless.kafka.benchmarks.BenchmarkResult result(List<Fork> bare, List<Fork> sdk) {
        double[] bareMeans = bare.stream().mapToDouble(Fork::mean).toArray();
        double[] sdkMeans = sdk.stream().mapToDouble(Fork::mean).toArray();
        Intervals.Interval diff = Intervals.difference(sdkMeans, bareMeans);
        ListStatistics bareAll = pooled(bare);
        ListStatistics sdkAll = pooled(sdk);
        double bareError = bareAll.getMeanErrorAt(0.999);
        double sdkError = sdkAll.getMeanErrorAt(0.999);
        double diffError = Math.sqrt(bareError * bareError + sdkError * sdkError);
        double bareAlloc = Stats.median(bare, Fork::allocBytes);
        double sdkAlloc = Stats.median(sdk, Fork::allocBytes);
        double upper = Double.isNaN(diff.high()) ? diff.estimate() + diffError : diff.high();
        String interval = Double.isNaN(diff.low()) ? "" : ", 95% interval " + Format.number(diff.low()) + " to " + Format.number(diff.high()) + " ns";
        return new io.gapless.kafka.benchmarks.BenchmarkResult(NAME)
                .metric("ns_per_poll", diff.estimate())
                .metric("ns_per_poll_error", diffError)
                .metric("ns_per_poll_ci_low", diff.low())
                .metric("ns_per_poll_ci_high", diff.high())
                .metric("plain_ns_per_poll", bareAll.getMean())
                .metric("plain_ns_per_poll_error", bareError)
                .metric("sdk_ns_per_poll", sdkAll.getMean())
                .metric("sdk_ns_per_poll_error", sdkError)
                .metric("plain_alloc_bytes_per_poll", bareAlloc)
                .metric("sdk_alloc_bytes_per_poll", sdkAlloc)
                .metric("forks_per_side", bare.size())
                .metric("records_per_poll", PollOverheadJmh.RECORDS)
                .row(TableRow.checked(NAME, "GaplessConsumer.poll over its delegate (JMH, prepared batch of 500, emulation active; "
                                + bare.size() + " forks per side)", Format.number(bareAll.getMean()) + " ns",
                        Format.number(sdkAll.getMean()) + " ns", "+" + Format.number(diff.estimate()) + " ± " + Format.number(diffError)
                                + " ns (99.9%)" + interval, "<= " + Format.number(TARGET_NS) + " ns", upper <= TARGET_NS))
                .row(TableRow.info(NAME, "bytes allocated per poll (JMH gc.alloc.rate.norm)", Format.number(bareAlloc) + " B",
                        Format.number(sdkAlloc) + " B", ""));
    }

    private static ListStatistics pooled(List<Fork> forks) {
        ListStatistics s = new ListStatistics();
        forks.forEach(f -> {
            for (double v : f.iterations()) {
                s.addValue(v);
            }
        });
        return s;
    }
}
