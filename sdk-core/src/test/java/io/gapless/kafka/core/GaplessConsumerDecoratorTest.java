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

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GaplessConsumerDecoratorTest {

    private static Map<String, Object> config() {
        Map<String, Object> m = new HashMap<>();
        m.put("group.id", "g");
        m.put("bootstrap.servers", "localhost:9092");
        m.put("key.deserializer", "org.apache.kafka.common.serialization.StringDeserializer");
        m.put("value.deserializer", "org.apache.kafka.common.serialization.StringDeserializer");
        return m;
    }

    @Test
    void overridesEveryConsumerMethod() {
        List<String> missing = new ArrayList<>();
        for (Method m : Consumer.class.getMethods()) {
            if (Modifier.isStatic(m.getModifiers())) {
                continue;
            }
            try {
                Method impl = GaplessConsumer.class.getMethod(m.getName(), m.getParameterTypes());
                // Implemented by GaplessConsumer or the ForwardingConsumer it extends, never left to an interface default.
                if (impl.getDeclaringClass().isInterface() || Modifier.isAbstract(impl.getModifiers())) {
                    missing.add(m.toString());
                }
            } catch (NoSuchMethodException e) {
                missing.add(m.toString());
            }
        }
        assertEquals(List.of(), missing, "every Consumer method must be forwarded");
    }

    @Test
    void withoutTheSettingItIsAPlainPassThrough() {
        MockConsumer<String, String> mock = new MockConsumer<>("latest");
        AtomicReference<Map<String, Object>> seen = new AtomicReference<>();
        try (GaplessConsumer<String, String> consumer = new GaplessConsumer<>(config(), cfg -> {
            seen.set(cfg);
            return mock;
        }, BrokerCapabilities.clientOnly(), cfg -> {
            throw new AssertionError("no broker probe without the setting");
        })) {
            assertEquals("off", consumer.newPartitionsMode());
            TopicPartition tp = new TopicPartition("t", 0);
            consumer.assign(List.of(tp));
            mock.updateBeginningOffsets(Map.of(tp, 0L));
            consumer.seekToBeginning(List.of(tp));
            mock.addRecord(new ConsumerRecord<>("t", 0, 0L, "k", "v"));
            ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(10));
            assertEquals(1, records.count());
            assertEquals(1L, consumer.position(tp));
            assertEquals(List.of(tp), List.copyOf(consumer.assignment()));
        }
        assertFalse(seen.get().containsKey("auto.offset.reset"), "the user's reset policy is not touched");
    }

    @Test
    void emulationRunsKafkaWithResetNoneAndHidesSdkKeys() {
        Map<String, Object> cfg = config();
        cfg.put("auto.offset.reset", "latest");
        cfg.put("auto.offset.reset.new.partitions", "earliest");
        cfg.put("gapless.baseline.topic", "baselines");
        AtomicReference<Map<String, Object>> seen = new AtomicReference<>();
        try (GaplessConsumer<String, String> consumer = new GaplessConsumer<>(cfg, c -> {
            seen.set(c);
            return new MockConsumer<>("none");
        }, BrokerCapabilities.clientOnly(), c -> {
            throw new AssertionError("a 4.4 client does not know the setting: no broker probe");
        })) {
            assertEquals("emulate", consumer.newPartitionsMode());
            assertTrue(consumer.metrics().keySet().stream().anyMatch(n -> n.name().equals("new-partitions-mode")));
        }
        assertEquals("none", seen.get().get("auto.offset.reset"));
        assertFalse(seen.get().containsKey("auto.offset.reset.new.partitions"));
        assertFalse(seen.get().containsKey("gapless.baseline.topic"));
    }

    @Test
    void nativePathPassesTheSettingThroughWhenClientAndBrokerSupportIt() {
        Map<String, Object> cfg = config();
        cfg.put("group.protocol", "consumer");   // Kafka's KIP-1327 serves the consumer protocol only
        cfg.put("auto.offset.reset", "latest");
        cfg.put("auto.offset.reset.new.partitions", "earliest");
        AtomicReference<Map<String, Object>> seen = new AtomicReference<>();
        AtomicInteger probes = new AtomicInteger();
        BrokerCapabilities supporting = BrokerCapabilities.of(Map.of("group.version", (short) 2), true);
        try (GaplessConsumer<String, String> consumer = new GaplessConsumer<>(cfg, c -> {
            seen.set(c);
            return new MockConsumer<>("latest");
        }, supporting, c -> {
            probes.incrementAndGet();
            return supporting;
        })) {
            assertEquals("native", consumer.newPartitionsMode());
        }
        assertEquals(1, probes.get(), "broker probed once");
        assertEquals("earliest", seen.get().get("auto.offset.reset.new.partitions"));
        assertEquals("latest", seen.get().get("auto.offset.reset"), "native: Kafka applies both policies itself");
    }

    @Test
    void autoEmulatesWhenTheBrokerIsTooOld() {
        Map<String, Object> cfg = config();
        cfg.put("auto.offset.reset.new.partitions", "earliest");
        BrokerCapabilities client = BrokerCapabilities.of(Map.of(), true);
        try (GaplessConsumer<String, String> consumer = new GaplessConsumer<>(cfg, c -> new MockConsumer<>("none"), client,
                c -> BrokerCapabilities.of(Map.of("group.version", (short) 1), true))) {
            assertEquals("emulate", consumer.newPartitionsMode());
        }
    }

    @Test
    void nativeModeFailsFastWithoutSupport() {
        Map<String, Object> cfg = config();
        cfg.put("group.protocol", "consumer");
        cfg.put("auto.offset.reset.new.partitions", "earliest");
        cfg.put("gapless.new.partitions.mode", "native");
        ConfigException e = assertThrows(ConfigException.class, () -> new GaplessConsumer<>(cfg,
                c -> new MockConsumer<String, String>("none"), BrokerCapabilities.clientOnly(), c -> BrokerCapabilities.clientOnly()));
        assertTrue(e.getMessage().contains("gapless.new.partitions.mode"), e.getMessage());
        assertTrue(e.getMessage().contains("does not know auto.offset.reset.new.partitions"), e.getMessage());
    }

    @Test
    void aClassicConsumerStaysEmulatedWhereClientAndBrokerSupportKip1327() {
        Map<String, Object> cfg = config();
        cfg.put("auto.offset.reset", "latest");
        cfg.put("auto.offset.reset.new.partitions", "earliest");
        BrokerCapabilities supporting = BrokerCapabilities.of(Map.of("group.version", (short) 2), true);
        AtomicReference<Map<String, Object>> seen = new AtomicReference<>();
        for (Object classic : new Object[]{null, "classic", "CLASSIC"}) {
            if (classic != null) {
                cfg.put("group.protocol", classic);
            }
            try (GaplessConsumer<String, String> consumer = new GaplessConsumer<>(cfg, c -> {
                seen.set(c);
                return new MockConsumer<>("none");
            }, supporting, c -> {
                throw new AssertionError("a classic consumer never goes native: no broker probe");
            })) {
                assertEquals("emulate", consumer.newPartitionsMode(), "group.protocol=" + classic);
            }
            assertFalse(seen.get().containsKey("auto.offset.reset.new.partitions"), "Kafka's classic consumer rejects the setting");
            assertEquals("none", seen.get().get("auto.offset.reset"));
        }
        cfg.put("gapless.new.partitions.mode", "native");
        ConfigException e = assertThrows(ConfigException.class, () -> new GaplessConsumer<>(cfg,
                c -> new MockConsumer<String, String>("none"), supporting, c -> supporting));
        assertTrue(e.getMessage().contains("group.protocol=classic"), e.getMessage());
    }
}
