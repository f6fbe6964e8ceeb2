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
package io.gapless.kafka.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * One sequence of the differential tester, drawn from a seed alone: the settings and every step
 * with its random parameters. Nothing here depends on what the cluster or the consumers do, so a
 * seed names the same sequence on every run and every code version (a step that does not apply
 * when it comes, say a seek on a partition not assigned yet, is skipped, not redrawn).
 *
 * @param seed       the seed
 * @param protocol   {@code group.protocol} of both consumers (the seed's parity: even classic, odd consumer)
 * @param base       {@code auto.offset.reset} of both
 * @param newPolicy  the SDK's {@code auto.offset.reset.new.partitions}
 * @param subscribe  {@code subscribe} (else {@code assign}) the topics
 * @param baselineOn the broker that alone holds the SDK group's baseline topic (an operator created it so), or -1: replicated
 * @param steps      the steps
 */
record DiffPlan(long seed, String protocol, String base, String newPolicy, boolean subscribe, int baselineOn, List<Step> steps) {

    /** What one step does; its parameters {@code a} and {@code b} pick a partition, an offset, a broker. */
    enum Kind {
        PRODUCE, POLL, COMMIT_SYNC, COMMIT_ASYNC, SEEK, SEEK_TO_BEGINNING, SEEK_TO_END, PAUSE_OR_RESUME, POSITION, WAKEUP,
        RESTART, ADD_PARTITION, ADD_PARTITION_THEN_STOP_ITS_BROKER, STOP_BROKER, START_BROKER, DELETE_RECORDS,
        DELETE_OFFSETS, RECREATE_TOPIC
    }

    /** One step; {@code a} and {@code b} are non-negative random ints. */
    record Step(Kind kind, int a, int b) {
    }

    // How often each kind is drawn, in Kind's order: polls and writes often, cluster events rarely.
    private static final int[] WEIGHTS = {4, 4, 1, 1, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 2, 2, 1, 1};

    static DiffPlan of(long seed, int steps) {
        Random random = new Random(seed);
        String base = random.nextBoolean() ? "earliest" : "latest";
        String newPolicy = random.nextBoolean() ? "earliest" : "latest";
        boolean subscribe = random.nextBoolean();
        int baselineOn = random.nextBoolean() ? random.nextInt(3) : -1;
        int total = 0;
        for (int w : WEIGHTS) {
            total += w;
        }
        List<Step> out = new ArrayList<>();
        for (int i = 0; i < steps; i++) {
            int pick = random.nextInt(total);
            int k = 0;
            while (pick >= WEIGHTS[k]) {
                pick -= WEIGHTS[k++];
            }
            out.add(new Step(Kind.values()[k], random.nextInt(1 << 20), random.nextInt(1 << 20)));
        }
        return new DiffPlan(seed, (seed & 1) == 0 ? "classic" : "consumer", base, newPolicy, subscribe, baselineOn, List.copyOf(out));
    }

    /** How to replay this plan. */
    String replay() {
        return "seed " + seed + " (replay with -Dgapless.diff.seed=" + seed + "): group.protocol=" + protocol + ", auto.offset.reset="
                + base + ", auto.offset.reset.new.partitions=" + newPolicy + ", " + (subscribe ? "subscribe" : "assign")
                + (baselineOn >= 0 ? ", baseline topic on broker " + baselineOn + " alone" : "");
    }
}
