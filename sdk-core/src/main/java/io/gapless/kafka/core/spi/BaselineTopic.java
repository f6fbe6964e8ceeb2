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

import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.internals.Topic;

import java.util.Objects;

/**
 * Where one group's baseline lives. By default each group has a topic of its own,
 * {@code <prefix><group>} ({@link StateTopics}), so that an operator scopes the SDK's state per
 * group with Kafka's ACLs: a principal allowed only on its groups' topics cannot forge another
 * group's baseline. With {@code gapless.baseline.topic} set, every group shares that one topic
 * (any principal that may write it can forge any group's baseline, and a start reads the records
 * of every group hashed to its partition).
 *
 * @param name   the topic
 * @param shared whether other groups' baselines live in it too
 * @since 0.1.0
 */
public record BaselineTopic(String name, boolean shared) {
    /** The default prefix of per-group baseline topics. */
    public static final String PREFIX_DEFAULT = "__gapless_baseline.";
    /** Partitions of a shared topic the SDK creates: groups are spread over them by a hash of the group id. */
    private static final int SHARED_PARTITIONS = 4;

    public BaselineTopic {
        Objects.requireNonNull(name, "name");
    }

    /**
     * The shared topic when one is configured, else the group's own topic under {@code prefix}.
     *
     * @throws IllegalArgumentException for a prefix that is not a legal topic-name prefix
     */
    public static BaselineTopic of(String sharedTopic, String prefix, String group) {
        if (sharedTopic != null && !sharedTopic.isBlank()) {
            return new BaselineTopic(sharedTopic, true);
        }
        return new BaselineTopic(StateTopics.forGroup(prefix, group), false);
    }

    /** How many partitions the SDK creates the topic with: one per group's own topic. */
    public int partitionsWhenCreated() {
        return shared ? SHARED_PARTITIONS : 1;
    }

    /**
     * A shared topic and a per-group prefix contradict each other: a {@link ConfigException} when
     * {@code originals} sets both keys.
     */
    public static void checkNotBoth(java.util.Map<?, ?> originals, String sharedKey, String prefixKey) {
        if (originals.get(sharedKey) != null && originals.get(prefixKey) != null) {
            throw new ConfigException(sharedKey, originals.get(sharedKey), "a shared baseline topic and " + prefixKey + "="
                    + originals.get(prefixKey) + " (one topic per group) exclude each other: set one of them");
        }
    }

    /** Checks a {@code gapless.baseline.topic.prefix} value: a {@link ConfigException} names key and value. */
    public static ConfigDef.Validator prefixValidator() {
        // LambdaValidator: its description is what the generated configuration reference shows.
        return ConfigDef.LambdaValidator.with((key, value) -> {
            try {
                StateTopics.forGroup(String.valueOf(value), "group");
            } catch (IllegalArgumentException e) {
                throw new ConfigException(key, value, e.getMessage());
            }
        }, () -> "a legal topic-name prefix");
    }

    /** Checks a {@code gapless.baseline.topic} value (unset allowed): a {@link ConfigException} names key and value. */
    public static ConfigDef.Validator sharedTopicValidator() {
        return ConfigDef.LambdaValidator.with((key, value) -> {
            if (value == null) {
                return;
            }
            try {
                Topic.validate(String.valueOf(value));
            } catch (InvalidTopicException e) {
                throw new ConfigException(key, value, e.getMessage());
            }
        }, () -> "a legal topic name, or unset");
    }
}
