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
import io.gapless.kafka.testkit.TestTopics;
import io.gapless.kafka.testkit.legacy.LegacyKafka;
import io.gapless.kafka.testkit.legacy.LegacyKafkaTest;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** ShareGroupSettings against an older broker (by default Kafka 4.3.1, in a child JVM). */
@LegacyKafkaTest
class ShareGroupSettingsLegacyBrokerIT {
    private static LegacyKafka legacy;
    private static Admin admin;

    @BeforeAll
    static void connect(LegacyKafka broker) {
        legacy = broker;
        admin = broker.admin();
    }

    @Test
    void settingsThe43BrokerKnowsRoundTrip() {
        ShareGroupSettings settings = ShareGroupSettings.forGroup(admin, TestTopics.unique("legacy-roundtrip"));
        settings.update().autoOffsetReset(ResetPolicy.EARLIEST).recordLockDuration(Duration.ofSeconds(20)).deliveryCountLimit(3).apply();
        ShareGroupConfigSnapshot s = settings.describe();
        assertEquals(Optional.of(ResetPolicy.EARLIEST), s.autoOffsetReset());
        assertEquals(Optional.of(Duration.ofSeconds(20)), s.recordLockDuration());
        assertEquals(OptionalInt.of(3), s.deliveryCountLimit());
    }

    @Test
    void deadLetterQueueSettingsAreUnknownTo43AndNameTheBrokersVersion() {
        ShareGroupSettings settings = ShareGroupSettings.forGroup(admin, TestTopics.unique("legacy-dlq"));
        assertFalse(settings.describe().isSupported(ShareGroupSetting.DEAD_LETTER_QUEUE_TOPIC_NAME));
        UnsupportedShareGroupSettingException e = assertThrows(UnsupportedShareGroupSettingException.class,
                () -> settings.update().deliveryCountLimit(4).deadLetterQueueTopic("legacy-dlq-topic")
                        .deadLetterQueueCopyRecordEnabled(true).newPartitionsAutoOffsetReset(ResetPolicy.EARLIEST).apply());
        assertEquals(List.of(ShareGroupSetting.AUTO_OFFSET_RESET_NEW_PARTITIONS, ShareGroupSetting.DEAD_LETTER_QUEUE_TOPIC_NAME,
                ShareGroupSetting.DEAD_LETTER_QUEUE_COPY_RECORD_ENABLE), e.settings());
        String release = legacy.kafkaVersion().substring(0, 3);
        assertTrue(e.brokerVersion().startsWith("Kafka " + release + " (metadata.version " + legacy.metadataVersion()), e.brokerVersion());
        assertTrue(e.getMessage().contains("errors.deadletterqueue.topic.name"), e.getMessage());
        assertEquals(OptionalInt.of(5), settings.describe().deliveryCountLimit(), "nothing else of the update applied");
    }
}
