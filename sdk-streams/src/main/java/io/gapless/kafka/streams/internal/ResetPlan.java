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

import io.gapless.kafka.core.BaselineUnavailablePolicy;
import io.gapless.kafka.core.ResetPolicy;
import io.gapless.kafka.core.spi.BaselineTopic;
import io.gapless.kafka.core.spi.ModeDecision;
import io.gapless.kafka.core.spi.ResetPolicyLookup;
import io.gapless.kafka.core.spi.TopicResetPolicies;
import org.apache.kafka.streams.AutoOffsetReset;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.StringJoiner;
import java.util.regex.Pattern;

/**
 * What the main consumer of one Streams application resets, and how: the effective base and
 * new-partitions policy of every source topic (its own policy wins over the application's
 * {@code auto.offset.reset} / {@code auto.offset.reset.new.partitions}), and nothing for any other
 * topic (repartition, changelog, global): {@link #policiesFor} answers empty for those and Kafka
 * Streams resets them itself. Immutable; shared by all stream threads of one {@code KafkaStreams}.
 */
public final class ResetPlan implements ResetPolicyLookup {

    private final String applicationId;
    private final Map<String, TopicResetPolicies> topics;
    private final List<Map.Entry<Pattern, TopicResetPolicies>> patterns;
    private final ResetPolicy globalBase;
    private final Optional<ResetPolicy> globalNew;
    private final BaselineTopic baselineTopic;
    private final BaselineUnavailablePolicy unavailablePolicy;
    private final Duration baselineTimeout;
    private final ModeDecision decision;
    private final boolean needsClassification;
    private final boolean anyNewPartitionsPolicy;

    private ResetPlan(Builder b) {
        this.applicationId = b.applicationId;
        this.globalBase = b.globalBase;
        this.globalNew = b.globalNew;
        this.baselineTopic = b.baselineTopic;
        this.unavailablePolicy = b.unavailablePolicy;
        this.baselineTimeout = b.baselineTimeout;
        this.decision = b.decision;
        Map<String, TopicResetPolicies> t = new LinkedHashMap<>();
        b.sources.topics().forEach((topic, declared) -> t.put(topic, effective(declared.policy())));
        this.topics = Collections.unmodifiableMap(t);
        List<Map.Entry<Pattern, TopicResetPolicies>> p = new ArrayList<>();
        b.sources.patterns().forEach(e -> p.add(Map.entry(e.getKey(), effective(e.getValue().policy()))));
        this.patterns = List.copyOf(p);
        List<TopicResetPolicies> all = new ArrayList<>(topics.values());
        patterns.forEach(e -> all.add(e.getValue()));
        this.needsClassification = all.stream().anyMatch(x -> x.newPartitions().isPresent() && !x.newPartitions().get().equals(x.base()));
        this.anyNewPartitionsPolicy = all.stream().anyMatch(x -> x.newPartitions().isPresent());
    }

    private TopicResetPolicies effective(AutoOffsetReset declared) {
        if (declared == null) {
            return new TopicResetPolicies(globalBase, globalNew);
        }
        ResetPolicy base = AutoOffsetResets.toResetPolicy(declared);
        Optional<ResetPolicy> np = AutoOffsetResets.newPartitionsPolicyOf(declared).map(AutoOffsetResets::toResetPolicy);
        return new TopicResetPolicies(base, np.isPresent() ? np : globalNew);
    }

    public static Builder builder() {
        return new Builder();
    }

    @Override
    public Optional<TopicResetPolicies> policiesFor(String topic) {
        TopicResetPolicies named = topics.get(topic);
        if (named != null) {
            return Optional.of(named);
        }
        for (Map.Entry<Pattern, TopicResetPolicies> e : patterns) {
            if (e.getKey().matcher(topic).matches()) {
                return Optional.of(e.getValue());
            }
        }
        return Optional.empty();
    }

    /** Whether some source's new-partitions policy differs from its base policy: only then is the group baseline needed. */
    public boolean needsClassification() {
        return needsClassification;
    }

    /** Whether any source has a new-partitions policy at all. */
    public boolean anyNewPartitionsPolicy() {
        return anyNewPartitionsPolicy;
    }

    public String applicationId() {
        return applicationId;
    }

    public BaselineTopic baselineTopic() {
        return baselineTopic;
    }

    public BaselineUnavailablePolicy unavailablePolicy() {
        return unavailablePolicy;
    }

    public Duration baselineTimeout() {
        return baselineTimeout;
    }

    public ModeDecision decision() {
        return decision;
    }

    /** One line per source for the start-up log: {@code orders: base latest, new partitions earliest}. */
    public String describe() {
        StringJoiner j = new StringJoiner("; ");
        topics.forEach((t, p) -> j.add(t + ": " + describe(p)));
        patterns.forEach(e -> j.add("/" + e.getKey() + "/: " + describe(e.getValue())));
        return j.toString();
    }

    private static String describe(TopicResetPolicies p) {
        return "base " + p.base() + ", new partitions " + p.newPartitions().map(Object::toString).orElse("= base");
    }

    @Override
    public String toString() {
        return "ResetPlan{" + applicationId + ": " + describe() + "}";
    }

    /** Builds a plan. */
    public static final class Builder {
        private String applicationId;
        private SourcePolicies sources = new SourcePolicies();
        private ResetPolicy globalBase = ResetPolicy.EARLIEST;
        private Optional<ResetPolicy> globalNew = Optional.empty();
        private BaselineTopic baselineTopic;
        private BaselineUnavailablePolicy unavailablePolicy = BaselineUnavailablePolicy.FAIL;
        private Duration baselineTimeout = Duration.ofSeconds(30);
        private ModeDecision decision = new ModeDecision(ModeDecision.Kind.EMULATE, "Kafka Streams");

        public Builder applicationId(String v) {
            this.applicationId = v;
            return this;
        }

        public Builder sources(SourcePolicies v) {
            this.sources = v;
            return this;
        }

        public Builder globalBase(ResetPolicy v) {
            this.globalBase = v;
            return this;
        }

        public Builder globalNewPartitions(Optional<ResetPolicy> v) {
            this.globalNew = v;
            return this;
        }

        public Builder baselineTopic(BaselineTopic v) {
            this.baselineTopic = v;
            return this;
        }

        public Builder unavailablePolicy(BaselineUnavailablePolicy v) {
            this.unavailablePolicy = v;
            return this;
        }

        public Builder baselineTimeout(Duration v) {
            this.baselineTimeout = v;
            return this;
        }

        public Builder decision(ModeDecision v) {
            this.decision = v;
            return this;
        }

        public ResetPlan build() {
            return new ResetPlan(this);
        }
    }
}
