package io.gapless.kafka.core;

import org.apache.kafka.clients.consumer.Consumer;

import java.time.Duration;

/** Test helper: what {@code poll()} throws first, or an assertion error if it never throws. */
final class PollFailures {
    private PollFailures() {
    }

    static RuntimeException firstFailure(Consumer<?, ?> consumer, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            try {
                consumer.poll(Duration.ofMillis(200));
            } catch (RuntimeException e) {
                return e;
            }
        }
        throw new AssertionError("poll() did not fail within " + timeout);
    }
}
