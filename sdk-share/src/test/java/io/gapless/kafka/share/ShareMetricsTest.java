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

import org.apache.kafka.clients.consumer.ShareConsumer;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What dashboards read from {@link GaplessShareConsumer#metrics()}: the share consumer's and the
 * SDK's metrics under one client id, every value a number, Kafka's naming. The consumers are
 * never polled (no broker; the emulation is chosen by setting, so nothing is probed).
 */
class ShareMetricsTest {

    private static Map<String, Object> config() {
        Map<String, Object> m = new HashMap<>();
        m.put("bootstrap.servers", "localhost:1");
        m.put("group.id", "orders-workers");
        m.put("share.auto.offset.reset", "latest");
        m.put("share.auto.offset.reset.new.partitions", "earliest");
        m.put("gapless.new.partitions.mode", "emulate");
        return m;
    }

    private static Map<MetricName, ? extends Metric> sdkMetrics(ShareConsumer<?, ?> consumer) {
        return consumer.metrics().entrySet().stream().filter(e -> e.getKey().group().startsWith("gapless-"))
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }

    private static Set<String> clientIds(ShareConsumer<?, ?> consumer) {
        return consumer.metrics().keySet().stream().map(m -> m.tags().get("client-id")).filter(Objects::nonNull).collect(Collectors.toSet());
    }

    @Test
    void theSdksMetricsCarryTheKafkaShareConsumersOwnClientId() {
        try (GaplessShareConsumer<String, String> a = new GaplessShareConsumer<>(config(), new StringDeserializer(), new StringDeserializer());
             GaplessShareConsumer<String, String> b = new GaplessShareConsumer<>(config(), new StringDeserializer(), new StringDeserializer())) {
            for (GaplessShareConsumer<String, String> consumer : List.of(a, b)) {
                assertTrue(!sdkMetrics(consumer).isEmpty(), "the SDK's metrics are there");
                Set<String> ids = clientIds(consumer);
                assertEquals(1, ids.size(), "one client-id tag for Kafka's and the SDK's metrics: " + ids);
                assertTrue(ids.iterator().next().startsWith("consumer-orders-workers-"), "Kafka's own default client id: " + ids);
            }
            assertNotEquals(clientIds(a), clientIds(b));
        }
    }

    @Test
    void everySdkMetricIsNumericWithKafkasNames() {
        try (GaplessShareConsumer<String, String> consumer = new GaplessShareConsumer<>(config(), new StringDeserializer(), new StringDeserializer())) {
            Map<MetricName, ? extends Metric> sdk = sdkMetrics(consumer);
            sdk.forEach((name, metric) -> assertInstanceOf(Number.class, metric.metricValue(), name.toString()));
            Set<String> names = sdk.keySet().stream().map(MetricName::name).collect(Collectors.toSet());
            for (String name : names) {
                if (name.endsWith("-total")) {
                    assertTrue(names.contains(name.replace("-total", "-rate")), "a -rate partner for " + name + " in " + names);
                }
            }
            double mode = sdk.entrySet().stream().filter(e -> e.getKey().name().equals("new-partitions-mode")).findFirst()
                    .map(e -> ((Number) e.getValue().metricValue()).doubleValue()).orElseThrow();
            assertEquals(2.0, mode, "emulate is mode 2, as for GaplessConsumer");
        }
    }
}
