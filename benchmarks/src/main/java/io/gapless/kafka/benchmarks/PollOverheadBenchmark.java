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
        return List.of(result(forks.get(0), forks.get(1)));
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
