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
