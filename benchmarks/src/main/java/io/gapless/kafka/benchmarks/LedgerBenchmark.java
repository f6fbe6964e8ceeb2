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

import org.apache.kafka.common.Uuid;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.ref.Reference;
import java.util.List;
import java.util.Optional;
import java.util.Random;

/**
 * The ack ledger's costs (KIP-1289 emulation in sdk-share):
 * <ul>
 *   <li>heap per million acknowledged ranges held by the in-memory ledger index;</li>
 *   <li>the in-memory redelivery lookup ({@code covering}) on that index;</li>
 *   <li>ledger bytes written per committed transaction, from a real transactional share loop;</li>
 *   <li>redelivered records in that loop: the ledger is only consulted for those, so zero
 *       redeliveries means no lookup on first deliveries.</li>
 * </ul>
 * Each part is skipped until the classes it needs are built.
 */
public final class LedgerBenchmark implements Benchmark {
    static final String NAME = "ledger";
    private static final Logger log = LoggerFactory.getLogger(LedgerBenchmark.class);
    private static final int SHARE_PARTITIONS = 16;
    private static final int RANGE_LENGTH = 10;
    // Measured lookups, after as many un-timed ones (the JIT's warm-up: the figure is the steady state).
    private static final int LOOKUPS = 20_000;
    static final double TARGET_LOOKUP_P99_US = 5;
    static final double TARGET_BYTES_PER_RANGE = 40;
    private static final int PARTITIONS = 4;
    private static final String LEDGER_TOPIC_PREFIX_FALLBACK = "__gapless_ledger.";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<BenchmarkResult> run(BenchmarkContext ctx) {
        StringBuilder missingIndex = new StringBuilder();
        Optional<LedgerInternals> internals = LedgerInternals.load(missingIndex);
        StringBuilder missingApi = new StringBuilder();
        Optional<ShareSdk> sdk = ShareSdk.load(missingApi);
        if (internals.isEmpty() && sdk.isEmpty()) {
            log.info("ledger: sdk-share's ack ledger is not built yet ({}, {}): skipped", missingIndex, missingApi);
            return List.of(BenchmarkResult.skipped(NAME, "not-yet-built", "ack ledger (sdk-share) not built yet"));
        }
        BenchmarkResult result = new BenchmarkResult(NAME);
        if (internals.isPresent()) {
            measureIndex(internals.get(), ctx.mode().ledgerRanges(), ctx.mode() == BenchmarkMode.SMOKE ? 1 : 4, result);
        } else {
            result.metric("index", "skipped");
            result.row(new TableRow(NAME, "heap per million ranges / redelivery lookup", "", "skipped (" + missingIndex + ")", "", "", "not run"));
        }
        if (sdk.isPresent() && ctx.mode() == BenchmarkMode.SMOKE) {
            // share-eos runs the same transactional share loop; the smoke mode keeps to seconds.
            result.metric("loop", "skipped-in-smoke-mode");
        } else if (sdk.isPresent()) {
            measureLoop(ctx, sdk.get(), result);
        } else {
            result.metric("loop", "skipped");
            result.row(new TableRow(NAME, "ledger bytes per committed transaction", "", "skipped (" + missingApi + ")", "", "", "not run"));
        }
        return List.of(result);
    }

    private static void measureIndex(LedgerInternals ledger, int ranges, int gcRounds, BenchmarkResult result) {
        Object[] keys = new Object[SHARE_PARTITIONS];
        Uuid topicId = Uuid.randomUuid();
        for (int k = 0; k < keys.length; k++) {
            keys[k] = ledger.newKey("bench-group", topicId, "bench-topic", k);
        }
        long before = HeapMeter.settledUsedBytes(gcRounds);
        Object index = ledger.newIndex();
        long[] next = new long[keys.length];
        for (int i = 0; i < ranges; i++) {
            int k = i % keys.length;
            // A fresh String per entry, as decoding ledger records produces.
            String transactionalId = "bench-tx-" + (i % 8);
            ledger.addRange(index, keys[k], i, transactionalId, next[k], next[k] + RANGE_LENGTH - 1);
            next[k] += RANGE_LENGTH;
        }
        long after = HeapMeter.settledUsedBytes(gcRounds);
        double bytesPerRange = (after - before) / (double) ranges;
        double mbPerMillion = bytesPerRange * 1_000_000 / (1024 * 1024);

        Random warm = new Random(3);
        for (int i = 0; i < LOOKUPS; i++) {
            int k = warm.nextInt(keys.length);
            ledger.covered(index, keys[k], (long) (warm.nextDouble() * next[k]));
        }
        LatencySamples lookups = new LatencySamples();
        Random random = new Random(7);
        int hits = 0;
        for (int i = 0; i < LOOKUPS; i++) {
            int k = random.nextInt(keys.length);
            long offset = (long) (random.nextDouble() * next[k]);
            long t = System.nanoTime();
            if (ledger.covered(index, keys[k], offset)) {
                hits++;
            }
            lookups.add(System.nanoTime() - t);
        }
        Reference.reachabilityFence(index);
        if (hits != LOOKUPS) {
            throw new IllegalStateException("ledger index found " + hits + " of " + LOOKUPS + " offsets it holds");
        }
        double p50 = lookups.percentileMicros(50);
        double p99 = lookups.percentileMicros(99);
        int perPartition = ranges / keys.length;
        result.metric("ranges", ranges)
                .metric("ranges_per_share_partition", perPartition)
                .metric("heap_bytes_per_range", bytesPerRange)
                .metric("heap_mib_per_million_ranges", mbPerMillion)
                .metric("lookup_p50_us", p50)
                .metric("lookup_p99_us", p99)
                .row(TableRow.checked(NAME, "heap per acknowledged range held (" + ranges + " ranges measured, " + keys.length
                                + " share-partitions)", "-", Format.number(bytesPerRange) + " B/range (" + Format.number(mbPerMillion)
                                + " MiB per million)", "", "<= " + Format.number(TARGET_BYTES_PER_RANGE) + " B/range",
                        bytesPerRange <= TARGET_BYTES_PER_RANGE))
                .row(TableRow.checked(NAME, "redelivery lookup in memory, p50 / p99 (" + perPartition + " ranges per share-partition, "
                                + LOOKUPS + " lookups after as many un-timed)", "-", Format.micros(p50) + " / " + Format.micros(p99), "",
                        "p99 <= " + Format.number(TARGET_LOOKUP_P99_US) + " us", p99 <= TARGET_LOOKUP_P99_US));
    }

    private static void measureLoop(BenchmarkContext ctx, ShareSdk sdk, BenchmarkResult result) {
        // One ledger topic per share group: the loop's group is its own, so every ledger topic's growth is the loop's.
        String ledgerPrefix = ShareSdk.ledgerTopicPrefix().orElse(LEDGER_TOPIC_PREFIX_FALLBACK);
        int records = Math.min(ctx.mode().shareEosRecords(), 20_000);
        String input = ctx.unique("ledger-in");
        String output = ctx.unique("ledger-out");
        TopicLoader.load(ctx.kafka(), input, PARTITIONS, records);
        TopicLoader.create(ctx.kafka(), output, PARTITIONS);
        long before = TopicSizes.bytesWithPrefix(ctx.kafka(), ledgerPrefix);
        LoopOutcome o = new LedgerShareLoop(sdk).run(ctx, input, output, records, ctx.mode().eosBatch(), 0);
        long after = TopicSizes.bytesWithPrefix(ctx.kafka(), ledgerPrefix);
        ctx.kafka().deleteTopics(input, output);
        double perTx = o.commits() == 0 ? Double.NaN : (after - before) / (double) o.commits();
        result.metric("transactions", o.commits())
                .metric("ledger_bytes_per_transaction", perTx)
                .metric("first_delivery_redelivered", o.redelivered())
                .row(TableRow.info(NAME, "ledger bytes written per committed transaction (" + o.commits() + " transactions, batch "
                        + ctx.mode().eosBatch() + ")", "-", Format.number(perTx) + " B", ""))
                .row(TableRow.checked(NAME, "records that needed a ledger lookup (deliveryCount > 1) in a run of first deliveries",
                        "-", Long.toString(o.redelivered()), "", "no lookup on first deliveries", o.redelivered() == 0));
    }
}
