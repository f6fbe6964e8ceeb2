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

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;

import java.time.Duration;

/** Throughput and commit-latency bookkeeping shared by the consume-transform-produce loops. */
final class LoopTimer {
    private static final Duration RUN_TIMEOUT = Duration.ofMinutes(3);

    private final LatencySamples commits = new LatencySamples();
    private final LatencySamples polls = new LatencySamples();
    private final LatencySamples sends = new LatencySamples();
    private final long deadline = System.nanoTime() + RUN_TIMEOUT.toNanos();
    private final String what;
    private long start = -1;
    private long end;
    private long processed;
    private long redelivered;

    LoopTimer(String what) {
        this.what = what;
    }

    /** Call with every non-empty poll's batch size and how long that poll took, right after it returned. */
    void batch(int records, long pollNanos) {
        polls.add(pollNanos);
        if (start < 0) {
            start = System.nanoTime();
        }
        processed += records;
    }

    /** Counts records that came back ({@code deliveryCount() > 1}). */
    void redelivered(ConsumerRecords<?, ?> records) {
        for (ConsumerRecord<?, ?> r : records) {
            if (r.deliveryCount().orElse((short) 1) > 1) {
                redelivered++;
            }
        }
    }

    /** Call when the batch's outputs are sent (before the commit starts), with when they started. */
    void sent(long sendsBeganNanos) {
        sends.add(System.nanoTime() - sendsBeganNanos);
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
                commits.percentileMicros(99), commits.size() == 0 ? Double.NaN : (double) processed / commits.size(), commits.size(), redelivered,
                polls.percentileMicros(50), sends.percentileMicros(50));
    }
}
