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

import java.util.Arrays;
import java.util.List;
import java.util.function.ToDoubleFunction;

/** Medians and other small statistics over the runs of a benchmark. */
public final class Stats {
    private Stats() {
    }

    /** The median of {@code values} (mean of the middle two for an even count); NaN when empty or all NaN. */
    public static double median(double... values) {
        double[] v = Arrays.stream(values).filter(d -> !Double.isNaN(d)).sorted().toArray();
        if (v.length == 0) {
            return Double.NaN;
        }
        int mid = v.length / 2;
        return v.length % 2 == 1 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
    }

    /** The median of one figure over runs. */
    public static <T> double median(List<T> runs, ToDoubleFunction<T> figure) {
        return median(runs.stream().mapToDouble(figure).toArray());
    }

    /** The largest value of one figure over runs; NaN when empty. */
    public static <T> double max(List<T> runs, ToDoubleFunction<T> figure) {
        return runs.stream().mapToDouble(figure).max().orElse(Double.NaN);
    }

    /** {@code sdk / plain}, NaN when either is unknown or plain is zero. */
    public static double ratio(double sdk, double plain) {
        return Double.isNaN(sdk) || Double.isNaN(plain) || plain == 0 ? Double.NaN : sdk / plain;
    }

    /**
     * The median over pairs of {@code sdk[i] / plain[i]}: the two runs of a pair ran back to back,
     * so background load on a shared machine hits both about equally.
     */
    public static <T> double pairedRatio(List<T> plain, List<T> sdk, ToDoubleFunction<T> figure) {
        int n = Math.min(plain.size(), sdk.size());
        double[] ratios = new double[n];
        for (int i = 0; i < n; i++) {
            ratios[i] = ratio(figure.applyAsDouble(sdk.get(i)), figure.applyAsDouble(plain.get(i)));
        }
        return median(ratios);
    }
}
