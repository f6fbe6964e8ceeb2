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
package io.gapless.kafka.core.spi;

import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.Metrics;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * One metric the SDK registers, defined once: the metrics classes create their {@link MetricName}s
 * from it and the generated metrics reference (docs/metrics.md) lists it, so the two cannot drift
 * (Kafka's {@code MetricNameTemplate} does the same for its own clients' metrics).
 *
 * @param name        the metric's name, for example {@code resets-total}
 * @param group       its group, for example {@code gapless-consumer-metrics}
 * @param jmxDomain   the JMX domain it is reported under, for example {@code gapless.consumer}
 * @param type        what kind of value it is
 * @param description its description, as {@code metrics()} reports it
 * @param tags        the names of its tags, in order
 * @since 0.1.0
 */
public record MetricDefinition(String name, String group, String jmxDomain, Type type, String description, List<String> tags) {

    /** What kind of value a metric has. */
    public enum Type {
        /** The current value of something (a state as a number, a size). */
        GAUGE("gauge"),
        /** A cumulative count or sum since the client started ({@code -total}). */
        TOTAL("cumulative total"),
        /** Per second, over Kafka's sample window ({@code -rate}). */
        RATE("rate per second"),
        /** The average over the sample window ({@code -avg}). */
        AVG("windowed average"),
        /** The maximum over the sample window ({@code -max}). */
        MAX("windowed maximum");

        private final String label;

        Type(String label) {
            this.label = label;
        }

        /** How the reference names the type, for example {@code cumulative total}. */
        public String label() {
            return label;
        }
    }

    public MetricDefinition {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(group, "group");
        tags = List.copyOf(tags);
    }

    /** The {@code -total}/{@code -rate} pair of a counter of {@code what} ("The total number of ...", "The number of ... per second"). */
    public static List<MetricDefinition> counter(String base, String group, String jmxDomain, String what, List<String> tags) {
        return List.of(new MetricDefinition(base + "-total", group, jmxDomain, Type.TOTAL, "The total number of " + what, tags),
                new MetricDefinition(base + "-rate", group, jmxDomain, Type.RATE, "The number of " + what + " per second", tags));
    }

    /** Whether {@code metric} is one of this definition's: the same name, group, description and tag names. */
    public boolean describes(MetricName metric) {
        return metric.name().equals(name) && metric.group().equals(group) && metric.description().equals(description)
                && metric.tags().keySet().equals(Set.copyOf(tags));
    }

    /**
     * This metric's name in {@code metrics} with these tag values.
     *
     * @throws IllegalArgumentException when the tags are not exactly this definition's
     */
    public MetricName in(Metrics metrics, Map<String, String> tagValues) {
        if (!tagValues.keySet().equals(Set.copyOf(tags))) {
            throw new IllegalArgumentException("Metric " + name + " has tags " + tags + ", got " + tagValues.keySet());
        }
        return metrics.metricName(name, group, description, tagValues);
    }
}
