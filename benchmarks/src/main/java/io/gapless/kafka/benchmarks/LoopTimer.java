package io.gapless.kafka.benchmarks;

import java.time.Duration;

/** Throughput and commit-latency bookkeeping shared by the consume-transform-produce loops. */
final class LoopTimer {
    private static final Duration RUN_TIMEOUT = Duration.ofMinutes(3);

    private final LatencySamples commits = new LatencySamples();
    private final long deadline = System.nanoTime() + RUN_TIMEOUT.toNanos();
    private final String what;
    private long start = -1;
    private long end;
    private long processed;

    LoopTimer(String what) {
        this.what = what;
    }

    /** Call with every non-empty poll's batch size, right after the poll returned. */
    void batch(int records) {
        if (start < 0) {
            start = System.nanoTime();
        }
        processed += records;
    }

    void commit(long beganNanos) {
        end = System.nanoTime();
        commits.add(end - beganNanos);
    }

    boolean done(long target) {
        if (System.nanoTime() > deadline) {
            throw new IllegalStateException(what + " processed " + processed + " of " + target + " records in " + RUN_TIMEOUT);
        }
        return processed >= target;
    }

    LoopOutcome outcome() {
        double seconds = (end - start) / 1e9;
        return new LoopOutcome(seconds > 0 ? processed / seconds : Double.NaN, commits.percentileMicros(50),
                commits.percentileMicros(99), commits.size() == 0 ? Double.NaN : (double) processed / commits.size(), commits.size());
    }
}
