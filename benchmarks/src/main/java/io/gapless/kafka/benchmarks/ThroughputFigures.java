package io.gapless.kafka.benchmarks;

import java.util.function.ToDoubleFunction;

/**
 * The throughput figures every interleaved benchmark reports: medians of each side, the ratio of
 * medians, the median of per-pair ratios, the ratio of the best runs, the A/A control's ratios and
 * CPU per record.
 */
record ThroughputFigures(double plainRate, double sdkRate, double ratio, double paired, double best,
                         double controlRatio, double controlCpu, double plainCpu, double sdkCpu) {

    static <R> ThroughputFigures of(Interleaved.Runs<R> runs, Interleaved.Runs<R> control, ToDoubleFunction<R> rate,
                                    ToDoubleFunction<R> cpuPerRecord) {
        double plainRate = Stats.median(runs.plain(), rate);
        double sdkRate = Stats.median(runs.sdk(), rate);
        return new ThroughputFigures(plainRate, sdkRate, Stats.ratio(sdkRate, plainRate),
                Stats.pairedRatio(runs.plain(), runs.sdk(), rate),
                Stats.ratio(Stats.max(runs.sdk(), rate), Stats.max(runs.plain(), rate)),
                Stats.ratio(Stats.median(control.sdk(), rate), Stats.median(control.plain(), rate)),
                Stats.ratio(Stats.median(control.sdk(), cpuPerRecord), Stats.median(control.plain(), cpuPerRecord)),
                Stats.median(runs.plain(), cpuPerRecord), Stats.median(runs.sdk(), cpuPerRecord));
    }
}
