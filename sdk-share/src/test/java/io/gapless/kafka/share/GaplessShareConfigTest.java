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
package io.gapless.kafka.share;

import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GaplessShareConfigTest {

    @Test
    void defaults() {
        GaplessShareConfig c = new GaplessShareConfig(Map.of("bootstrap.servers", "x:1", "group.id", "orders_v2"));
        assertEquals("emulate", c.fallback());
        assertEquals("__gapless_ledger.orders__v2", c.ledgerTopic(), "one ledger topic per share group (core.spi.StateTopics)");
        assertEquals(20L * 1024 * 1024, c.maxBytesBetweenSnapshots());
        assertEquals("shared", new GaplessShareConfig(Map.of("group.id", "g", GaplessShareConfig.LEDGER_TOPIC_CONFIG, "shared")).ledgerTopic());
        assertEquals("acme.ledger.g", new GaplessShareConfig(Map.of("group.id", "g", GaplessShareConfig.LEDGER_TOPIC_PREFIX_CONFIG,
                "acme.ledger.")).ledgerTopic());
    }

    @Test
    void ledgerTopicsHaveOnePartitionSoThePartitionCountIsNoLongerASetting() {
        ConfigException e = assertThrows(ConfigException.class, () -> new GaplessShareConfig(Map.of("group.id", "g",
                "gapless.ledger.partitions", "4")).ledgerTopic());
        assertTrue(e.getMessage().contains("gapless.ledger.partitions") && e.getMessage().contains("one partition"), e.getMessage());
        ConfigException prefix = assertThrows(ConfigException.class, () -> new GaplessShareConfig(Map.of(
                GaplessShareConfig.LEDGER_TOPIC_PREFIX_CONFIG, "no spaces")));
        assertTrue(prefix.getMessage().contains(GaplessShareConfig.LEDGER_TOPIC_PREFIX_CONFIG), prefix.getMessage());
    }

    @Test
    void badValuesNameTheKeyAndTheValue() {
        ConfigException fallback = assertThrows(ConfigException.class,
                () -> new GaplessShareConfig(Map.of(GaplessShareConfig.FALLBACK_CONFIG, "maybe")));
        assertTrue(fallback.getMessage().contains("maybe") && fallback.getMessage().contains(GaplessShareConfig.FALLBACK_CONFIG),
                fallback.getMessage());
        ConfigException bytes = assertThrows(ConfigException.class,
                () -> new GaplessShareConfig(Map.of(GaplessShareConfig.LEDGER_MAX_BYTES_BETWEEN_SNAPSHOTS_CONFIG, "0")));
        assertTrue(bytes.getMessage().contains(GaplessShareConfig.LEDGER_MAX_BYTES_BETWEEN_SNAPSHOTS_CONFIG)
                && bytes.getMessage().contains("0"), bytes.getMessage());
        ConfigException rf = assertThrows(ConfigException.class,
                () -> new GaplessShareConfig(Map.of(GaplessShareConfig.LEDGER_REPLICATION_FACTOR_CONFIG, "0")));
        assertTrue(rf.getMessage().contains(GaplessShareConfig.LEDGER_REPLICATION_FACTOR_CONFIG), rf.getMessage());
        assertThrows(ConfigException.class, () -> new GaplessShareConfig(Map.of(GaplessShareConfig.LEDGER_TOPIC_CONFIG, "")));
    }

    @Test
    void sdkKeysNeverReachTheKafkaClient() {
        Map<String, Object> kafka = GaplessShareConfig.withoutSdkKeys(Map.of("gapless.ledger.topic", "l", "bootstrap.servers", "x:1",
                GaplessShareConfig.FALLBACK_CONFIG, "fail"));
        assertEquals(Map.of("bootstrap.servers", "x:1"), kafka);
    }

    @Test
    void configDefDocumentsEveryKeyTheConsumerReads() {
        Map<String, org.apache.kafka.common.config.ConfigDef.ConfigKey> keys = GaplessShareConfig.configDef().configKeys();
        for (String key : List.of(GaplessShareConfig.ACKNOWLEDGEMENT_MODE_CONFIG, GaplessShareConfig.FALLBACK_CONFIG,
                GaplessShareConfig.LEDGER_TOPIC_CONFIG, GaplessShareConfig.LEDGER_TOPIC_PREFIX_CONFIG,
                GaplessShareConfig.LEDGER_REPLICATION_FACTOR_CONFIG, GaplessShareConfig.LEDGER_MAX_BYTES_BETWEEN_SNAPSHOTS_CONFIG,
                "share.auto.offset.reset", "share.auto.offset.reset.new.partitions", "gapless.share.partition.check.interval.ms",
                "gapless.baseline.topic", "gapless.baseline.timeout.ms", "gapless.new.partitions.mode")) {
            assertTrue(keys.containsKey(key), key + " is not in GaplessShareConfig.configDef()");
            assertFalse(keys.get(key).documentation == null || keys.get(key).documentation.isBlank(), key + " has no documentation");
        }
        assertEquals("[emulate, at-least-once, fail]", keys.get(GaplessShareConfig.FALLBACK_CONFIG).validator.toString());
    }

    @Test
    void transactionalModeIsRewrittenToExplicitForTheKafkaConsumerAndNeedsAGroup() {
        GaplessShareConfig c = new GaplessShareConfig(Map.of("group.id", "g", "bootstrap.servers", "x:1",
                GaplessShareConfig.ACKNOWLEDGEMENT_MODE_CONFIG, GaplessShareConfig.ACKNOWLEDGEMENT_MODE_TRANSACTIONAL,
                "share.auto.offset.reset", "earliest", GaplessShareConfig.LEDGER_TOPIC_CONFIG, "l"));
        assertTrue(c.transactional());
        // Kafka's own default client id is pinned on the Kafka consumer, so its metrics and the SDK's agree.
        assertEquals(Map.of("group.id", "g", "bootstrap.servers", "x:1", GaplessShareConfig.ACKNOWLEDGEMENT_MODE_CONFIG, "explicit",
                "client.id", c.clientId()), c.kafkaConsumerConfigs());
        assertTrue(c.clientId().matches("consumer-g-\\d+"), c.clientId());
        ConfigException noGroup = assertThrows(ConfigException.class, () -> new GaplessShareConfig(Map.of(
                GaplessShareConfig.ACKNOWLEDGEMENT_MODE_CONFIG, GaplessShareConfig.ACKNOWLEDGEMENT_MODE_TRANSACTIONAL)));
        assertTrue(noGroup.getMessage().contains("group.id"), noGroup.getMessage());
        ConfigException mode = assertThrows(ConfigException.class, () -> new GaplessShareConfig(Map.of(
                GaplessShareConfig.ACKNOWLEDGEMENT_MODE_CONFIG, "sometimes")));
        assertTrue(mode.getMessage().contains("sometimes"), mode.getMessage());
    }

    @Test
    void newPartitionsPolicyNeedsAGroupAndRefusesNone() {
        ConfigException noGroup = assertThrows(ConfigException.class,
                () -> new GaplessShareConfig(Map.of("share.auto.offset.reset.new.partitions", "earliest")));
        assertTrue(noGroup.getMessage().contains("share.auto.offset.reset.new.partitions") && noGroup.getMessage().contains("group.id"),
                noGroup.getMessage());
        ConfigException none = assertThrows(ConfigException.class,
                () -> new GaplessShareConfig(Map.of("group.id", "g", "share.auto.offset.reset", "none")));
        assertTrue(none.getMessage().contains("share.auto.offset.reset") && none.getMessage().contains("none"), none.getMessage());
        GaplessShareConfig c = new GaplessShareConfig(Map.of("group.id", "g", "share.auto.offset.reset.new.partitions", "by_duration:PT1H",
                "gapless.new.partitions.mode", "EMULATE"));
        assertEquals("by_duration:PT1H", c.newPartitionsReset().orElseThrow().newPartitions().toString());
        assertEquals("emulate", c.newPartitionsReset().orElseThrow().mode().configValue());
        assertFalse(c.kafkaConsumerConfigs().containsKey("share.auto.offset.reset.new.partitions"));
    }
}
