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

import java.util.List;

/**
 * How big a benchmark run is. {@link #FULL} is the run whose numbers go into {@code RESULTS.md};
 * {@link #QUICK} is a shorter run for checking a change; {@link #SMOKE} only proves that every
 * benchmark still runs end to end (its numbers mean nothing).
 */
public enum BenchmarkMode {
    FULL(new Throughput(1_000_000, 200_000, 50_000, 150, 3000, java.time.Duration.ofMinutes(7), 6, 5), new Expansion(5, 2), new Eos(100_000, 500, 7, 3),
            1_000_000, new Jmh(5, 3, 5, 1000), List.of("classic", "consumer")),
    QUICK(new Throughput(400_000, 100_000, 25_000, 40, 40, java.time.Duration.ofMinutes(1), 3, 3), new Expansion(2, 1), new Eos(20_000, 500, 3, 1),
            200_000, new Jmh(2, 2, 3, 500), List.of("classic", "consumer")),
    SMOKE(new Throughput(2_000, 500, 500, 2, 2, java.time.Duration.ofSeconds(10), 0, 1), new Expansion(1, 1), new Eos(600, 100, 1, 0),
            10_000, new Jmh(1, 1, 1, 100), List.of("classic"));

    /**
     * The consume and produce benchmarks: live clients measured in rounds of segments.
     *
     * @param consumeRecords records of 100 bytes in the topic the consumers read (over and over)
     * @param consumeSegment records one consumer reads per turn
     * @param produceSegment records one producer writes per turn (then {@code flush()})
     * @param rounds         measured rounds at least (each: one segment per client)
     * @param maxRounds      measured rounds at most: rounds go on past {@code rounds} until the ratio's and the
     *                       A/A control's 95% intervals are both narrower than {@link ThroughputFigures#RESOLUTION}
     * @param budget         time the measured rounds may take at most (the interval is reported as reached then)
     * @param warmupRounds   discarded rounds before them
     * @param startupPairs   new groups started per client kind to time subscribe-to-first-record
     */
    public record Throughput(int consumeRecords, int consumeSegment, int produceSegment, int rounds, int maxRounds,
                             java.time.Duration budget, int warmupRounds, int startupPairs) {
    }

    /**
     * @param runs        measured rounds of the running scenario (one run per client kind each)
     * @param stoppedRuns rounds of the scenario where partitions are added while the group is stopped
     */
    public record Expansion(int runs, int stoppedRuns) {
    }

    /**
     * @param records     input records per run of each consume-transform-produce loop
     * @param batch       records per poll and per commit
     * @param pairs       measured A/B pairs
     * @param warmupPairs discarded pairs before them
     */
    public record Eos(int records, int batch, int pairs, int warmupPairs) {
    }

    /**
     * @param pairs                 JMH forks per side, alternating
     * @param warmupIterations      warm-up iterations per fork
     * @param measurementIterations measured iterations per fork
     * @param iterationMillis       length of one iteration
     */
    public record Jmh(int pairs, int warmupIterations, int measurementIterations, int iterationMillis) {
    }

    private final Throughput throughput;
    private final Expansion expansion;
    private final Eos eos;
    private final int ledgerRanges;
    private final Jmh jmh;
    private final List<String> expansionProtocols;

    BenchmarkMode(Throughput throughput, Expansion expansion, Eos eos, int ledgerRanges, Jmh jmh, List<String> expansionProtocols) {
        this.throughput = throughput;
        this.expansion = expansion;
        this.eos = eos;
        this.ledgerRanges = ledgerRanges;
        this.jmh = jmh;
        this.expansionProtocols = expansionProtocols;
    }

    public Throughput throughput() {
        return throughput;
    }

    /** Records of 100 bytes in the consume benchmark's topic. */
    public int consumeRecords() {
        return throughput.consumeRecords();
    }

    /** Measured expansion runs per client kind and group protocol. */
    public int expansionRuns() {
        return expansion.runs();
    }

    /** Runs per client kind and group protocol of the scenario where partitions are added while the group is stopped. */
    public int expansionStoppedRuns() {
        return expansion.stoppedRuns();
    }

    /** Input records per run of each consume-transform-produce loop. */
    public int shareEosRecords() {
        return eos.records();
    }

    /** Records per poll and per commit in the consume-transform-produce loops. */
    public int eosBatch() {
        return eos.batch();
    }

    /** Acknowledged ranges held in memory by the ledger heap measurement. */
    public int ledgerRanges() {
        return ledgerRanges;
    }

    /** Measured A/B pairs of the share-eos benchmark. */
    public int pairs() {
        return eos.pairs();
    }

    /** Discarded warm-up pairs of the share-eos benchmark (and warm-up rounds of the expansion benchmark). */
    public int warmupPairs() {
        return eos.warmupPairs();
    }

    public Jmh jmh() {
        return jmh;
    }

    /** Whether the share-eos benchmark also runs its extra variants (not in smoke runs). */
    public boolean controls() {
        return this != SMOKE;
    }

    /** Group protocols the expansion benchmark runs on. */
    public List<String> expansionProtocols() {
        return expansionProtocols;
    }
}
