package io.gapless.kafka.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;

/** Used heap after repeated full collections: rough, but enough for tens of megabytes held by one structure. */
final class HeapMeter {
    private HeapMeter() {
    }

    static long settledUsedBytes(int rounds) {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long best = Long.MAX_VALUE;
        for (int i = 0; i < rounds; i++) {
            System.gc();
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            best = Math.min(best, memory.getHeapMemoryUsage().getUsed());
        }
        return best;
    }
}
