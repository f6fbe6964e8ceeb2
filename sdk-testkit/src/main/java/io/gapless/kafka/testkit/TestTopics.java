package io.gapless.kafka.testkit;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Unique topic and group names, so tests sharing one cluster never see each other's data.
 *
 * @since 0.1.0
 */
public final class TestTopics {
    private static final AtomicInteger COUNTER = new AtomicInteger();
    private static final String RUN = Long.toString(System.currentTimeMillis() % 1_000_000, 36);

    private TestTopics() {
    }

    /** A name that starts with {@code prefix} and is unique in this JVM and across recent runs. */
    public static String unique(String prefix) {
        return prefix + "-" + RUN + "-" + COUNTER.incrementAndGet();
    }
}
