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

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;

/**
 * The throughput figures the consume and produce benchmarks report, from rounds of segments of
 * three live clients (plain, SDK, plain again as the A/A control): medians of each side, the
 * geometric mean of the per-round ratios with its 95% interval ({@link Intervals#ratio}), the
 * median of the per-round ratios, the ratio of the best segments, the same for CPU time per
 * record, and the A/A control's ratios and intervals.
 */
record ThroughputFigures(double plainRate, double sdkRate, Intervals.Interval ratio, double paired, double best,
                         Intervals.Interval control, Intervals.Interval cpu, Intervals.Interval controlCpu,
                         double plainCpu, double sdkCpu) {
    private static final Logger log = LoggerFactory.getLogger(ThroughputFigures.class);

    /** The width a ratio's 95% interval must stay under for a 2% target to be resolved. */
    static final double RESOLUTION = 0.02;

    /** Whether the rounds so far (plain, SDK, control) resolve {@link #RESOLUTION}: both intervals narrower. */
    static boolean resolved(List<List<Segment>> rounds) {
        double[] plain = rates(rounds.get(0));
        return plain.length > 2 && Intervals.ratio(rates(rounds.get(1)), plain).width() < RESOLUTION
                && Intervals.ratio(rates(rounds.get(2)), plain).width() < RESOLUTION;
    }

    static ThroughputFigures of(String what, List<Segment> plain, List<Segment> sdk, List<Segment> control) {
        double[] plainRates = rates(plain);
        double[] sdkRates = rates(sdk);
        double[] controlRates = rates(control);
        double[] plainCpus = cpus(plain);
        ThroughputFigures f = new ThroughputFigures(Stats.median(plainRates), Stats.median(sdkRates),
                Intervals.ratio(sdkRates, plainRates),
                Stats.pairedRatio(plain, sdk, Segment::recordsPerSecond),
                Stats.ratio(Stats.max(sdk, Segment::recordsPerSecond), Stats.max(plain, Segment::recordsPerSecond)),
                Intervals.ratio(controlRates, plainRates),
                Intervals.ratio(cpus(sdk), plainCpus),
                Intervals.ratio(cpus(control), plainCpus),
                Stats.median(plainCpus), Stats.median(cpus(sdk)));
        Intervals.Interval boot = Intervals.bootstrapRatio(sdkRates, plainRates);
        log.info("{}: sdk/plain {} [{}, {}] (t on log ratios), [{}, {}] (bootstrap); A/A {} [{}, {}]; CPU {} [{}, {}]", what,
                Format.ratio(f.ratio().estimate()), Format.ratio(f.ratio().low()), Format.ratio(f.ratio().high()),
                Format.ratio(boot.low()), Format.ratio(boot.high()), Format.ratio(f.control().estimate()),
                Format.ratio(f.control().low()), Format.ratio(f.control().high()), Format.ratio(f.cpu().estimate()),
                Format.ratio(f.cpu().low()), Format.ratio(f.cpu().high()));
        return f;
    }

    /** {@code 0.998 [0.991, 1.005]}. */
    static String withInterval(Intervals.Interval i) {
        return Format.ratio(i.estimate()) + (Double.isNaN(i.low()) ? "" : " [" + Format.ratio(i.low()) + ", " + Format.ratio(i.high()) + "]");
    }

    private static double[] rates(List<Segment> s) {
        return s.stream().mapToDouble(Segment::recordsPerSecond).toArray();
    }

    private static double[] cpus(List<Segment> s) {
        return s.stream().mapToDouble(Segment::cpuNanosPerRecord).toArray();
    }
}
