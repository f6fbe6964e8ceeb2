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
