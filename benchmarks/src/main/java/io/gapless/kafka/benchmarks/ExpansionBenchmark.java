package io.gapless.kafka.benchmarks;

import java.util.ArrayList;
import java.util.List;

/**
 * The loss KIP-1327 exists to stop, measured: plain {@link org.apache.kafka.clients.consumer.KafkaConsumer}
 * with {@code auto.offset.reset=latest} against {@link io.gapless.kafka.core.GaplessConsumer} with
 * {@code latest} plus {@code auto.offset.reset.new.partitions=earliest}, on both group protocols.
 * Reports records lost on the added partitions, the time from {@code createPartitions} to the first
 * record of an added partition, and the time the SDK adds to a new group's first poll.
 */
public final class ExpansionBenchmark implements Benchmark {
    static final String NAME = "expansion";
    static final double FIRST_POLL_BUDGET_MS = 100;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<BenchmarkResult> run(BenchmarkContext ctx) {
        ExpansionRun scenario = new ExpansionRun(ctx);
        List<BenchmarkResult> results = new ArrayList<>();
        for (String protocol : ctx.mode().expansionProtocols()) {
            Interleaved.Runs<ExpansionOutcome> runs = Interleaved.run(NAME + "-" + protocol, ctx.mode().warmupPairs(),
                    ctx.mode().expansionRuns(),
                    run -> scenario.execute(protocol, false, run),
                    run -> scenario.execute(protocol, true, run));
            results.add(result(protocol, runs));
        }
        return results;
    }

    private static BenchmarkResult result(String protocol, Interleaved.Runs<ExpansionOutcome> runs) {
        String name = NAME + "-" + protocol;
        List<ExpansionOutcome> plain = runs.plain();
        List<ExpansionOutcome> sdk = runs.sdk();
        long plainLost = plain.stream().mapToLong(ExpansionOutcome::lostNew).sum();
        long plainProduced = plain.stream().mapToLong(ExpansionOutcome::producedNew).sum();
        long sdkLost = sdk.stream().mapToLong(ExpansionOutcome::lostNew).sum();
        long sdkProduced = sdk.stream().mapToLong(ExpansionOutcome::producedNew).sum();
        long sdkLostMax = sdk.stream().mapToLong(ExpansionOutcome::lostNew).max().orElse(0);
        long sdkLostOld = sdk.stream().mapToLong(ExpansionOutcome::lostOld).sum();
        long plainLostOld = plain.stream().mapToLong(ExpansionOutcome::lostOld).sum();
        long sdkDuplicates = sdk.stream().mapToLong(ExpansionOutcome::duplicates).sum();
        long plainDuplicates = plain.stream().mapToLong(ExpansionOutcome::duplicates).sum();
        long sdkHistory = sdk.stream().mapToLong(ExpansionOutcome::historyReplayed).sum();
        long plainHistory = plain.stream().mapToLong(ExpansionOutcome::historyReplayed).sum();
        double plainFirstNew = Stats.median(plain, ExpansionOutcome::firstNewRecordMillis);
        double sdkFirstNew = Stats.median(sdk, ExpansionOutcome::firstNewRecordMillis);
        double plainAssigned = Stats.median(plain, ExpansionOutcome::newAssignedMillis);
        double sdkAssigned = Stats.median(sdk, ExpansionOutcome::newAssignedMillis);
        double plainFirstPoll = Stats.median(plain, ExpansionOutcome::firstPollMillis);
        double sdkFirstPoll = Stats.median(sdk, ExpansionOutcome::firstPollMillis);
        double extra = sdkFirstPoll - plainFirstPoll;
        double plainConstruct = Stats.median(plain, ExpansionOutcome::constructMillis);
        double sdkConstruct = Stats.median(sdk, ExpansionOutcome::constructMillis);
        int n = plain.size();
        return new BenchmarkResult(name)
                .metric("runs", n)
                .metric("plain_lost_new", plainLost)
                .metric("plain_produced_new", plainProduced)
                .metric("sdk_lost_new", sdkLost)
                .metric("sdk_produced_new", sdkProduced)
                .metric("sdk_lost_new_max_per_run", sdkLostMax)
                .metric("plain_lost_old", plainLostOld)
                .metric("sdk_lost_old", sdkLostOld)
                .metric("plain_duplicates", plainDuplicates)
                .metric("sdk_duplicates", sdkDuplicates)
                .metric("plain_history_replayed", plainHistory)
                .metric("sdk_history_replayed", sdkHistory)
                .metric("plain_new_assigned_ms", plainAssigned)
                .metric("sdk_new_assigned_ms", sdkAssigned)
                .metric("plain_first_new_record_ms", plainFirstNew)
                .metric("sdk_first_new_record_ms", sdkFirstNew)
                .metric("plain_first_poll_ms", plainFirstPoll)
                .metric("sdk_first_poll_ms", sdkFirstPoll)
                .metric("sdk_first_poll_extra_ms", extra)
                .metric("plain_construct_ms", plainConstruct)
                .metric("sdk_construct_ms", sdkConstruct)
                .row(TableRow.checked(name, "records lost on added partitions (" + n + " runs, all runs summed)",
                        plainLost + " of " + plainProduced, sdkLost + " of " + sdkProduced, "", "SDK 0 in every run",
                        sdkLostMax == 0))
                .row(TableRow.info(name, "lost on original partitions / duplicates / history replayed",
                        plainLostOld + " / " + plainDuplicates + " / " + plainHistory, sdkLostOld + " / " + sdkDuplicates + " / " + sdkHistory, ""))
                .row(TableRow.info(name, "createPartitions to all partitions assigned (median)", Format.millis(plainAssigned),
                        Format.millis(sdkAssigned), ""))
                .row(TableRow.info(name, "createPartitions to first record of an added partition (median)",
                        Format.millis(plainFirstNew), Format.millis(sdkFirstNew), Format.delta(sdkFirstNew - plainFirstNew)))
                .row(TableRow.checked(name, "new group: subscribe to assignment positioned (median)", Format.millis(plainFirstPoll),
                        Format.millis(sdkFirstPoll), Format.delta(extra), "SDK adds < " + Format.millis(FIRST_POLL_BUDGET_MS),
                        extra < FIRST_POLL_BUDGET_MS))
                .row(TableRow.info(name, "constructor (median; the SDK probes the broker here)", Format.millis(plainConstruct),
                        Format.millis(sdkConstruct), Format.delta(sdkConstruct - plainConstruct)));
    }
}
