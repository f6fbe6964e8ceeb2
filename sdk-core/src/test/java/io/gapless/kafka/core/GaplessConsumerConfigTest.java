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
package io.gapless.kafka.core;

import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GaplessConsumerConfigTest {

    private static Map<String, Object> base() {
        Map<String, Object> m = new HashMap<>();
        m.put("group.id", "g");
        m.put("bootstrap.servers", "localhost:9092");
        return m;
    }

    @Test
    void defaultsAreKafkasBehaviour() {
        GaplessConsumerConfig c = new GaplessConsumerConfig(base());
        assertEquals(Optional.empty(), c.newPartitionsPolicy());
        assertEquals(ResetPolicy.LATEST, c.basePolicy());
        assertEquals("__gapless_baseline.g", c.baselineTopic("g"), "each group its own baseline topic");
        assertEquals("__gapless_baseline.orders__eu_2Fb", c.baselineTopic("orders_eu/b"), "injective, legal names");
        assertEquals(Optional.empty(), c.sharedBaselineTopic());
        assertEquals(BaselineUnavailablePolicy.FAIL, c.baselineUnavailablePolicy());
        assertEquals(NewPartitionsMode.AUTO, c.mode());
    }

    @Test
    void readsEverySetting() {
        Map<String, Object> m = base();
        m.put("auto.offset.reset", "none");
        m.put("auto.offset.reset.new.partitions", "by_duration:PT30M");
        m.put("gapless.baseline.topic", "my-baselines");
        m.put("gapless.baseline.unavailable", "base-policy");
        m.put("gapless.new.partitions.mode", "EMULATE");
        GaplessConsumerConfig c = new GaplessConsumerConfig(m);
        assertEquals(ResetPolicy.NONE, c.basePolicy());
        assertEquals("by_duration:PT30M", c.newPartitionsPolicy().orElseThrow().toString());
        assertEquals("my-baselines", c.baselineTopic("g"));
        assertEquals("my-baselines", c.baselineTopic("another-group"), "one topic shared by every group");
        assertEquals(Optional.of("my-baselines"), c.sharedBaselineTopic());
        assertEquals(BaselineUnavailablePolicy.BASE_POLICY, c.baselineUnavailablePolicy());
        assertEquals(NewPartitionsMode.EMULATE, c.mode());
    }

    @ParameterizedTest
    @ValueSource(strings = {"none", "smallest", "by_duration:-PT1H", "by_duration:soon", "latest "})
    void badNewPartitionPoliciesFailNamingKeyAndValue(String value) {
        Map<String, Object> m = base();
        m.put("auto.offset.reset.new.partitions", value);
        if (value.equals("latest ")) {
            assertEquals(ResetPolicy.LATEST, new GaplessConsumerConfig(m).newPartitionsPolicy().orElseThrow());
            return;
        }
        ConfigException e = assertThrows(ConfigException.class, () -> new GaplessConsumerConfig(m));
        assertTrue(e.getMessage().contains("auto.offset.reset.new.partitions"), e.getMessage());
        assertTrue(e.getMessage().contains(value), e.getMessage());
    }

    @Test
    void otherBadValuesFailNamingTheKey() {
        for (Map.Entry<String, Object> bad : Map.<String, Object>of(
                "auto.offset.reset", "oldest",
                "gapless.baseline.topic", "bad topic!",
                "gapless.baseline.topic.prefix", "bad prefix!",
                "gapless.baseline.unavailable", "ignore",
                "gapless.new.partitions.mode", "magic",
                "gapless.baseline.timeout.ms", "0").entrySet()) {
            Map<String, Object> m = base();
            m.put(bad.getKey(), bad.getValue());
            ConfigException e = assertThrows(ConfigException.class, () -> new GaplessConsumerConfig(m), bad.toString());
            assertTrue(e.getMessage().contains(bad.getKey()), e.getMessage());
        }
    }

    @Test
    void aPrefixNamesEachGroupsTopic() {
        Map<String, Object> m = base();
        m.put("gapless.baseline.topic.prefix", "tenant-a.baselines.");
        assertEquals("tenant-a.baselines.g", new GaplessConsumerConfig(m).baselineTopic("g"));
    }

    @Test
    void aSharedTopicAndAPrefixExcludeEachOther() {
        Map<String, Object> m = base();
        m.put("gapless.baseline.topic", "shared");
        m.put("gapless.baseline.topic.prefix", "tenant-a.");
        ConfigException e = assertThrows(ConfigException.class, () -> new GaplessConsumerConfig(m));
        assertTrue(e.getMessage().contains("gapless.baseline.topic") && e.getMessage().contains("tenant-a."), e.getMessage());
    }

    @Test
    void aNewPartitionsPolicyNeedsAGroup() {
        Map<String, Object> m = base();
        m.remove("group.id");
        m.put("auto.offset.reset.new.partitions", "earliest");
        ConfigException e = assertThrows(ConfigException.class, () -> new GaplessConsumerConfig(m));
        assertTrue(e.getMessage().contains("group.id"), e.getMessage());
    }

    @Test
    void sdkKeysAreStrippedForKafka() {
        Map<String, Object> m = base();
        m.put("auto.offset.reset.new.partitions", "earliest");
        m.put("gapless.baseline.topic", "t");
        Map<String, Object> kafka = GaplessConsumerConfig.withoutSdkKeys(m);
        assertFalse(kafka.containsKey("auto.offset.reset.new.partitions"));
        assertFalse(kafka.containsKey("gapless.baseline.topic"));
        assertEquals("g", kafka.get("group.id"));
    }
}
