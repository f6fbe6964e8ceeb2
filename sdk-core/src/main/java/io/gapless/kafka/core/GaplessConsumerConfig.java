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
package io.gapless.kafka.core;

import io.gapless.kafka.core.spi.BaselineTopic;
import io.gapless.kafka.core.spi.ResetPolicyValidator;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * The settings {@link GaplessConsumer} adds to Kafka's consumer configuration, validated with
 * Kafka's {@link ConfigDef}: a bad value fails construction with a {@link ConfigException} that
 * names the key and the value.
 *
 * @since 0.1.0
 */
public final class GaplessConsumerConfig extends AbstractConfig {

    /** KIP-1327: the reset policy for partitions created after the group ({@code earliest | latest | by_duration:<ISO-8601>}). */
    public static final String AUTO_OFFSET_RESET_NEW_PARTITIONS_CONFIG = "auto.offset.reset.new.partitions";
    private static final String AUTO_OFFSET_RESET_NEW_PARTITIONS_DOC = "The reset policy for partitions that were"
            + " created after the consumer group and have no committed offset: earliest, latest or"
            + " by_duration:<ISO-8601 duration>. Other partitions without a committed offset, and committed offsets"
            + " out of range, use auto.offset.reset. Unset (the default) applies auto.offset.reset everywhere.";

    /**
     * Prefix of the compacted topic that holds one group's baseline: the topic is the prefix plus
     * the group id ({@code StateTopics} encoding), so that ACLs on it scope the baseline to that group.
     */
    public static final String BASELINE_TOPIC_PREFIX_CONFIG = "gapless.baseline.topic.prefix";
    public static final String BASELINE_TOPIC_PREFIX_DEFAULT = BaselineTopic.PREFIX_DEFAULT;
    private static final String BASELINE_TOPIC_PREFIX_DOC = "Each consumer group keeps its baseline (when it first used the"
            + " SDK and the topics of the cluster then) in a compacted topic of its own: this prefix plus the group id"
            + " (letters, digits, '.' and '-' kept, '_' doubled, other characters as _XX hex bytes). Grant each principal"
            + " Read, Write, DescribeConfigs and Create on exactly its groups' topics. Created on first use with one"
            + " partition, cleanup.policy=compact, message.timestamp.type=LogAppendTime.";

    /**
     * One compacted topic shared by every group's baseline instead of a topic per group. Unset by
     * default: a principal that may write a shared topic can forge any group's baseline.
     */
    public static final String BASELINE_TOPIC_CONFIG = "gapless.baseline.topic";
    private static final String BASELINE_TOPIC_DOC = "A compacted topic shared by the baselines of every group, instead of one"
            + " topic per group (gapless.baseline.topic.prefix). Gives up tenant isolation: any principal that may write"
            + " it can forge another group's baseline, whose new partitions then follow the base policy; and a group's"
            + " start reads the records of every group hashed to its partition. Unset by default.";

    /** What to do when the baseline cannot be read or written: {@code fail} or {@code base-policy}. */
    public static final String BASELINE_UNAVAILABLE_CONFIG = "gapless.baseline.unavailable";
    private static final String BASELINE_UNAVAILABLE_DOC = "fail (default): poll() throws BaselineUnavailableException"
            + " and no partition is reset; base-policy: treat the partitions as pre-existing and apply auto.offset.reset.";

    /** How long one baseline read or write may take before it counts as unavailable. */
    public static final String BASELINE_TIMEOUT_MS_CONFIG = "gapless.baseline.timeout.ms";
    private static final String BASELINE_TIMEOUT_MS_DOC = "Upper bound for one read or write of the group baseline.";

    /** {@code auto | native | emulate}: how {@code auto.offset.reset.new.partitions} is delivered. */
    public static final String NEW_PARTITIONS_MODE_CONFIG = "gapless.new.partitions.mode";
    private static final String NEW_PARTITIONS_MODE_DOC = "auto (default): pass the setting to Kafka where kafka-clients"
            + " and the broker support KIP-1327, emulate it otherwise; native: fail at construction without support;"
            + " emulate: always use the SDK's group baseline.";

    private static final ConfigDef CONFIG = new ConfigDef()
            .define(AUTO_OFFSET_RESET_NEW_PARTITIONS_CONFIG, ConfigDef.Type.STRING, null,
                    ResetPolicyValidator.withoutNone("none is not a new-partitions policy: use earliest, latest or"
                            + " by_duration:<ISO-8601 duration>, or leave the setting unset"), ConfigDef.Importance.HIGH, AUTO_OFFSET_RESET_NEW_PARTITIONS_DOC)
            .define(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, ConfigDef.Type.STRING, "latest",
                    ResetPolicyValidator.anyPolicy(), ConfigDef.Importance.MEDIUM, "Kafka's own auto.offset.reset.")
            .define(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, ConfigDef.Type.INT, 60_000, ConfigDef.Range.atLeast(0),
                    ConfigDef.Importance.MEDIUM, "Kafka's own default.api.timeout.ms: position(tp) without a timeout waits this long.")
            .define(ConsumerConfig.ISOLATION_LEVEL_CONFIG, ConfigDef.Type.STRING, "read_uncommitted",
                    ConfigDef.CaseInsensitiveValidString.in("read_uncommitted", "read_committed"), ConfigDef.Importance.MEDIUM,
                    "Kafka's own isolation.level: offset look-ups for resets use it.")
            .define(BASELINE_TOPIC_PREFIX_CONFIG, ConfigDef.Type.STRING, BASELINE_TOPIC_PREFIX_DEFAULT,
                    BaselineTopic.prefixValidator(), ConfigDef.Importance.LOW, BASELINE_TOPIC_PREFIX_DOC)
            .define(BASELINE_TOPIC_CONFIG, ConfigDef.Type.STRING, null,
                    BaselineTopic.sharedTopicValidator(), ConfigDef.Importance.LOW, BASELINE_TOPIC_DOC)
            .define(BASELINE_UNAVAILABLE_CONFIG, ConfigDef.Type.STRING, BaselineUnavailablePolicy.FAIL.configValue(),
                    ConfigDef.CaseInsensitiveValidString.in("fail", "base-policy"), ConfigDef.Importance.MEDIUM,
                    BASELINE_UNAVAILABLE_DOC)
            .define(BASELINE_TIMEOUT_MS_CONFIG, ConfigDef.Type.LONG, 30_000L, ConfigDef.Range.atLeast(1),
                    ConfigDef.Importance.LOW, BASELINE_TIMEOUT_MS_DOC)
            .define(NEW_PARTITIONS_MODE_CONFIG, ConfigDef.Type.STRING, NewPartitionsMode.AUTO.configValue(),
                    ConfigDef.CaseInsensitiveValidString.in("auto", "native", "emulate"), ConfigDef.Importance.LOW,
                    NEW_PARTITIONS_MODE_DOC);

    /**
     * Parses and validates the SDK's settings out of a full consumer configuration.
     *
     * @throws ConfigException if a setting is invalid, naming the key and the value, or a
     *         new-partitions policy is set without {@code group.id}, or both
     *         {@code gapless.baseline.topic} and {@code gapless.baseline.topic.prefix} are set
     */
    public GaplessConsumerConfig(Map<?, ?> originals) {
        super(CONFIG, originals, false);
        BaselineTopic.checkNotBoth(originals, BASELINE_TOPIC_CONFIG, BASELINE_TOPIC_PREFIX_CONFIG);
        // A group is what "new" is relative to: without one there is nothing to classify against.
        if (newPartitionsPolicy().isPresent() && stringOrNull(originals.get(ConsumerConfig.GROUP_ID_CONFIG)) == null) {
            throw new ConfigException(AUTO_OFFSET_RESET_NEW_PARTITIONS_CONFIG, getString(AUTO_OFFSET_RESET_NEW_PARTITIONS_CONFIG),
                    "requires group.id: partitions are new relative to a consumer group's creation");
        }
    }

    /**
     * Parses and validates the SDK's settings out of a full consumer configuration.
     *
     * @throws ConfigException if a setting is invalid, naming the key and the value, or a
     *         new-partitions policy is set without {@code group.id}, or both
     *         {@code gapless.baseline.topic} and {@code gapless.baseline.topic.prefix} are set
     */
    public GaplessConsumerConfig(Properties originals) {
        this((Map<?, ?>) originals);
    }

    /** The definitions of the SDK's settings, for documentation and tooling. */
    public static ConfigDef configDef() {
        return new ConfigDef(CONFIG);
    }

    /** The new-partitions policy, empty when unset (Kafka's behaviour). */
    public Optional<ResetPolicy> newPartitionsPolicy() {
        String v = getString(AUTO_OFFSET_RESET_NEW_PARTITIONS_CONFIG);
        return v == null || v.isBlank() ? Optional.empty() : Optional.of(ResetPolicy.parse(v));
    }

    /** The base {@code auto.offset.reset} policy. */
    public ResetPolicy basePolicy() {
        return ResetPolicy.parse(getString(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG));
    }

    /** Kafka's {@code default.api.timeout.ms}. */
    public int defaultApiTimeoutMs() {
        return getInt(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG);
    }

    /** Kafka's {@code isolation.level}. */
    public org.apache.kafka.common.IsolationLevel isolationLevel() {
        return org.apache.kafka.common.IsolationLevel.valueOf(getString(ConsumerConfig.ISOLATION_LEVEL_CONFIG).toUpperCase(Locale.ROOT));
    }

    /** The topic that holds {@code group}'s baseline: the group's own under the prefix, or the shared one when set. */
    public String baselineTopic(String group) {
        return baselineTopicOf(group).name();
    }

    /** {@value #BASELINE_TOPIC_CONFIG}, empty unless set (then every group's baseline lives there). */
    public Optional<String> sharedBaselineTopic() {
        return Optional.ofNullable(getString(BASELINE_TOPIC_CONFIG));
    }

    /** {@value #BASELINE_TOPIC_PREFIX_CONFIG}. */
    public String baselineTopicPrefix() {
        return getString(BASELINE_TOPIC_PREFIX_CONFIG);
    }

    BaselineTopic baselineTopicOf(String group) {
        return BaselineTopic.of(getString(BASELINE_TOPIC_CONFIG), baselineTopicPrefix(), group);
    }

    public BaselineUnavailablePolicy baselineUnavailablePolicy() {
        return BaselineUnavailablePolicy.valueOf(getString(BASELINE_UNAVAILABLE_CONFIG).toUpperCase(Locale.ROOT).replace('-', '_'));
    }

    public long baselineTimeoutMs() {
        return getLong(BASELINE_TIMEOUT_MS_CONFIG);
    }

    public NewPartitionsMode mode() {
        return NewPartitionsMode.valueOf(getString(NEW_PARTITIONS_MODE_CONFIG).toUpperCase(Locale.ROOT));
    }

    /** Whether {@code key} is a setting of the SDK's own that Kafka's clients must not see. */
    public static boolean isSdkKey(String key) {
        return key.startsWith("gapless.") || key.equals(AUTO_OFFSET_RESET_NEW_PARTITIONS_CONFIG);
    }

    /** A copy of {@code originals} without the SDK's own keys, for Kafka's clients. */
    public static Map<String, Object> withoutSdkKeys(Map<?, ?> originals) {
        Map<String, Object> out = new HashMap<>();
        originals.forEach((k, v) -> {
            String key = String.valueOf(k);
            if (!isSdkKey(key)) {
                out.put(key, v);
            }
        });
        return out;
    }

    private static String stringOrNull(Object v) {
        if (v == null) {
            return null;
        }
        String s = v.toString();
        return s.isBlank() ? null : s;
    }
}
