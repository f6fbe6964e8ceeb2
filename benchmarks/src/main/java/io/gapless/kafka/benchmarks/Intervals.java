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

import org.apache.commons.math3.distribution.TDistribution;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * 95% confidence intervals over paired measurements (sdk and plain of one pair ran back to back).
 *
 * <p>Ratios: a Student's t interval on the per-pair log ratios {@code ln(sdk_i / plain_i)},
 * back-transformed, so the estimate is the geometric mean of the per-pair ratios. A ratio is
 * multiplicative (its log is symmetric around 0: 0.98 and 1/0.98 are equally far from 1); pairing
 * removes what drifts slowly on a shared machine (both runs of a pair see the same load); with
 * dozens of pairs the mean of the log ratios is close to normal whatever the shape of one pair's
 * noise (central limit theorem), which is what the t interval needs. Neighbouring rounds are not
 * independent on a shared machine (a build that starts slows a stretch of rounds; an A/A control
 * whose plain t interval excluded 1.0 showed it), so from {@link #BATCH} * 2 pairs on the interval
 * comes from batch means: the pairs cut into at most {@link #BATCHES} runs of consecutive pairs, at
 * least {@link #BATCH} long and a whole number of the rounds' order cycles, and a t interval over
 * the runs' mean log ratios; the estimate is still the mean over every pair. A percentile bootstrap of the same mean is computed
 * as a check ({@link #bootstrapRatio}).
 */
public final class Intervals {
    private static final double LEVEL = 0.95;
    /** Consecutive pairs per batch mean at least (five cycles of three variants' six orders). */
    static final int BATCH = 30;
    /** Batches at most: 20 batch means give a t interval with 19 degrees of freedom, and long batches. */
    static final int BATCHES = 20;

    private Intervals() {
    }

    /** An estimate with its 95% interval over {@code n} pairs; NaN bounds with fewer than two pairs. */
    public record Interval(double estimate, double low, double high, int n) {
        /** {@code high - low}. */
        public double width() {
            return high - low;
        }

        /** Whether the whole interval lies at or below {@code limit}. */
        public boolean atMost(double limit) {
            return !Double.isNaN(high) && high <= limit;
        }
    }

    /** The geometric mean of {@code sdk[i] / plain[i]} with its 95% t interval (see the class comment). */
    public static Interval ratio(double[] sdk, double[] plain) {
        double[] logs = logRatios(sdk, plain);
        Interval onLogs = logs.length >= 2 * BATCH ? batchMeans(logs) : mean(logs);
        return new Interval(Math.exp(onLogs.estimate()), Math.exp(onLogs.low()), Math.exp(onLogs.high()), onLogs.n());
    }

    // The mean of every value, with the t interval of the means of at most BATCHES batches of consecutive values,
    // each at least BATCH long and a whole number of order cycles (6), so a long stretch of load falls in few batches.
    private static Interval batchMeans(double[] values) {
        int batches = Math.min(BATCHES, values.length / BATCH);
        int size = values.length / batches / 6 * 6;
        double[] means = new double[batches];
        for (int b = 0; b < batches; b++) {
            means[b] = Arrays.stream(values, b * size, (b + 1) * size).average().orElseThrow();
        }
        Interval overBatches = mean(means);
        double mean = Arrays.stream(values).average().orElseThrow();
        double half = (overBatches.high() - overBatches.low()) / 2;
        return new Interval(mean, mean - half, mean + half, values.length);
    }

    /** The mean of {@code sdk[i] - plain[i]} with its 95% t interval. */
    public static Interval difference(double[] sdk, double[] plain) {
        int n = Math.min(sdk.length, plain.length);
        double[] d = new double[n];
        for (int i = 0; i < n; i++) {
            d[i] = sdk[i] - plain[i];
        }
        return mean(d);
    }

    /** A percentile bootstrap (10,000 resamples, fixed seed) of the geometric mean ratio: a check on {@link #ratio}. */
    public static Interval bootstrapRatio(double[] sdk, double[] plain) {
        double[] logs = logRatios(sdk, plain);
        int n = logs.length;
        if (n < 2) {
            return new Interval(n == 1 ? Math.exp(logs[0]) : Double.NaN, Double.NaN, Double.NaN, n);
        }
        SplittableRandom random = new SplittableRandom(13);
        int resamples = 10_000;
        double[] means = new double[resamples];
        for (int r = 0; r < resamples; r++) {
            double sum = 0;
            for (int i = 0; i < n; i++) {
                sum += logs[random.nextInt(n)];
            }
            means[r] = sum / n;
        }
        Arrays.sort(means);
        double alpha = (1 - LEVEL) / 2;
        return new Interval(Math.exp(Arrays.stream(logs).average().orElse(Double.NaN)),
                Math.exp(means[(int) Math.floor(alpha * resamples)]), Math.exp(means[(int) Math.ceil((1 - alpha) * resamples) - 1]), n);
    }

    /** The mean with its 95% Student's t interval; NaN bounds with fewer than two values. */
    public static Interval mean(double[] values) {
        double[] v = Arrays.stream(values).filter(Double::isFinite).toArray();
        int n = v.length;
        if (n == 0) {
            return new Interval(Double.NaN, Double.NaN, Double.NaN, 0);
        }
        double mean = Arrays.stream(v).average().orElseThrow();
        if (n < 2) {
            return new Interval(mean, Double.NaN, Double.NaN, n);
        }
        double ss = 0;
        for (double x : v) {
            ss += (x - mean) * (x - mean);
        }
        double half = new TDistribution(n - 1).inverseCumulativeProbability(1 - (1 - LEVEL) / 2) * Math.sqrt(ss / (n - 1) / n);
        return new Interval(mean, mean - half, mean + half, n);
    }

    private static double[] logRatios(double[] sdk, double[] plain) {
        int n = Math.min(sdk.length, plain.length);
        double[] out = new double[n];
        for (int i = 0; i < n; i++) {
            out[i] = Math.log(sdk[i] / plain[i]);
        }
        return Arrays.stream(out).filter(Double::isFinite).toArray();
    }
}
