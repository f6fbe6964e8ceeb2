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

import java.util.Arrays;
import java.util.Optional;

/**
 * The share-group configs {@link ShareGroupSettings} reads and writes: every share-group config a
 * Kafka 4.4 broker knows (its {@code GroupConfig}), plus the two that proposals add and 4.4
 * brokers do not know yet ({@link #AUTO_OFFSET_RESET_NEW_PARTITIONS}, KIP-1327, and
 * {@link #MAX_RECORD_BYTES_BETWEEN_SNAPSHOTS}, KIP-1349). Each constant carries the config key,
 * the value type, the lower bound the broker's own validator applies and, where the broker bounds a
 * group's value by a broker setting, the names of those broker settings.
 *
 * @since 0.1.0
 */
public enum ShareGroupSetting {
    /** {@code share.auto.offset.reset}: where a share-partition starts when first initialized. */
    AUTO_OFFSET_RESET("share.auto.offset.reset", ValueType.RESET_POLICY, null, null, null, null),
    /**
     * {@code share.auto.offset.reset.new.partitions} (KIP-1327): the start of partitions added to a
     * topic after the group first saw it. Unknown to Kafka 4.4 brokers.
     */
    AUTO_OFFSET_RESET_NEW_PARTITIONS("share.auto.offset.reset.new.partitions", ValueType.RESET_POLICY, null, null, null, "KIP-1327"),
    /** {@code share.record.lock.duration.ms}: how long a delivered record stays locked to its consumer. */
    RECORD_LOCK_DURATION_MS("share.record.lock.duration.ms", ValueType.INT, 1000L,
            "group.share.min.record.lock.duration.ms", "group.share.max.record.lock.duration.ms", null),
    /** {@code share.delivery.count.limit}: deliveries after which a record is archived. */
    DELIVERY_COUNT_LIMIT("share.delivery.count.limit", ValueType.INT, 2L,
            "group.share.min.delivery.count.limit", "group.share.max.delivery.count.limit", null),
    /** {@code share.isolation.level}: {@code read_committed} or {@code read_uncommitted}. */
    ISOLATION_LEVEL("share.isolation.level", ValueType.ISOLATION_LEVEL, null, null, null, null),
    /**
     * {@code share.max.record.bytes.between.snapshots} (KIP-1349): update-record bytes the share
     * coordinator writes between snapshots for this group. Unknown to Kafka 4.4 brokers.
     */
    MAX_RECORD_BYTES_BETWEEN_SNAPSHOTS("share.max.record.bytes.between.snapshots", ValueType.LONG, 1L,
            null, "share.coordinator.max.record.bytes.between.snapshots", "KIP-1349"),
    /** {@code share.session.timeout.ms}: how long a member may miss heartbeats before it is removed. */
    SESSION_TIMEOUT_MS("share.session.timeout.ms", ValueType.INT, 1L,
            "group.share.min.session.timeout.ms", "group.share.max.session.timeout.ms", null),
    /** {@code share.heartbeat.interval.ms}: how often members heartbeat. */
    HEARTBEAT_INTERVAL_MS("share.heartbeat.interval.ms", ValueType.INT, 1L,
            "group.share.min.heartbeat.interval.ms", "group.share.max.heartbeat.interval.ms", null),
    /** {@code share.partition.max.record.locks}: in-flight records per share-partition. */
    PARTITION_MAX_RECORD_LOCKS("share.partition.max.record.locks", ValueType.INT, 100L,
            "group.share.min.partition.max.record.locks", "group.share.max.partition.max.record.locks", null),
    /** {@code share.renew.acknowledge.enable}: whether consumers may RENEW their locks. */
    RENEW_ACKNOWLEDGE_ENABLE("share.renew.acknowledge.enable", ValueType.BOOLEAN, null, null, null, null),
    /** {@code share.assignment.interval.ms}: minimum time between assignment computations. */
    ASSIGNMENT_INTERVAL_MS("share.assignment.interval.ms", ValueType.INT, 0L,
            "group.share.min.assignment.interval.ms", "group.share.max.assignment.interval.ms", null),
    /** {@code errors.deadletterqueue.topic.name}: the group's dead-letter topic; empty for none. */
    DEAD_LETTER_QUEUE_TOPIC_NAME("errors.deadletterqueue.topic.name", ValueType.TOPIC_NAME, null, null, null, null),
    /** {@code errors.deadletterqueue.copy.record.enable}: whether the DLQ gets a copy of the record. */
    DEAD_LETTER_QUEUE_COPY_RECORD_ENABLE("errors.deadletterqueue.copy.record.enable", ValueType.BOOLEAN, null, null, null, null);

    /** How a setting's value is spelled and checked. */
    enum ValueType { RESET_POLICY, INT, LONG, BOOLEAN, ISOLATION_LEVEL, TOPIC_NAME }

    private final String key;
    private final ValueType type;
    private final Long minimum;
    private final String brokerMinimumKey;
    private final String brokerMaximumKey;
    private final String proposal;

    ShareGroupSetting(String key, ValueType type, Long minimum, String brokerMinimumKey, String brokerMaximumKey, String proposal) {
        this.key = key;
        this.type = type;
        this.minimum = minimum;
        this.brokerMinimumKey = brokerMinimumKey;
        this.brokerMaximumKey = brokerMaximumKey;
        this.proposal = proposal;
    }

    /** The config key as the broker spells it, for example {@code share.record.lock.duration.ms}. */
    public String key() {
        return key;
    }

    /** The Kafka proposal that introduces this setting, for settings no released broker knows yet. */
    public Optional<String> proposal() {
        return Optional.ofNullable(proposal);
    }

    /** The setting with this config key. */
    public static Optional<ShareGroupSetting> forKey(String key) {
        return Arrays.stream(values()).filter(s -> s.key.equals(key)).findFirst();
    }

    ValueType type() {
        return type;
    }

    /** The lower bound the broker's config definition applies, if any. */
    Optional<Long> minimum() {
        return Optional.ofNullable(minimum);
    }

    /** The broker setting that bounds this group setting from below, if any. */
    Optional<String> brokerMinimumKey() {
        return Optional.ofNullable(brokerMinimumKey);
    }

    /** The broker setting that bounds this group setting from above, if any. */
    Optional<String> brokerMaximumKey() {
        return Optional.ofNullable(brokerMaximumKey);
    }

    @Override
    public String toString() {
        return key;
    }
}
