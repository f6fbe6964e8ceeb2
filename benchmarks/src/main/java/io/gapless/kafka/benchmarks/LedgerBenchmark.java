package io.gapless.kafka.benchmarks;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Optional;

/**
 * The ack ledger's costs (KIP-1289 emulation): heap per million acknowledged ranges held, ledger
 * bytes written per committed transaction, and the cost of a redelivery lookup (none on first
 * deliveries). Skipped until sdk-share's ledger is built.
 */
public final class LedgerBenchmark implements Benchmark {
    static final String NAME = "ledger";
    private static final Logger log = LoggerFactory.getLogger(LedgerBenchmark.class);

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<BenchmarkResult> run(BenchmarkContext ctx) {
        StringBuilder missing = new StringBuilder();
        Optional<ShareSdk> sdk = ShareSdk.load(missing);
        if (sdk.isEmpty()) {
            log.info("ledger: SDK share API not built yet ({}): skipped", missing);
            return List.of(BenchmarkResult.skipped(NAME, "not-yet-built", "ack ledger (sdk-share) not built yet"));
        }
        return List.of(BenchmarkResult.skipped(NAME, "not-wired", "ack ledger present but its measurements are not wired yet"));
    }
}
