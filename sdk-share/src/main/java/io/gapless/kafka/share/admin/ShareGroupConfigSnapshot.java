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
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.IsolationLevel;

import java.time.Duration;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * A share group's settings as the broker described them at one moment: the effective value of
 * each setting the broker knows (the group's own value, else the broker's default) and where it
 * came from. A setting the broker does not know is absent: its getter returns an empty value and
 * {@link #isSupported(ShareGroupSetting)} is false.
 *
 * @since 0.1.0
 */
public final class ShareGroupConfigSnapshot {
    private final String groupId;
    private final Map<ShareGroupSetting, ConfigEntry> entries;

    ShareGroupConfigSnapshot(String groupId, Map<ShareGroupSetting, ConfigEntry> entries) {
        this.groupId = groupId;
        this.entries = entries.isEmpty() ? Map.of() : Collections.unmodifiableMap(new EnumMap<>(entries));
    }

    /** The share group these settings belong to. */
    public String groupId() {
        return groupId;
    }

    /** Whether the broker knows this setting (it reported a value for it). */
    public boolean isSupported(ShareGroupSetting setting) {
        return entries.containsKey(setting);
    }

    /** Whether the group has its own value for this setting, rather than the broker's default. */
    public boolean isSetOnGroup(ShareGroupSetting setting) {
        ConfigEntry e = entries.get(setting);
        return e != null && e.source() == ConfigEntry.ConfigSource.DYNAMIC_GROUP_CONFIG;
    }

    /** The effective value as the broker spells it; empty when the broker does not know the setting. */
    public Optional<String> value(ShareGroupSetting setting) {
        ConfigEntry e = entries.get(setting);
        return e == null ? Optional.empty() : Optional.ofNullable(e.value());
    }

    /** Where the effective value comes from (group, broker default, ...); empty when unknown to the broker. */
    public Optional<ConfigEntry.ConfigSource> source(ShareGroupSetting setting) {
        ConfigEntry e = entries.get(setting);
        return e == null ? Optional.empty() : Optional.ofNullable(e.source());
    }

    /** {@code share.auto.offset.reset}. */
    public Optional<ResetPolicy> autoOffsetReset() {
        return value(ShareGroupSetting.AUTO_OFFSET_RESET).map(v -> SettingValues.resetPolicy(ShareGroupSetting.AUTO_OFFSET_RESET, v));
    }

    /** {@code share.auto.offset.reset.new.partitions} (KIP-1327); empty on brokers without it or when unset. */
    public Optional<ResetPolicy> newPartitionsAutoOffsetReset() {
        return value(ShareGroupSetting.AUTO_OFFSET_RESET_NEW_PARTITIONS).filter(v -> !v.isBlank())
                .map(v -> SettingValues.resetPolicy(ShareGroupSetting.AUTO_OFFSET_RESET_NEW_PARTITIONS, v));
    }

    /** {@code share.record.lock.duration.ms}. */
    public Optional<Duration> recordLockDuration() {
        return millis(ShareGroupSetting.RECORD_LOCK_DURATION_MS);
    }

    /** {@code share.delivery.count.limit}. */
    public OptionalInt deliveryCountLimit() {
        return intValue(ShareGroupSetting.DELIVERY_COUNT_LIMIT);
    }

    /** {@code share.isolation.level}. */
    public Optional<IsolationLevel> isolationLevel() {
        return value(ShareGroupSetting.ISOLATION_LEVEL).map(v -> IsolationLevel.valueOf(v.trim().toUpperCase(Locale.ROOT)));
    }

    /** {@code share.max.record.bytes.between.snapshots} (KIP-1349); empty on brokers without it or when unset. */
    public OptionalLong maxRecordBytesBetweenSnapshots() {
        Optional<String> v = value(ShareGroupSetting.MAX_RECORD_BYTES_BETWEEN_SNAPSHOTS).filter(s -> !s.isBlank());
        return v.isPresent() ? OptionalLong.of(Long.parseLong(v.get().trim())) : OptionalLong.empty();
    }

    /** {@code share.session.timeout.ms}. */
    public Optional<Duration> sessionTimeout() {
        return millis(ShareGroupSetting.SESSION_TIMEOUT_MS);
    }

    /** {@code share.heartbeat.interval.ms}. */
    public Optional<Duration> heartbeatInterval() {
        return millis(ShareGroupSetting.HEARTBEAT_INTERVAL_MS);
    }

    /** {@code share.partition.max.record.locks}. */
    public OptionalInt partitionMaxRecordLocks() {
        return intValue(ShareGroupSetting.PARTITION_MAX_RECORD_LOCKS);
    }

    /** {@code share.renew.acknowledge.enable}. */
    public Optional<Boolean> renewAcknowledgeEnabled() {
        return value(ShareGroupSetting.RENEW_ACKNOWLEDGE_ENABLE).map(v -> Boolean.parseBoolean(v.trim()));
    }

    /** {@code share.assignment.interval.ms}. */
    public Optional<Duration> assignmentInterval() {
        return millis(ShareGroupSetting.ASSIGNMENT_INTERVAL_MS);
    }

    /** {@code errors.deadletterqueue.topic.name}; empty when the group has no dead-letter topic. */
    public Optional<String> deadLetterQueueTopic() {
        return value(ShareGroupSetting.DEAD_LETTER_QUEUE_TOPIC_NAME).filter(v -> !v.isBlank());
    }

    /** {@code errors.deadletterqueue.copy.record.enable}. */
    public Optional<Boolean> deadLetterQueueCopyRecordEnabled() {
        return value(ShareGroupSetting.DEAD_LETTER_QUEUE_COPY_RECORD_ENABLE).map(v -> Boolean.parseBoolean(v.trim()));
    }

    private Optional<Duration> millis(ShareGroupSetting setting) {
        return value(setting).filter(v -> !v.isBlank()).map(v -> Duration.ofMillis(Long.parseLong(v.trim())));
    }

    private OptionalInt intValue(ShareGroupSetting setting) {
        Optional<String> v = value(setting).filter(s -> !s.isBlank());
        return v.isPresent() ? OptionalInt.of(Integer.parseInt(v.get().trim())) : OptionalInt.empty();
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("ShareGroupConfigSnapshot{group=").append(groupId);
        entries.forEach((s, e) -> sb.append(", ").append(s.key()).append('=').append(e.value())
                .append(isSetOnGroup(s) ? " (group)" : ""));
        return sb.append('}').toString();
    }
}
