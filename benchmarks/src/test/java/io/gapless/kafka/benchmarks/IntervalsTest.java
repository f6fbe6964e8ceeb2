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

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class IntervalsTest {

    /**
     * A/A comparisons on a machine whose load drifts: both sides are equal on average, but a
     * stretch of 60 rounds shares its load, so neighbouring ratios move together. Treating the
     * rounds as independent gives intervals that miss 1.0 most of the time; the batch means'
     * intervals hold it about as often as a 95% interval should.
     */
    @Test
    void neighbouringRoundsThatMoveTogetherAreNotCountedAsIndependent() {
        SplittableRandom random = new SplittableRandom(7);
        int series = 400;
        int batchedHolds = 0;
        int independentHolds = 0;
        for (int s = 0; s < series; s++) {
            double[] plain = new double[1800];
            double[] other = new double[plain.length];
            double drift = 0;
            for (int i = 0; i < plain.length; i++) {
                if (i % 60 == 0) {
                    drift = random.nextGaussian() * 0.03;
                }
                plain[i] = 100;
                other[i] = 100 * Math.exp(drift + random.nextGaussian() * 0.01);
            }
            Intervals.Interval batched = Intervals.ratio(other, plain);
            assertEquals(plain.length, batched.n());
            Intervals.Interval independent = Intervals.mean(Arrays.stream(other).map(x -> Math.log(x / 100)).toArray());
            batchedHolds += batched.low() <= 1.0 && 1.0 <= batched.high() ? 1 : 0;
            independentHolds += independent.low() <= 0 && 0 <= independent.high() ? 1 : 0;
        }
        assertTrue(batchedHolds >= 0.88 * series, "batch-means intervals holding 1.0: " + batchedHolds + " of " + series);
        assertTrue(independentHolds <= 0.6 * series, "independent-t intervals holding 1.0: " + independentHolds + " of " + series);
    }

    @Test
    void fewRoundsKeepThePlainTInterval() {
        double[] plain = {100, 100, 100, 100};
        double[] sdk = {98, 99, 101, 102};
        double[] logs = {Math.log(0.98), Math.log(0.99), Math.log(1.01), Math.log(1.02)};
        assertEquals(Math.exp(Intervals.mean(logs).low()), Intervals.ratio(sdk, plain).low(), 1e-12);
    }
}
