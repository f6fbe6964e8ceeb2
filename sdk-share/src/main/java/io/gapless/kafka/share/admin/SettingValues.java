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
package io.gapless.kafka.share.admin;

import io.gapless.kafka.core.ResetPolicy;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.internals.Topic;

import java.util.Locale;
import java.util.OptionalLong;

/**
 * Parses and checks share-group setting values the way the broker would, before anything is sent.
 * Every failure is a {@link ConfigException} naming the key and the offending value.
 */
final class SettingValues {
    private SettingValues() {
    }

    /**
     * Checks a value against the setting's type and static bounds and returns it spelled as the
     * broker expects (trimmed, lower-case keywords).
     */
    static String normalize(ShareGroupSetting setting, String raw) {
        if (raw == null) {
            throw new ConfigException(setting.key(), null, "a value is required; use unset(" + setting.name() + ") to remove the group's value");
        }
        String value = raw.trim();
        switch (setting.type()) {
            case RESET_POLICY:
                return resetPolicy(setting, raw).toString();
            case INT:
                return String.valueOf(atLeast(setting, raw, parseInt(setting, value)));
            case LONG:
                return String.valueOf(atLeast(setting, raw, parseLong(setting, value)));
            case BOOLEAN:
                if (value.equalsIgnoreCase("true") || value.equalsIgnoreCase("false")) {
                    return value.toLowerCase(Locale.ROOT);
                }
                throw new ConfigException(setting.key(), raw, "expected true or false");
            case ISOLATION_LEVEL:
                String level = value.toLowerCase(Locale.ROOT);
                if (level.equals("read_committed") || level.equals("read_uncommitted")) {
                    return level;
                }
                throw new ConfigException(setting.key(), raw, "expected read_committed or read_uncommitted");
            case TOPIC_NAME:
                return topicName(setting, raw, value);
            default:
                throw new IllegalStateException("Unhandled value type " + setting.type());
        }
    }

    /** Parses a reset policy; share groups accept earliest, latest and by_duration, not none. */
    static ResetPolicy resetPolicy(ShareGroupSetting setting, String raw) {
        ResetPolicy policy;
        try {
            policy = ResetPolicy.parse(raw);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(setting.key(), raw, "expected earliest, latest or by_duration:<ISO-8601 duration> (" + e.getMessage() + ")");
        }
        if (policy.kind() == ResetPolicy.Kind.NONE) {
            throw new ConfigException(setting.key(), raw, "share groups do not support none; expected earliest, latest or by_duration:<ISO-8601 duration>");
        }
        return policy;
    }

    /**
     * Checks an already normalized numeric value against the bounds the broker sets for group
     * values (for example {@code group.share.min.record.lock.duration.ms}), where they are known.
     */
    static void checkBrokerBounds(ShareGroupSetting setting, String normalized, BrokerShareLimits limits) {
        if (setting.type() != ShareGroupSetting.ValueType.INT && setting.type() != ShareGroupSetting.ValueType.LONG) {
            return;
        }
        long value = Long.parseLong(normalized);
        OptionalLong min = setting.brokerMinimumKey().map(limits::value).orElse(OptionalLong.empty());
        OptionalLong max = setting.brokerMaximumKey().map(limits::value).orElse(OptionalLong.empty());
        if (min.isPresent() && value < min.getAsLong() || max.isPresent() && value > max.getAsLong()) {
            throw new ConfigException(setting.key(), normalized, "the broker allows "
                    + (min.isPresent() ? min.getAsLong() + " (" + setting.brokerMinimumKey().orElseThrow() + ")" : "any value")
                    + " to " + (max.isPresent() ? max.getAsLong() + " (" + setting.brokerMaximumKey().orElseThrow() + ")" : "any higher value")
                    + " inclusive");
        }
    }

    private static int parseInt(ShareGroupSetting setting, String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new ConfigException(setting.key(), value, "expected a whole number between " + Integer.MIN_VALUE + " and " + Integer.MAX_VALUE);
        }
    }

    private static long parseLong(ShareGroupSetting setting, String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new ConfigException(setting.key(), value, "expected a whole number");
        }
    }

    private static long atLeast(ShareGroupSetting setting, String raw, long value) {
        if (setting.minimum().isPresent() && value < setting.minimum().get()) {
            throw new ConfigException(setting.key(), raw, "must be at least " + setting.minimum().get());
        }
        return value;
    }

    private static String topicName(ShareGroupSetting setting, String raw, String value) {
        if (value.isEmpty()) {
            return value;
        }
        if (value.startsWith("__")) {
            throw new ConfigException(setting.key(), raw, "a dead-letter topic name must not start with '__' (internal topics)");
        }
        try {
            Topic.validate(value);
        } catch (InvalidTopicException e) {
            throw new ConfigException(setting.key(), raw, "not a legal topic name: " + e.getMessage());
        }
        return value;
    }
}
