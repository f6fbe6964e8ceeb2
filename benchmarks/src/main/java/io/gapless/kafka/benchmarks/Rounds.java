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

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Runs several variants in rounds: each round runs every variant once, and the order cycles
 * through every permutation of the variants (for three: ABC, ACB, BAC, BCA, CAB, CBA), so each
 * variant runs equally often first, in the middle and last, and each one equally often just
 * before each other one. Load that drifts on a shared machine then hits every variant alike.
 * Warm-up rounds run first and are discarded.
 */
public final class Rounds {
    private static final Logger log = LoggerFactory.getLogger(Rounds.class);

    /** How often {@link #runUntil} looks at the intervals (a multiple of 3! = 6 keeps three variants' orders balanced). */
    static final int CHECK_EVERY = 30;

    private Rounds() {
    }

    /** One variant's run. */
    @FunctionalInterface
    public interface Turn<T> {
        /**
         * @param round the round (the same for every variant of a round; warm-up rounds are negative)
         * @param run   a number unique per call, for names
         */
        T run(int round, int run);
    }

    /** Runs {@code warmupRounds + rounds} rounds; returns the measured results per variant, in round order. */
    public static <T> List<List<T>> run(String what, int warmupRounds, int rounds, List<Turn<T>> variants) {
        List<int[]> orders = permutations(variants.size());
        List<List<T>> out = new ArrayList<>();
        variants.forEach(v -> out.add(new ArrayList<>()));
        int run = 0;
        for (int r = -warmupRounds; r < rounds; r++) {
            int[] order = orders.get(Math.floorMod(r, orders.size()));
            if (r < 0) {
                log.debug("{}: warm-up round {}/{}", what, r + warmupRounds + 1, warmupRounds);
            } else if (rounds <= 20 || r % 10 == 0) {
                log.info("{}: round {}/{}", what, r + 1, rounds);
            }
            for (int v : order) {
                T result = variants.get(v).run(r, run++);
                if (r >= 0) {
                    out.get(v).add(result);
                }
            }
        }
        return out;
    }

    /**
     * Runs {@code warmupRounds} discarded rounds, then measured rounds until {@code precise} holds
     * for the results so far (checked every {@link #CHECK_EVERY} rounds from {@code minRounds} on),
     * {@code maxRounds} are done or {@code budget} is spent. The stopping rule looks only at the
     * widths of intervals, never at an estimate, so it does not steer the ratio it reports; rounds
     * stop on a whole permutation cycle past {@code minRounds}, keeping the orders balanced.
     */
    public static <T> List<List<T>> runUntil(String what, int warmupRounds, int minRounds, int maxRounds, Duration budget,
                                             List<Turn<T>> variants, Predicate<List<List<T>>> precise) {
        List<int[]> orders = permutations(variants.size());
        List<List<T>> out = new ArrayList<>();
        variants.forEach(v -> out.add(new ArrayList<>()));
        int run = 0;
        long deadline = Long.MAX_VALUE;
        for (int r = -warmupRounds; ; r++) {
            if (r == 0) {
                deadline = System.nanoTime() + budget.toNanos();
            }
            boolean checkpoint = r >= minRounds && (r == minRounds || r % CHECK_EVERY == 0 && r % orders.size() == 0);
            if (r >= maxRounds || checkpoint && (System.nanoTime() > deadline || precise.test(out))) {
                log.info("{}: stopped after {} measured rounds{}", what, r, r >= maxRounds ? " (the most allowed)"
                        : System.nanoTime() > deadline ? " (time budget " + budget + " spent)" : " (intervals narrow enough)");
                return out;
            }
            int[] order = orders.get(Math.floorMod(r, orders.size()));
            if (r >= 0 && r % 50 == 0) {
                log.info("{}: round {}", what, r + 1);
            }
            for (int v : order) {
                T result = variants.get(v).run(r, run++);
                if (r >= 0) {
                    out.get(v).add(result);
                }
            }
        }
    }

    /** Every permutation of {@code 0..n-1}, in lexicographic order. */
    static List<int[]> permutations(int n) {
        List<int[]> out = new ArrayList<>();
        permute(new int[n], new boolean[n], 0, out);
        return out;
    }

    private static void permute(int[] current, boolean[] used, int depth, List<int[]> out) {
        if (depth == current.length) {
            out.add(current.clone());
            return;
        }
        for (int i = 0; i < current.length; i++) {
            if (!used[i]) {
                used[i] = true;
                current[depth] = i;
                permute(current, used, depth + 1, out);
                used[i] = false;
            }
        }
    }
}
