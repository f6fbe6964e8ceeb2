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

import java.util.ArrayList;
import java.util.List;

/**
 * The loss KIP-1327 exists to stop, measured on both group protocols for three clients
 * ({@link ExpansionClient}): plain {@code latest}, plain {@code by_duration} as Kafka 4.4
 * documents it, and {@link io.gapless.kafka.core.GaplessConsumer} with {@code latest} plus
 * {@code auto.offset.reset.new.partitions=earliest}. Reports records lost on partitions added
 * while the group runs and while it is stopped, history replayed on the first deployment, the time
 * from {@code createPartitions} to the first record of an added partition, and the time the SDK
 * adds to a new group's first poll.
 */
public final class ExpansionBenchmark implements Benchmark {
    static final String NAME = "expansion";
    static final double FIRST_POLL_BUDGET_MS = 10;
    private static final List<ExpansionClient> CLIENTS = List.of(ExpansionClient.LATEST, ExpansionClient.BY_DURATION, ExpansionClient.SDK);

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<BenchmarkResult> run(BenchmarkContext ctx) {
        ExpansionRun scenario = new ExpansionRun(ctx);
        List<BenchmarkResult> results = new ArrayList<>();
        for (String protocol : ctx.mode().expansionProtocols()) {
            List<Rounds.Turn<ExpansionOutcome>> running = new ArrayList<>();
            List<Rounds.Turn<ExpansionOutcome>> stopped = new ArrayList<>();
            for (ExpansionClient client : CLIENTS) {
                running.add((round, run) -> scenario.running(protocol, client, round, run));
                stopped.add((round, run) -> scenario.stopped(protocol, client, run));
            }
            results.add(running(protocol, Rounds.run(NAME + "-" + protocol, Math.min(1, ctx.mode().warmupPairs()),
                    ctx.mode().expansionRuns(), running)));
            results.add(stopped(protocol, Rounds.run(NAME + "-stopped-" + protocol, 0, ctx.mode().expansionStoppedRuns(), stopped)));
        }
        return results;
    }

    private static long sum(List<ExpansionOutcome> runs, java.util.function.ToLongFunction<ExpansionOutcome> f) {
        return runs.stream().mapToLong(f).sum();
    }

    /** The largest of the runs' values; NaN when any run has NaN (a partition that never delivered). */
    private static double max(List<ExpansionOutcome> runs, java.util.function.ToDoubleFunction<ExpansionOutcome> f) {
        return runs.stream().mapToDouble(f).reduce(Double.NEGATIVE_INFINITY, Math::max);
    }

    private static BenchmarkResult running(String protocol, List<List<ExpansionOutcome>> byClient) {
        String name = NAME + "-" + protocol;
        List<ExpansionOutcome> plain = byClient.get(0);
        List<ExpansionOutcome> duration = byClient.get(1);
        List<ExpansionOutcome> sdk = byClient.get(2);
        String d = ExpansionClient.documentedDuration(protocol).toString();
        long sdkLostMax = sdk.stream().mapToLong(ExpansionOutcome::lostNew).max().orElse(0);
        double plainFirstPoll = Stats.median(plain, ExpansionOutcome::firstPollMillis);
        double sdkFirstPoll = Stats.median(sdk, ExpansionOutcome::firstPollMillis);
        double extra = sdkFirstPoll - plainFirstPoll;
        Intervals.Interval extraCi = Intervals.difference(sdk.stream().mapToDouble(ExpansionOutcome::firstPollMillis).toArray(),
                plain.stream().mapToDouble(ExpansionOutcome::firstPollMillis).toArray());
        double plainFirstNew = Stats.median(plain, ExpansionOutcome::firstNewRecordMillis);
        double sdkFirstNew = Stats.median(sdk, ExpansionOutcome::firstNewRecordMillis);
        double plainConstruct = Stats.median(plain, ExpansionOutcome::constructMillis);
        double sdkConstruct = Stats.median(sdk, ExpansionOutcome::constructMillis);
        long history = (long) ExpansionRun.HISTORY_PER_PARTITION * ExpansionRun.INITIAL_PARTITIONS * plain.size();
        int n = plain.size();
        BenchmarkResult r = new BenchmarkResult(name)
                .metric("runs", n)
                .metric("plain_lost_new", sum(plain, ExpansionOutcome::lostNew))
                .metric("plain_produced_new", sum(plain, ExpansionOutcome::producedNew))
                .metric("sdk_lost_new", sum(sdk, ExpansionOutcome::lostNew))
                .metric("sdk_produced_new", sum(sdk, ExpansionOutcome::producedNew))
                .metric("sdk_lost_new_max_per_run", sdkLostMax)
                .metric("plain_lost_old", sum(plain, ExpansionOutcome::lostOld))
                .metric("sdk_lost_old", sum(sdk, ExpansionOutcome::lostOld))
                .metric("plain_duplicates", sum(plain, ExpansionOutcome::duplicates))
                .metric("sdk_duplicates", sum(sdk, ExpansionOutcome::duplicates))
                .metric("plain_history_replayed", sum(plain, ExpansionOutcome::historyReplayed))
                .metric("sdk_history_replayed", sum(sdk, ExpansionOutcome::historyReplayed))
                .metric("plain_new_assigned_ms", Stats.median(plain, ExpansionOutcome::newAssignedMillis))
                .metric("sdk_new_assigned_ms", Stats.median(sdk, ExpansionOutcome::newAssignedMillis))
                .metric("plain_first_new_record_ms", plainFirstNew)
                .metric("sdk_first_new_record_ms", sdkFirstNew)
                .metric("plain_first_poll_ms", plainFirstPoll)
                .metric("sdk_first_poll_ms", sdkFirstPoll)
                .metric("sdk_first_poll_extra_ms", extra)
                .metric("plain_construct_ms", plainConstruct)
                .metric("sdk_construct_ms", sdkConstruct)
                .metric("sdk_first_poll_extra_mean_ms", extraCi.estimate())
                .metric("sdk_first_poll_extra_ci_low", extraCi.low())
                .metric("sdk_first_poll_extra_ci_high", extraCi.high())
                .metric("by_duration", d)
                .metric("duration_lost_new", sum(duration, ExpansionOutcome::lostNew))
                .metric("duration_produced_new", sum(duration, ExpansionOutcome::producedNew))
                .metric("duration_lost_old", sum(duration, ExpansionOutcome::lostOld))
                .metric("duration_duplicates", sum(duration, ExpansionOutcome::duplicates))
                .metric("duration_history_replayed", sum(duration, ExpansionOutcome::historyReplayed))
                .metric("history_records", history)
                .metric("duration_first_new_record_ms", Stats.median(duration, ExpansionOutcome::firstNewRecordMillis))
                .metric("duration_first_poll_ms", Stats.median(duration, ExpansionOutcome::firstPollMillis))
                .metric("plain_slowest_new_partition_max_ms", max(plain, ExpansionOutcome::slowestNewPartitionMillis))
                .metric("duration_slowest_new_partition_max_ms", max(duration, ExpansionOutcome::slowestNewPartitionMillis))
                .metric("sdk_slowest_new_partition_max_ms", max(sdk, ExpansionOutcome::slowestNewPartitionMillis));
        String extraInterval = Double.isNaN(extraCi.low()) ? ""
                : " (per-round mean " + Format.delta(extraCi.estimate()) + ", 95% interval " + Format.delta(extraCi.low()) + " to "
                + Format.delta(extraCi.high()) + ")";
        return r.row(TableRow.checked(name, "records lost on partitions added while running (" + n + " runs, summed)",
                        sum(plain, ExpansionOutcome::lostNew) + " of " + sum(plain, ExpansionOutcome::producedNew) + " (latest); "
                                + sum(duration, ExpansionOutcome::lostNew) + " of " + sum(duration, ExpansionOutcome::producedNew)
                                + " (by_duration:" + d + ")",
                        sum(sdk, ExpansionOutcome::lostNew) + " of " + sum(sdk, ExpansionOutcome::producedNew), "", "SDK 0 in every run",
                        sdkLostMax == 0))
                .row(TableRow.info(name, "history replayed on first deployment (of " + history + " records written over the "
                                + ExpansionRun.HISTORY_SPAN.toMinutes() + " min before it, plus 1 per partition at its creation)",
                        sum(plain, ExpansionOutcome::historyReplayed) + " (latest); " + sum(duration, ExpansionOutcome::historyReplayed)
                                + " (by_duration:" + d + ")", Long.toString(sum(sdk, ExpansionOutcome::historyReplayed)), ""))
                .row(TableRow.info(name, "lost on original partitions / duplicates",
                        sum(plain, ExpansionOutcome::lostOld) + " / " + sum(plain, ExpansionOutcome::duplicates) + " (latest); "
                                + sum(duration, ExpansionOutcome::lostOld) + " / " + sum(duration, ExpansionOutcome::duplicates) + " (by_duration)",
                        sum(sdk, ExpansionOutcome::lostOld) + " / " + sum(sdk, ExpansionOutcome::duplicates), ""))
                .row(TableRow.info(name, "createPartitions to all partitions assigned (median)",
                        Format.millis(Stats.median(plain, ExpansionOutcome::newAssignedMillis)),
                        Format.millis(Stats.median(sdk, ExpansionOutcome::newAssignedMillis)), ""))
                .row(TableRow.info(name, "createPartitions to first record of an added partition (median)",
                        Format.millis(plainFirstNew), Format.millis(sdkFirstNew), Format.delta(sdkFirstNew - plainFirstNew)))
                .row(TableRow.info(name, "createPartitions to first record of every added partition (slowest run; n/a: one delivered nothing)",
                        Format.millis(max(plain, ExpansionOutcome::slowestNewPartitionMillis)) + " (latest); "
                                + Format.millis(max(duration, ExpansionOutcome::slowestNewPartitionMillis)) + " (by_duration:" + d + ")",
                        Format.millis(max(sdk, ExpansionOutcome::slowestNewPartitionMillis)), ""))
                .row(TableRow.checked(name, "new group: subscribe to assignment positioned (median of " + n + ")", Format.millis(plainFirstPoll),
                        Format.millis(sdkFirstPoll), Format.delta(extra) + extraInterval, "SDK adds <= " + Format.millis(FIRST_POLL_BUDGET_MS),
                        extra <= FIRST_POLL_BUDGET_MS))
                .row(TableRow.info(name, "constructor (median; the SDK probes the broker here)", Format.millis(plainConstruct),
                        Format.millis(sdkConstruct), Format.delta(sdkConstruct - plainConstruct)));
    }

    private static BenchmarkResult stopped(String protocol, List<List<ExpansionOutcome>> byClient) {
        String name = NAME + "-stopped-" + protocol;
        String d = ExpansionClient.documentedDuration(protocol).toString();
        String stop = ExpansionRun.simulatedStop(protocol).toString();
        BenchmarkResult r = new BenchmarkResult(name)
                .metric("runs", byClient.get(0).size())
                .metric("by_duration", d)
                .metric("stop", stop);
        for (int i = 0; i < CLIENTS.size(); i++) {
            String key = CLIENTS.get(i).key();
            r.metric(key + "_produced_new", sum(byClient.get(i), ExpansionOutcome::producedNew))
                    .metric(key + "_lost_new", sum(byClient.get(i), ExpansionOutcome::lostNew))
                    .metric(key + "_lost_old", sum(byClient.get(i), ExpansionOutcome::lostOld))
                    .metric(key + "_duplicates", sum(byClient.get(i), ExpansionOutcome::duplicates));
        }
        List<ExpansionOutcome> plain = byClient.get(0);
        List<ExpansionOutcome> duration = byClient.get(1);
        List<ExpansionOutcome> sdk = byClient.get(2);
        long sdkLost = sum(sdk, ExpansionOutcome::lostNew);
        return r.row(TableRow.checked(name, "records lost on partitions added while the group was stopped for " + stop
                                + " (twice by_duration:" + d + ", simulated by record timestamps; " + plain.size() + " runs, summed)",
                        sum(plain, ExpansionOutcome::lostNew) + " of " + sum(plain, ExpansionOutcome::producedNew) + " (latest); "
                                + sum(duration, ExpansionOutcome::lostNew) + " of " + sum(duration, ExpansionOutcome::producedNew)
                                + " (by_duration:" + d + ")",
                        sdkLost + " of " + sum(sdk, ExpansionOutcome::producedNew), "", "SDK 0", sdkLost == 0))
                .row(TableRow.info(name, "lost on original partitions (committed before the stop) / duplicates",
                        sum(plain, ExpansionOutcome::lostOld) + " / " + sum(plain, ExpansionOutcome::duplicates) + " (latest); "
                                + sum(duration, ExpansionOutcome::lostOld) + " / " + sum(duration, ExpansionOutcome::duplicates) + " (by_duration)",
                        sum(sdk, ExpansionOutcome::lostOld) + " / " + sum(sdk, ExpansionOutcome::duplicates), ""));
    }
}
