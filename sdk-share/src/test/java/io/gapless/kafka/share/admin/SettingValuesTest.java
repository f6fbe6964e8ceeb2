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

import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SettingValuesTest {

    @Test
    void normalizesValuesTheWayTheBrokerSpellsThem() {
        assertEquals("earliest", SettingValues.normalize(ShareGroupSetting.AUTO_OFFSET_RESET, " Earliest "));
        assertEquals("by_duration:PT48H", SettingValues.normalize(ShareGroupSetting.AUTO_OFFSET_RESET, "by_duration:P2D"));
        assertEquals("by_duration:PT0S", SettingValues.normalize(ShareGroupSetting.AUTO_OFFSET_RESET_NEW_PARTITIONS, "BY_DURATION:PT0S"));
        assertEquals("read_committed", SettingValues.normalize(ShareGroupSetting.ISOLATION_LEVEL, "READ_COMMITTED"));
        assertEquals("false", SettingValues.normalize(ShareGroupSetting.RENEW_ACKNOWLEDGE_ENABLE, "FALSE"));
        assertEquals("1000", SettingValues.normalize(ShareGroupSetting.RECORD_LOCK_DURATION_MS, " 1000"));
        assertEquals("1", SettingValues.normalize(ShareGroupSetting.MAX_RECORD_BYTES_BETWEEN_SNAPSHOTS, "1"));
        assertEquals("9223372036854775807", SettingValues.normalize(ShareGroupSetting.MAX_RECORD_BYTES_BETWEEN_SNAPSHOTS, String.valueOf(Long.MAX_VALUE)));
        assertEquals("0", SettingValues.normalize(ShareGroupSetting.ASSIGNMENT_INTERVAL_MS, "0"));
        assertEquals("", SettingValues.normalize(ShareGroupSetting.DEAD_LETTER_QUEUE_TOPIC_NAME, ""));
    }

    @Test
    void rejectsWithKeyAndValueInTheMessage() {
        assertRejected(ShareGroupSetting.AUTO_OFFSET_RESET, "by_duration:-PT1H");
        assertRejected(ShareGroupSetting.AUTO_OFFSET_RESET, "by_duration:");
        assertRejected(ShareGroupSetting.AUTO_OFFSET_RESET, "NONE");
        assertRejected(ShareGroupSetting.RECORD_LOCK_DURATION_MS, "2147483648");
        assertRejected(ShareGroupSetting.RECORD_LOCK_DURATION_MS, "1.5");
        assertRejected(ShareGroupSetting.DELIVERY_COUNT_LIMIT, "-3");
        assertRejected(ShareGroupSetting.MAX_RECORD_BYTES_BETWEEN_SNAPSHOTS, "-1");
        assertRejected(ShareGroupSetting.SESSION_TIMEOUT_MS, "0");
        assertRejected(ShareGroupSetting.ASSIGNMENT_INTERVAL_MS, "-1");
        assertRejected(ShareGroupSetting.DEAD_LETTER_QUEUE_TOPIC_NAME, "..");
        assertRejected(ShareGroupSetting.DEAD_LETTER_QUEUE_TOPIC_NAME, "x".repeat(250));
        assertRejected(ShareGroupSetting.DEAD_LETTER_QUEUE_COPY_RECORD_ENABLE, "1");
        ConfigException missing = assertThrows(ConfigException.class, () -> SettingValues.normalize(ShareGroupSetting.ISOLATION_LEVEL, null));
        assertTrue(missing.getMessage().contains("share.isolation.level"), missing.getMessage());
    }

    @Test
    void checksBrokerBoundsOnlyWhereTheBrokerReportedThem() {
        BrokerShareLimits limits = BrokerShareLimits.of("1", Map.of(
                "group.share.min.record.lock.duration.ms", "15000", "group.share.max.record.lock.duration.ms", "60000",
                "share.coordinator.max.record.bytes.between.snapshots", "20971520"));
        assertDoesNotThrow(() -> SettingValues.checkBrokerBounds(ShareGroupSetting.RECORD_LOCK_DURATION_MS, "15000", limits));
        assertDoesNotThrow(() -> SettingValues.checkBrokerBounds(ShareGroupSetting.RECORD_LOCK_DURATION_MS, "60000", limits));
        ConfigException low = assertThrows(ConfigException.class,
                () -> SettingValues.checkBrokerBounds(ShareGroupSetting.RECORD_LOCK_DURATION_MS, "14999", limits));
        assertTrue(low.getMessage().contains("14999") && low.getMessage().contains("15000 (group.share.min.record.lock.duration.ms)"),
                low.getMessage());
        ConfigException ceiling = assertThrows(ConfigException.class,
                () -> SettingValues.checkBrokerBounds(ShareGroupSetting.MAX_RECORD_BYTES_BETWEEN_SNAPSHOTS, "20971521", limits));
        assertTrue(ceiling.getMessage().contains("share.coordinator.max.record.bytes.between.snapshots"), ceiling.getMessage());
        // Not reported by this broker: left to the broker.
        assertDoesNotThrow(() -> SettingValues.checkBrokerBounds(ShareGroupSetting.DELIVERY_COUNT_LIMIT, "99", limits));
        assertDoesNotThrow(() -> SettingValues.checkBrokerBounds(ShareGroupSetting.RECORD_LOCK_DURATION_MS, "99999999", BrokerShareLimits.unknown()));
    }

    private static void assertRejected(ShareGroupSetting setting, String value) {
        ConfigException e = assertThrows(ConfigException.class, () -> SettingValues.normalize(setting, value));
        assertTrue(e.getMessage().contains(setting.key()) && e.getMessage().contains(value), e.getMessage());
    }
}
