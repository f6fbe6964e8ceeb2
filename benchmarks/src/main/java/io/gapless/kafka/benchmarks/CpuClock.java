package io.gapless.kafka.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * CPU time of the calling thread. Less disturbed by other processes on a shared machine than wall
 * time, and it is where a decorator's per-call overhead lands.
 */
final class CpuClock {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private CpuClock() {
    }

    /** Nanoseconds of CPU this thread has used, or -1 when the JVM cannot tell. */
    static long threadNanos() {
        return THREADS.isCurrentThreadCpuTimeSupported() ? THREADS.getCurrentThreadCpuTime() : -1;
    }
}
