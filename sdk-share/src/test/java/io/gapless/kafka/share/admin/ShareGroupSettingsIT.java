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
import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.EmbeddedKafkaTest;
import io.gapless.kafka.testkit.TestTopics;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** ShareGroupSettings against a real Kafka 4.4 broker. */
@EmbeddedKafkaTest
class ShareGroupSettingsIT {

    @Test
    void everySettingTheBrokerKnowsRoundTrips(EmbeddedKafka kafka) {
        ShareGroupSettings settings = ShareGroupSettings.forGroup(kafka.admin(), TestTopics.unique("settings-roundtrip"));
        settings.update()
                .autoOffsetReset(ResetPolicy.byDuration(Duration.ofHours(2)))
                .recordLockDuration(Duration.ofSeconds(45))
                .deliveryCountLimit(3)
                .isolationLevel(IsolationLevel.READ_COMMITTED)
                .sessionTimeout(Duration.ofSeconds(50))
                .heartbeatInterval(Duration.ofMillis(600))
                .partitionMaxRecordLocks(1500)
                .renewAcknowledgeEnabled(false)
                .assignmentInterval(Duration.ofSeconds(2))
                .deadLetterQueueTopic("orders-dlq")
                .deadLetterQueueCopyRecordEnabled(true)
                .apply();

        ShareGroupConfigSnapshot s = settings.describe();
        assertEquals(Optional.of(ResetPolicy.byDuration(Duration.ofHours(2))), s.autoOffsetReset());
        assertEquals(Optional.of(Duration.ofSeconds(45)), s.recordLockDuration());
        assertEquals(OptionalInt.of(3), s.deliveryCountLimit());
        assertEquals(Optional.of(IsolationLevel.READ_COMMITTED), s.isolationLevel());
        assertEquals(Optional.of(Duration.ofSeconds(50)), s.sessionTimeout());
        assertEquals(Optional.of(Duration.ofMillis(600)), s.heartbeatInterval());
        assertEquals(OptionalInt.of(1500), s.partitionMaxRecordLocks());
        assertEquals(Optional.of(false), s.renewAcknowledgeEnabled());
        assertEquals(Optional.of(Duration.ofSeconds(2)), s.assignmentInterval());
        assertEquals(Optional.of("orders-dlq"), s.deadLetterQueueTopic());
        assertEquals(Optional.of(true), s.deadLetterQueueCopyRecordEnabled());
        for (ShareGroupSetting known : List.of(ShareGroupSetting.AUTO_OFFSET_RESET, ShareGroupSetting.RECORD_LOCK_DURATION_MS,
                ShareGroupSetting.DELIVERY_COUNT_LIMIT, ShareGroupSetting.ISOLATION_LEVEL, ShareGroupSetting.SESSION_TIMEOUT_MS,
                ShareGroupSetting.HEARTBEAT_INTERVAL_MS, ShareGroupSetting.PARTITION_MAX_RECORD_LOCKS,
                ShareGroupSetting.RENEW_ACKNOWLEDGE_ENABLE, ShareGroupSetting.ASSIGNMENT_INTERVAL_MS,
                ShareGroupSetting.DEAD_LETTER_QUEUE_TOPIC_NAME, ShareGroupSetting.DEAD_LETTER_QUEUE_COPY_RECORD_ENABLE)) {
            assertTrue(s.isSetOnGroup(known), known + " should be the group's own value: " + s);
        }
        // Kafka 4.4 does not know the KIP-1327 and KIP-1349 settings: describe says so.
        assertFalse(s.isSupported(ShareGroupSetting.AUTO_OFFSET_RESET_NEW_PARTITIONS));
        assertFalse(s.isSupported(ShareGroupSetting.MAX_RECORD_BYTES_BETWEEN_SNAPSHOTS));
        assertEquals(Optional.empty(), s.newPartitionsAutoOffsetReset());
        assertTrue(s.maxRecordBytesBetweenSnapshots().isEmpty());

        settings.update().unset(ShareGroupSetting.DELIVERY_COUNT_LIMIT).unset(ShareGroupSetting.ISOLATION_LEVEL).apply();
        ShareGroupConfigSnapshot reverted = settings.describe();
        assertFalse(reverted.isSetOnGroup(ShareGroupSetting.DELIVERY_COUNT_LIMIT));
        assertEquals(OptionalInt.of(5), reverted.deliveryCountLimit(), "broker default after unset");
        assertEquals(Optional.of(IsolationLevel.READ_UNCOMMITTED), reverted.isolationLevel(), "broker default after unset");
        assertEquals(Optional.of(Duration.ofSeconds(45)), reverted.recordLockDuration(), "untouched setting kept");
    }

    @Test
    void everyResetPolicyShareGroupsAcceptRoundTrips(EmbeddedKafka kafka) {
        ShareGroupSettings settings = ShareGroupSettings.forGroup(kafka.admin(), TestTopics.unique("settings-reset"));
        for (ResetPolicy policy : List.of(ResetPolicy.EARLIEST, ResetPolicy.LATEST, ResetPolicy.byDuration(Duration.ofMinutes(90)),
                ResetPolicy.byDuration(Duration.ofDays(2)))) {
            settings.update().autoOffsetReset(policy).apply();
            assertEquals(Optional.of(policy), settings.describe().autoOffsetReset());
        }
        settings.update().set(ShareGroupSetting.AUTO_OFFSET_RESET, " EARLIEST ").apply();
        assertEquals(Optional.of("earliest"), settings.describe().value(ShareGroupSetting.AUTO_OFFSET_RESET));
    }

    @Test
    void badValuesAreRejectedBeforeAnythingIsSent(EmbeddedKafka kafka) {
        RecordingAdmin recording = new RecordingAdmin(kafka.admin());
        ShareGroupSettings settings = ShareGroupSettings.forGroup(recording.admin(), TestTopics.unique("settings-bad"));
        ShareGroupSettingsUpdate update = settings.update();

        assertRejected("share.delivery.count.limit", "1", () -> update.deliveryCountLimit(1));
        assertRejected("share.record.lock.duration.ms", "999", () -> update.recordLockDuration(Duration.ofMillis(999)));
        assertRejected("share.record.lock.duration.ms", "PT1.0005S", () -> update.recordLockDuration(Duration.ofNanos(1_000_500_000)));
        assertRejected("share.max.record.bytes.between.snapshots", "0", () -> update.maxRecordBytesBetweenSnapshots(0));
        assertRejected("share.partition.max.record.locks", "99", () -> update.partitionMaxRecordLocks(99));
        assertRejected("share.isolation.level", "serializable", () -> update.set(ShareGroupSetting.ISOLATION_LEVEL, "serializable"));
        assertRejected("share.auto.offset.reset", "none", () -> update.autoOffsetReset(ResetPolicy.NONE));
        assertRejected("share.auto.offset.reset", "by_duration:one-hour", () -> update.set(ShareGroupSetting.AUTO_OFFSET_RESET, "by_duration:one-hour"));
        assertRejected("share.auto.offset.reset.new.partitions", "sometimes",
                () -> update.set(ShareGroupSetting.AUTO_OFFSET_RESET_NEW_PARTITIONS, "sometimes"));
        assertRejected("share.renew.acknowledge.enable", "yes", () -> update.set(ShareGroupSetting.RENEW_ACKNOWLEDGE_ENABLE, "yes"));
        assertRejected("errors.deadletterqueue.topic.name", "__dlq", () -> update.deadLetterQueueTopic("__dlq"));
        assertRejected("errors.deadletterqueue.topic.name", "bad topic", () -> update.deadLetterQueueTopic("bad topic"));
        assertRejected("share.session.timeout.ms", "abc", () -> update.set(ShareGroupSetting.SESSION_TIMEOUT_MS, "abc"));
        assertTrue(update.values().isEmpty(), "rejected values must not stay in the update: " + update.values());
        assertEquals(0, recording.count("incrementalAlterConfigs") + recording.count("describeConfigs"), "nothing may be sent");
    }

    @Test
    void valuesOutsideTheBrokersBoundsFailTheWholeUpdateWithoutAnAlterRequest(EmbeddedKafka kafka) {
        RecordingAdmin recording = new RecordingAdmin(kafka.admin());
        ShareGroupSettings settings = ShareGroupSettings.forGroup(recording.admin(), TestTopics.unique("settings-bounds"));
        settings.update().deliveryCountLimit(4).apply();
        long altersBefore = recording.count("incrementalAlterConfigs");

        // The embedded broker allows lock durations from 1000 (group.share.min.record.lock.duration.ms,
        // set by the testkit) to 60000 ms (group.share.max.record.lock.duration.ms, Kafka's default).
        ConfigException tooLong = assertThrows(ConfigException.class,
                () -> settings.update().deliveryCountLimit(3).recordLockDuration(Duration.ofMillis(60_001)).apply());
        assertTrue(tooLong.getMessage().contains("share.record.lock.duration.ms") && tooLong.getMessage().contains("60001")
                && tooLong.getMessage().contains("group.share.max.record.lock.duration.ms"), tooLong.getMessage());

        ConfigException tooMany = assertThrows(ConfigException.class, () -> settings.update().deliveryCountLimit(11).apply());
        assertTrue(tooMany.getMessage().contains("share.delivery.count.limit") && tooMany.getMessage().contains("11")
                && tooMany.getMessage().contains("group.share.max.delivery.count.limit"), tooMany.getMessage());

        ConfigException shortSession = assertThrows(ConfigException.class,
                () -> settings.update().sessionTimeout(Duration.ofSeconds(30)).apply());
        assertTrue(shortSession.getMessage().contains("30000") && shortSession.getMessage().contains("group.share.min.session.timeout.ms"),
                shortSession.getMessage());

        ConfigException slowHeartbeat = assertThrows(ConfigException.class,
                () -> settings.update().deliveryCountLimit(3).heartbeatInterval(Duration.ofMillis(15_001)).apply());
        assertTrue(slowHeartbeat.getMessage().contains("share.heartbeat.interval.ms") && slowHeartbeat.getMessage().contains("15001")
                && slowHeartbeat.getMessage().contains("group.share.max.heartbeat.interval.ms"), slowHeartbeat.getMessage());

        assertEquals(altersBefore, recording.count("incrementalAlterConfigs"), "no alter request, not even validateOnly");
        ShareGroupConfigSnapshot after = settings.describe();
        assertEquals(OptionalInt.of(4), after.deliveryCountLimit(), "the valid part of the failed updates must not be applied");
        assertFalse(after.isSetOnGroup(ShareGroupSetting.RECORD_LOCK_DURATION_MS));
        assertFalse(after.isSetOnGroup(ShareGroupSetting.SESSION_TIMEOUT_MS));
    }

    @Test
    void settingsThe44BrokerDoesNotKnowAreReportedAndNothingElseChanges(EmbeddedKafka kafka) {
        RecordingAdmin recording = new RecordingAdmin(kafka.admin());
        ShareGroupSettings settings = ShareGroupSettings.forGroup(recording.admin(), TestTopics.unique("settings-unknown"));
        settings.update().deliveryCountLimit(4).apply();
        long altersBefore = recording.count("incrementalAlterConfigs");

        UnsupportedShareGroupSettingException newPartitions = assertThrows(UnsupportedShareGroupSettingException.class,
                () -> settings.update().deliveryCountLimit(3).autoOffsetReset(ResetPolicy.EARLIEST)
                        .newPartitionsAutoOffsetReset(ResetPolicy.EARLIEST).apply());
        assertEquals(List.of(ShareGroupSetting.AUTO_OFFSET_RESET_NEW_PARTITIONS), newPartitions.settings());
        assertTrue(newPartitions.getMessage().contains("share.auto.offset.reset.new.partitions (KIP-1327)"), newPartitions.getMessage());
        assertTrue(newPartitions.brokerVersion().startsWith("Kafka 4.4 (metadata.version 4.4-IV2"), newPartitions.brokerVersion());
        assertTrue(newPartitions.getMessage().contains(newPartitions.brokerVersion()), newPartitions.getMessage());

        UnsupportedShareGroupSettingException both = assertThrows(UnsupportedShareGroupSettingException.class,
                () -> settings.update().isolationLevel(IsolationLevel.READ_COMMITTED).maxRecordBytesBetweenSnapshots(1024 * 1024)
                        .newPartitionsAutoOffsetReset(ResetPolicy.byDuration(Duration.ofMinutes(5))).validate());
        assertEquals(List.of("share.auto.offset.reset.new.partitions", "share.max.record.bytes.between.snapshots"), both.keys());
        assertTrue(both.getMessage().contains("share.max.record.bytes.between.snapshots (KIP-1349)"), both.getMessage());

        assertThrows(UnsupportedShareGroupSettingException.class,
                () -> settings.update().unset(ShareGroupSetting.MAX_RECORD_BYTES_BETWEEN_SNAPSHOTS).deliveryCountLimit(2).apply());

        assertEquals(altersBefore, recording.count("incrementalAlterConfigs"), "no alter request for an update the broker cannot take");
        ShareGroupConfigSnapshot after = settings.describe();
        assertEquals(OptionalInt.of(4), after.deliveryCountLimit(), "other settings of the failed updates unchanged");
        assertEquals(Optional.of(ResetPolicy.LATEST), after.autoOffsetReset());
        assertFalse(after.isSetOnGroup(ShareGroupSetting.AUTO_OFFSET_RESET));
        assertEquals(Optional.of(IsolationLevel.READ_UNCOMMITTED), after.isolationLevel());
    }

    @Test
    void unknownSettingsAreStillReportedWhenOnlyTheBrokersValidationSeesThem(EmbeddedKafka kafka) {
        // The broker's answer to validateOnly is the last line of defence: hide the describe.
        RecordingAdmin recording = new RecordingAdmin(kafka.admin(), Set.of(ConfigResource.Type.GROUP));
        ShareGroupSettings settings = ShareGroupSettings.forGroup(recording.admin(), TestTopics.unique("settings-validate-only"));
        UnsupportedShareGroupSettingException e = assertThrows(UnsupportedShareGroupSettingException.class,
                () -> settings.update().deliveryCountLimit(3).maxRecordBytesBetweenSnapshots(4096).apply());
        assertEquals(List.of(ShareGroupSetting.MAX_RECORD_BYTES_BETWEEN_SNAPSHOTS), e.settings());
        assertEquals(1, recording.count("incrementalAlterConfigs"), "only the validateOnly request");
        assertFalse(ShareGroupSettings.forGroup(kafka.admin(), settings.groupId()).describe()
                .isSetOnGroup(ShareGroupSetting.DELIVERY_COUNT_LIMIT));
    }

    @Test
    void withoutTheBrokersBoundsTheSessionTimeoutMustStillExceedTheHeartbeatInterval(EmbeddedKafka kafka) {
        RecordingAdmin recording = new RecordingAdmin(kafka.admin(), Set.of(ConfigResource.Type.BROKER));
        ShareGroupSettings settings = ShareGroupSettings.forGroup(recording.admin(), TestTopics.unique("settings-no-bounds"));
        ConfigException e = assertThrows(ConfigException.class,
                () -> settings.update().sessionTimeout(Duration.ofSeconds(2)).heartbeatInterval(Duration.ofSeconds(3)).apply());
        assertTrue(e.getMessage().contains("share.session.timeout.ms") && e.getMessage().contains("2000")
                && e.getMessage().contains("must be greater than share.heartbeat.interval.ms (3000)"), e.getMessage());
        ConfigException againstCurrent = assertThrows(ConfigException.class,
                () -> settings.update().sessionTimeout(Duration.ofMillis(400)).apply());
        assertTrue(againstCurrent.getMessage().contains("400") && againstCurrent.getMessage().contains("(500)"),
                "the group's effective heartbeat interval is the embedded broker's 500 ms: " + againstCurrent.getMessage());
        assertEquals(0, recording.count("incrementalAlterConfigs"));
    }

    @Test
    void validateChecksWithTheBrokerAndChangesNothing(EmbeddedKafka kafka) {
        ShareGroupSettings settings = ShareGroupSettings.forGroup(kafka.admin(), TestTopics.unique("settings-validate"));
        settings.update().recordLockDuration(Duration.ofSeconds(20)).deliveryCountLimit(7).validate();
        ShareGroupConfigSnapshot s = settings.describe();
        assertFalse(s.isSetOnGroup(ShareGroupSetting.RECORD_LOCK_DURATION_MS));
        assertEquals(OptionalInt.of(5), s.deliveryCountLimit());
    }

    private static void assertRejected(String key, String value, Runnable setter) {
        ConfigException e = assertThrows(ConfigException.class, setter::run);
        assertTrue(e.getMessage().contains(key) && e.getMessage().contains(value), "message must name " + key + " and " + value + ": " + e.getMessage());
    }
}
