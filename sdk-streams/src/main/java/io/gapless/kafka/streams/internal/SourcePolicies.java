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
package io.gapless.kafka.streams.internal;

import io.gapless.kafka.core.ResetPolicy;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.streams.AutoOffsetReset;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The source topics of a topology as the user declared them, with the {@link AutoOffsetReset}
 * each was given (Kafka Streams keeps only an internal copy that drops a new-partitions policy).
 * Invalid policies are rejected when recorded, with a {@link ConfigException} naming the topic.
 * Thread-safe: the builders that feed it are {@code synchronized}, the plan reads a snapshot.
 */
public final class SourcePolicies {

    /** A source and its declared policy; {@code policy} is null when the user gave none. */
    public record Declared(AutoOffsetReset policy) {
        public Optional<AutoOffsetReset> declared() {
            return Optional.ofNullable(policy);
        }
    }

    private final Map<String, Declared> topics = new LinkedHashMap<>();
    private final List<Map.Entry<Pattern, Declared>> patterns = new ArrayList<>();
    private final Set<String> globalTopics = new TreeSet<>();

    /** Records stream or table source topics read by the main consumer. */
    public synchronized void recordTopics(Collection<String> names, AutoOffsetReset policy) {
        for (String topic : names) {
            validate("source topic '" + topic + "'", policy);
        }
        names.forEach(t -> topics.put(t, new Declared(policy)));
    }

    /** Records a pattern source read by the main consumer. */
    public synchronized void recordPattern(Pattern pattern, AutoOffsetReset policy) {
        validate("source pattern '" + pattern + "'", policy);
        patterns.add(Map.entry(pattern, new Declared(policy)));
    }

    /**
     * Records a global-store topic: it is restored by the global thread, never by the main
     * consumer, so a new-partitions policy on it is a mistake.
     */
    public synchronized void recordGlobal(String topic, AutoOffsetReset policy) {
        if (policy != null && AutoOffsetResets.newPartitionsPolicyOf(policy).isPresent()) {
            throw new ConfigException("Topic '" + topic + "' is a global-store topic, not a source of the stream"
                    + " threads: a new-partitions reset policy (" + AutoOffsetResets.describe(policy) + ") does not apply to"
                    + " it (global stores are always read from the beginning). Remove withNewPartitionsResetPolicy for '" + topic + "'");
        }
        globalTopics.add(topic);
    }

    /** Throws {@link ConfigException} naming {@code what} when {@code policy} carries an invalid new-partitions policy. */
    static void validate(String what, AutoOffsetReset policy) {
        if (policy == null) {
            return;
        }
        Optional<AutoOffsetReset> np = AutoOffsetResets.newPartitionsPolicyOf(policy);
        if (np.isEmpty()) {
            return;
        }
        AutoOffsetReset newPolicy = np.get();
        if (AutoOffsetResets.newPartitionsPolicyOf(newPolicy).isPresent()) {
            throw new ConfigException("Invalid reset policy for " + what + ": the new-partitions policy "
                    + AutoOffsetResets.describe(newPolicy) + " itself carries a new-partitions policy; nesting is not allowed,"
                    + " pass a plain policy such as AutoOffsetReset.earliest()");
        }
        if (AutoOffsetResets.toResetPolicy(newPolicy).kind() == ResetPolicy.Kind.NONE) {
            throw new ConfigException("Invalid reset policy for " + what + ": none is not a new-partitions policy;"
                    + " use earliest, latest or byDuration, or do not attach one");
        }
    }

    /** The named source topics and what was declared for each, in declaration order. */
    public synchronized Map<String, Declared> topics() {
        return Collections.unmodifiableMap(new LinkedHashMap<>(topics));
    }

    /** The pattern sources and what was declared for each. */
    public synchronized List<Map.Entry<Pattern, Declared>> patterns() {
        return List.copyOf(patterns);
    }

    /** The global-store topics. */
    public synchronized Set<String> globalTopics() {
        return Set.copyOf(globalTopics);
    }

    /** Re-checks everything recorded (the plan calls this before any stream thread exists). */
    public synchronized void validateAll() {
        topics.forEach((t, d) -> validate("source topic '" + t + "'", d.policy()));
        patterns.forEach(e -> validate("source pattern '" + e.getKey() + "'", e.getValue().policy()));
        for (String g : globalTopics) {
            Declared d = topics.get(g);
            if (d != null && d.policy() != null && AutoOffsetResets.newPartitionsPolicyOf(d.policy()).isPresent()) {
                throw new ConfigException("Topic '" + g + "' is both a global-store topic and a stream source with a"
                        + " new-partitions reset policy; global stores are not affected by it");
            }
        }
    }

    @Override
    public synchronized String toString() {
        return "SourcePolicies{topics=" + topics.keySet() + ", patterns=" + patterns.size() + ", global=" + globalTopics + "}";
    }
}
