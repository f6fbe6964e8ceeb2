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

import io.gapless.kafka.core.spi.ConnectionConfigs;
import io.gapless.kafka.core.internal.ResetMetrics;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What dashboards read from {@link GaplessConsumer#metrics()}: Kafka's and the SDK's metrics side
 * by side, under one client id, every value a number, Kafka's naming. The consumers are never
 * polled (a Kafka consumer connects only when used).
 */
class GaplessConsumerMetricsTest {

    private static Map<String, Object> config(boolean newPartitionsPolicy) {
        Map<String, Object> m = new HashMap<>();
        m.put("group.id", "orders-service");
        m.put("bootstrap.servers", "localhost:1");
        m.put("auto.offset.reset", "latest");
        if (newPartitionsPolicy) {
            m.put("auto.offset.reset.new.partitions", "earliest");
        }
        return m;
    }

    private static Map<MetricName, ? extends Metric> sdkMetrics(Consumer<?, ?> consumer) {
        return consumer.metrics().entrySet().stream().filter(e -> e.getKey().group().equals(ResetMetrics.GROUP))
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }

    @Test
    void theSdksMetricsCarryTheKafkaConsumersOwnClientId() {
        try (GaplessConsumer<String, String> a = new GaplessConsumer<>(config(true), new StringDeserializer(), new StringDeserializer());
             GaplessConsumer<String, String> b = new GaplessConsumer<>(config(true), new StringDeserializer(), new StringDeserializer())) {
            for (GaplessConsumer<String, String> consumer : List.of(a, b)) {
                Set<String> ids = consumer.metrics().keySet().stream().map(m -> m.tags().get("client-id"))
                        .filter(java.util.Objects::nonNull).collect(Collectors.toSet());
                assertEquals(1, ids.size(), "one client-id tag for Kafka's and the SDK's metrics: " + ids);
                assertTrue(ids.iterator().next().startsWith("consumer-orders-service-"), "Kafka's own default client id: " + ids);
            }
            assertNotEquals(clientId(a), clientId(b), "Kafka's sequence keeps the ids of two consumers apart");
        }
    }

    @Test
    void aConfiguredClientIdIsKeptEverywhere() {
        Map<String, Object> config = config(true);
        config.put("client.id", "orders-1");
        try (GaplessConsumer<String, String> consumer = new GaplessConsumer<>(config, new StringDeserializer(), new StringDeserializer())) {
            assertEquals("orders-1", clientId(consumer));
        }
    }

    @Test
    void everySdkMetricIsNumericSoThatMicrometerBindsIt() {
        try (GaplessConsumer<String, String> emulating = new GaplessConsumer<>(config(true), new StringDeserializer(), new StringDeserializer());
             GaplessConsumer<String, String> off = new GaplessConsumer<>(config(false), new StringDeserializer(), new StringDeserializer())) {
            sdkMetrics(emulating).forEach((name, metric) -> assertInstanceOf(Number.class, metric.metricValue(), name.toString()));
            assertEquals(2.0, mode(emulating), "emulate is mode 2 (the ordinal of off, native, emulate)");
            assertEquals(0.0, mode(off), "off is mode 0");
        }
    }

    @Test
    void everyTotalHasARatePartnerAndNamesFollowKafka() {
        try (GaplessConsumer<String, String> consumer = new GaplessConsumer<>(config(true), new StringDeserializer(), new StringDeserializer())) {
            Set<String> names = sdkMetrics(consumer).keySet().stream().map(MetricName::name).collect(Collectors.toSet());
            for (String name : names) {
                assertFalse(name.contains("-ms-"), "Kafka names latencies without a unit infix: " + name);
                if (name.endsWith("-total")) {
                    assertTrue(names.contains(name.replace("-total", "-rate")), "a -rate partner for " + name + " in " + names);
                }
            }
            assertTrue(names.containsAll(Set.of("classification-time-avg", "classification-time-max",
                    "baseline-reads-total", "baseline-reads-rate", "baseline-writes-total", "baseline-writes-rate", "new-partitions-mode")), names.toString());
        }
    }

    @Test
    void helperClientsGetIdsDerivedFromTheConsumersClientId() {
        Map<String, Object> config = config(true);
        config.put("client.id", "consumer-orders-service-7");
        assertEquals("consumer-orders-service-7-baseline", ConnectionConfigs.from(config, "baseline").get("client.id"));
        assertEquals("consumer-orders-service-7-baseline-admin",
                ConnectionConfigs.withClientIdSuffix(ConnectionConfigs.from(config, "baseline"), "admin").get("client.id"));
    }

    private static String clientId(Consumer<?, ?> consumer) {
        return consumer.metrics().keySet().stream().filter(m -> m.group().equals(ResetMetrics.GROUP)).findFirst().orElseThrow()
                .tags().get("client-id");
    }

    private static double mode(Consumer<?, ?> consumer) {
        return sdkMetrics(consumer).entrySet().stream().filter(e -> e.getKey().name().equals("new-partitions-mode")).findFirst()
                .map(e -> ((Number) e.getValue().metricValue()).doubleValue()).orElseThrow();
    }
}
