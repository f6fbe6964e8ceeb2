package io.gapless.kafka.benchmarks;

import java.util.List;

/**
 * How big a benchmark run is. {@link #FULL} is the run whose numbers go into {@code RESULTS.md};
 * {@link #QUICK} finishes within about three minutes on two cores; {@link #SMOKE} only proves that
 * every benchmark still runs end to end (its numbers mean nothing).
 */
public enum BenchmarkMode {
    //      consume  produce  expansion  share-eos  eos    ledger
    //      records  records  runs       records    batch  ranges     pairs  warmup
    FULL(1_000_000, 500_000, 5, 100_000, 500, 1_000_000, 7, 3, List.of("classic", "consumer")),
    QUICK(500_000, 100_000, 2, 20_000, 500, 200_000, 3, 1, List.of("classic", "consumer")),
    SMOKE(2_000, 2_000, 1, 600, 100, 10_000, 1, 0, List.of("classic"));

    private final int consumeRecords;
    private final int produceRecords;
    private final int expansionRuns;
    private final int shareEosRecords;
    private final int eosBatch;
    private final int ledgerRanges;
    private final int pairs;
    private final int warmupPairs;
    private final List<String> expansionProtocols;

    BenchmarkMode(int consumeRecords, int produceRecords, int expansionRuns, int shareEosRecords, int eosBatch,
                  int ledgerRanges, int pairs, int warmupPairs, List<String> expansionProtocols) {
        this.consumeRecords = consumeRecords;
        this.produceRecords = produceRecords;
        this.expansionRuns = expansionRuns;
        this.shareEosRecords = shareEosRecords;
        this.eosBatch = eosBatch;
        this.ledgerRanges = ledgerRanges;
        this.pairs = pairs;
        this.warmupPairs = warmupPairs;
        this.expansionProtocols = expansionProtocols;
    }

    /** Records of 100 bytes read per run by the consume benchmark. */
    public int consumeRecords() {
        return consumeRecords;
    }

    /** Records of 100 bytes written per run by the produce benchmark. */
    public int produceRecords() {
        return produceRecords;
    }

    /** Measured expansion runs per client and group protocol (after the discarded warm-up pairs). */
    public int expansionRuns() {
        return expansionRuns;
    }

    /** Input records per run of each consume-transform-produce loop. */
    public int shareEosRecords() {
        return shareEosRecords;
    }

    /** Records per poll and per commit in the consume-transform-produce loops. */
    public int eosBatch() {
        return eosBatch;
    }

    /** Acknowledged ranges held in memory by the ledger heap measurement. */
    public int ledgerRanges() {
        return ledgerRanges;
    }

    /** Measured A/B pairs of the throughput benchmarks. */
    public int pairs() {
        return pairs;
    }

    /** Discarded warm-up A/B pairs before the measured ones. */
    public int warmupPairs() {
        return warmupPairs;
    }

    /** Group protocols the expansion benchmark runs on. */
    public List<String> expansionProtocols() {
        return expansionProtocols;
    }

    /** Whether the throughput benchmarks also run an A/A control (plain against plain) to show the noise floor. */
    public boolean controls() {
        return this != SMOKE;
    }
}
