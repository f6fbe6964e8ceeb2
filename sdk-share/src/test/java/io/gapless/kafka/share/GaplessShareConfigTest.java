package io.gapless.kafka.share;

import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GaplessShareConfigTest {

    @Test
    void defaults() {
        GaplessShareConfig c = new GaplessShareConfig(Map.of("bootstrap.servers", "x:1"));
        assertEquals("emulate", c.fallback());
        assertEquals("__gapless_share_ack_ledger", c.ledgerTopic());
        assertEquals(20L * 1024 * 1024, c.maxBytesBetweenSnapshots());
        assertEquals(1, c.ledgerPartitions());
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
}
