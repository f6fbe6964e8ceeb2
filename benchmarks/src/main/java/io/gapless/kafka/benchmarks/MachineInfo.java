package io.gapless.kafka.benchmarks;

import org.apache.kafka.common.utils.internals.AppInfoParser;

import java.lang.management.ManagementFactory;
import java.util.Locale;

/** Where the numbers were measured: cores, memory, Java, Kafka. */
public final class MachineInfo {
    private MachineInfo() {
    }

    public static String describe() {
        long physical = -1;
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            physical = os.getTotalMemorySize();
        }
        return String.format(Locale.ROOT, "%d cores, %s memory, max heap %s, Java %s (%s), %s %s, Kafka %s",
                Runtime.getRuntime().availableProcessors(), gib(physical), gib(Runtime.getRuntime().maxMemory()),
                System.getProperty("java.runtime.version"), System.getProperty("java.vm.name"),
                System.getProperty("os.name"), System.getProperty("os.arch"), AppInfoParser.getVersion());
    }

    private static String gib(long bytes) {
        return bytes < 0 ? "unknown" : String.format(Locale.ROOT, "%.1f GiB", bytes / (1024.0 * 1024 * 1024));
    }

    /** The system load average over the last minute (other processes compete for the same cores). */
    public static String loadAverage() {
        double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        return load < 0 ? "unknown" : String.format(Locale.ROOT, "%.2f", load);
    }
}
