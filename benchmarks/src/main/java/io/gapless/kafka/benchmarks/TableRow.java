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

/**
 * One row of the printed results table: a figure measured for plain Kafka and for the SDK, how
 * they relate (a ratio or a difference), the target and whether it is met.
 *
 * @param status {@code met}, {@code MISSED}, {@code unresolved} or empty
 */
public record TableRow(String benchmark, String figure, String plain, String sdk, String relation, String target,
                       String status) {

    /** A row with a target: {@code met} when {@code ok}, {@code MISSED} otherwise. */
    public static TableRow checked(String benchmark, String figure, String plain, String sdk, String relation,
                                   String target, boolean ok) {
        return new TableRow(benchmark, figure, plain, sdk, relation, target, ok ? "met" : "MISSED");
    }

    /**
     * A row whose target is a lower bound on a ratio known with a 95% interval: {@code met} when
     * the whole interval is at or above {@code atLeast}, {@code MISSED} when all of it is below,
     * {@code unresolved} when the interval straddles it.
     */
    public static TableRow resolved(String benchmark, String figure, String plain, String sdk, String relation, String target,
                                    Intervals.Interval ratio, double atLeast) {
        String status = Double.isNaN(ratio.low()) ? (ratio.estimate() >= atLeast ? "met" : "MISSED")
                : ratio.low() >= atLeast ? "met" : ratio.high() < atLeast ? "MISSED" : "unresolved";
        return new TableRow(benchmark, figure, plain, sdk, relation, target, status);
    }

    /** A row without a target. */
    public static TableRow info(String benchmark, String figure, String plain, String sdk, String relation) {
        return new TableRow(benchmark, figure, plain, sdk, relation, "", "");
    }
}
