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
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A batch of changes to one share group's settings, built fluently and applied at once by
 * {@link #apply()}. Each setter checks its value against the setting's type and static bounds at
 * once ({@link ConfigException} naming key and value); {@link #apply()} checks the rest before it
 * changes anything. The last call for a setting wins. Not thread-safe; use one update per thread.
 *
 * @since 0.1.0
 */
public final class ShareGroupSettingsUpdate {
    private static final Logger log = LoggerFactory.getLogger(ShareGroupSettingsUpdate.class);

    private final ShareGroupSettings settings;
    private final Map<ShareGroupSetting, String> sets = new LinkedHashMap<>();
    private final Set<ShareGroupSetting> unsets = EnumSet.noneOf(ShareGroupSetting.class);

    ShareGroupSettingsUpdate(ShareGroupSettings settings) {
        this.settings = settings;
    }

    /** Sets {@code share.auto.offset.reset}: {@code earliest}, {@code latest} or {@code by_duration}. */
    public ShareGroupSettingsUpdate autoOffsetReset(ResetPolicy policy) {
        return set(ShareGroupSetting.AUTO_OFFSET_RESET, policy == null ? null : policy.toString());
    }

    /**
     * Sets {@code share.auto.offset.reset.new.partitions} (KIP-1327). Brokers up to Kafka 4.4 do not
     * know it: {@link #apply()} then throws {@link UnsupportedShareGroupSettingException}.
     */
    public ShareGroupSettingsUpdate newPartitionsAutoOffsetReset(ResetPolicy policy) {
        return set(ShareGroupSetting.AUTO_OFFSET_RESET_NEW_PARTITIONS, policy == null ? null : policy.toString());
    }

    /**
     * Sets {@code share.record.lock.duration.ms}; {@link #apply()} also checks it against the broker's
     * {@code group.share.min/max.record.lock.duration.ms}.
     */
    public ShareGroupSettingsUpdate recordLockDuration(Duration duration) {
        return set(ShareGroupSetting.RECORD_LOCK_DURATION_MS, millis(ShareGroupSetting.RECORD_LOCK_DURATION_MS, duration));
    }

    /** Sets {@code share.delivery.count.limit} (at least 2, within the broker's bounds). */
    public ShareGroupSettingsUpdate deliveryCountLimit(int limit) {
        return set(ShareGroupSetting.DELIVERY_COUNT_LIMIT, String.valueOf(limit));
    }

    /** Sets {@code share.isolation.level}. */
    public ShareGroupSettingsUpdate isolationLevel(IsolationLevel level) {
        return set(ShareGroupSetting.ISOLATION_LEVEL, level == null ? null : level.toString().toLowerCase(Locale.ROOT));
    }

    /**
     * Sets {@code share.max.record.bytes.between.snapshots} (KIP-1349, at least 1, at most the
     * broker's {@code share.coordinator.max.record.bytes.between.snapshots} where it has one). Brokers
     * up to Kafka 4.4 do not know it: {@link #apply()} then throws
     * {@link UnsupportedShareGroupSettingException}.
     */
    public ShareGroupSettingsUpdate maxRecordBytesBetweenSnapshots(long bytes) {
        return set(ShareGroupSetting.MAX_RECORD_BYTES_BETWEEN_SNAPSHOTS, String.valueOf(bytes));
    }

    /** Sets {@code share.session.timeout.ms} (within the broker's bounds, above the heartbeat interval). */
    public ShareGroupSettingsUpdate sessionTimeout(Duration timeout) {
        return set(ShareGroupSetting.SESSION_TIMEOUT_MS, millis(ShareGroupSetting.SESSION_TIMEOUT_MS, timeout));
    }

    /** Sets {@code share.heartbeat.interval.ms} (within the broker's bounds, below the session timeout). */
    public ShareGroupSettingsUpdate heartbeatInterval(Duration interval) {
        return set(ShareGroupSetting.HEARTBEAT_INTERVAL_MS, millis(ShareGroupSetting.HEARTBEAT_INTERVAL_MS, interval));
    }

    /** Sets {@code share.partition.max.record.locks} (at least 100, within the broker's bounds). */
    public ShareGroupSettingsUpdate partitionMaxRecordLocks(int locks) {
        return set(ShareGroupSetting.PARTITION_MAX_RECORD_LOCKS, String.valueOf(locks));
    }

    /** Sets {@code share.renew.acknowledge.enable}. */
    public ShareGroupSettingsUpdate renewAcknowledgeEnabled(boolean enabled) {
        return set(ShareGroupSetting.RENEW_ACKNOWLEDGE_ENABLE, String.valueOf(enabled));
    }

    /** Sets {@code share.assignment.interval.ms} (within the broker's bounds). */
    public ShareGroupSettingsUpdate assignmentInterval(Duration interval) {
        return set(ShareGroupSetting.ASSIGNMENT_INTERVAL_MS, millis(ShareGroupSetting.ASSIGNMENT_INTERVAL_MS, interval));
    }

    /** Sets {@code errors.deadletterqueue.topic.name}; an empty name removes the dead-letter topic. */
    public ShareGroupSettingsUpdate deadLetterQueueTopic(String topic) {
        return set(ShareGroupSetting.DEAD_LETTER_QUEUE_TOPIC_NAME, topic);
    }

    /** Sets {@code errors.deadletterqueue.copy.record.enable}. */
    public ShareGroupSettingsUpdate deadLetterQueueCopyRecordEnabled(boolean enabled) {
        return set(ShareGroupSetting.DEAD_LETTER_QUEUE_COPY_RECORD_ENABLE, String.valueOf(enabled));
    }

    /**
     * Sets a setting from its string form, checked exactly like the typed setters.
     *
     * @throws ConfigException naming key and value when the value is not valid for the setting
     */
    public ShareGroupSettingsUpdate set(ShareGroupSetting setting, String value) {
        Objects.requireNonNull(setting, "setting");
        String normalized = SettingValues.normalize(setting, value);
        unsets.remove(setting);
        sets.put(setting, normalized);
        return this;
    }

    /** Removes the group's own value of a setting, so that the broker's default applies again. */
    public ShareGroupSettingsUpdate unset(ShareGroupSetting setting) {
        Objects.requireNonNull(setting, "setting");
        sets.remove(setting);
        unsets.add(setting);
        return this;
    }

    /** The values this update sets, keyed by setting, as they will be sent. */
    public Map<ShareGroupSetting, String> values() {
        return Collections.unmodifiableMap(new LinkedHashMap<>(sets));
    }

    /** The settings this update removes from the group. */
    public Set<ShareGroupSetting> unsets() {
        return Collections.unmodifiableSet(EnumSet.copyOf(unsets));
    }

    /**
     * Runs every check {@link #apply()} runs, including the broker's own ({@code validateOnly}),
     * and changes nothing.
     *
     * @throws ConfigException                        a value is out of the broker's bounds
     * @throws UnsupportedShareGroupSettingException the broker does not know a setting
     * @throws InvalidConfigurationException          the broker rejects the batch for another reason
     */
    public void validate() {
        new UpdateCheck(settings, sets, unsets).run();
    }

    /**
     * Checks the whole update, then applies it in one {@code incrementalAlterConfigs} request.
     * When any check fails nothing is changed, including the update's valid settings.
     *
     * <p>Brokers apply group configs from the cluster metadata log, a moment after the request
     * succeeds; a share-partition initialized in that moment would still use the old
     * {@code share.auto.offset.reset}. So this method returns once {@code describeConfigs} reports
     * the new values (or logs a warning when they do not show within the timeout).
     *
     * @throws ConfigException                        a value is out of the broker's bounds
     * @throws UnsupportedShareGroupSettingException the broker does not know a setting
     * @throws InvalidConfigurationException          the broker rejects the batch for another reason
     * @throws org.apache.kafka.common.KafkaException the broker cannot be reached in time
     */
    public void apply() {
        List<AlterConfigOp> ops = new UpdateCheck(settings, sets, unsets).run();
        if (ops.isEmpty()) {
            return;
        }
        settings.alter(ops, false);
        log.info("Share group '{}': set {}{}", settings.groupId(), sets, unsets.isEmpty() ? "" : ", removed " + unsets);
        awaitVisible();
    }

    private void awaitVisible() {
        long deadline = System.nanoTime() + settings.timeout().toNanos();
        while (true) {
            ShareGroupConfigSnapshot now = settings.describe();
            if (isVisible(now)) {
                return;
            }
            if (System.nanoTime() > deadline) {
                log.warn("Share group '{}': the broker accepted the update but still describes {} after {}", settings.groupId(), now,
                        settings.timeout());
                return;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new org.apache.kafka.common.errors.InterruptException("Interrupted while waiting for the update of share group "
                        + settings.groupId() + " to show", e);
            }
        }
    }

    private boolean isVisible(ShareGroupConfigSnapshot now) {
        for (Map.Entry<ShareGroupSetting, String> e : sets.entrySet()) {
            if (!now.isSetOnGroup(e.getKey()) || !now.value(e.getKey()).map(e.getValue()::equals).orElse(false)) {
                return false;
            }
        }
        return unsets.stream().noneMatch(now::isSetOnGroup);
    }

    private static String millis(ShareGroupSetting setting, Duration duration) {
        if (duration == null) {
            return null;
        }
        if (duration.isNegative()) {
            throw new ConfigException(setting.key(), duration.toString(), "must not be negative");
        }
        if (duration.getNano() % 1_000_000 != 0) {
            throw new ConfigException(setting.key(), duration.toString(), "must be a whole number of milliseconds");
        }
        if (duration.compareTo(Duration.ofMillis(Integer.MAX_VALUE)) > 0) {
            throw new ConfigException(setting.key(), duration.toString(), "must be at most " + Integer.MAX_VALUE + " ms");
        }
        return String.valueOf(duration.toMillis());
    }
}
