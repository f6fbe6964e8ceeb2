package io.gapless.kafka.benchmarks;

import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;

import java.util.Map;

/** Reads the SDK's counters out of a client's {@code metrics()}. */
public final class SdkMetrics {
    private SdkMetrics() {
    }

    /** The sum of every metric called {@code name} (all tag combinations); 0 when there is none. */
    public static long sum(Map<MetricName, ? extends Metric> metrics, String name) {
        double total = 0;
        for (Map.Entry<MetricName, ? extends Metric> e : metrics.entrySet()) {
            if (e.getKey().name().equals(name) && e.getValue().metricValue() instanceof Number n) {
                total += n.doubleValue();
            }
        }
        return Math.round(total);
    }
}
