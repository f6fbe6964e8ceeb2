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
package io.gapless.kafka.e2e.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.search.Search;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ShareConsumer;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Reads every SDK metric of a client back from a Micrometer registry, by the name and tags
 * Micrometer's {@code KafkaClientMetrics} gives it: {@code kafka.<group>.<name>} without
 * {@code -metrics} and with dots for dashes, each tag key likewise.
 */
final class SdkMeters {
    private SdkMeters() {
    }

    /** The SDK's metrics among a client's: every group the SDK registers starts with {@code gapless-}. */
    static Map<MetricName, ? extends Metric> of(Map<MetricName, ? extends Metric> clientMetrics) {
        return clientMetrics.entrySet().stream().filter(e -> e.getKey().group().startsWith("gapless-"))
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }

    static String meterName(MetricName name) {
        return ("kafka." + name.group() + "." + name.name()).replaceAll("-metrics", "").replace('-', '.');
    }

    /**
     * Asserts that every SDK metric in {@code clientMetrics} is a meter of {@code registry} with the
     * metric's tags, and that it reads the metric's value (rates, which move with time, only as a number).
     * Returns the meter names checked.
     */
    static List<String> assertAllBound(Map<MetricName, ? extends Metric> clientMetrics, MeterRegistry registry) {
        List<String> checked = new ArrayList<>();
        of(clientMetrics).forEach((name, metric) -> {
            Search search = registry.find(meterName(name));
            for (Map.Entry<String, String> tag : name.tags().entrySet()) {
                search = search.tag(tag.getKey().replace('-', '.'), tag.getValue());
            }
            Meter meter = search.meter();
            assertTrue(meter != null, "no meter " + meterName(name) + " " + name.tags() + " for " + name + "; SDK meters: "
                    + registry.getMeters().stream().map(Meter::getId).filter(id -> id.getName().startsWith("kafka.gapless"))
                    .map(id -> id.getName() + id.getTags()).toList());
            double read = meter instanceof FunctionCounter c ? c.count() : ((Gauge) meter).value();
            double expected = ((Number) metric.metricValue()).doubleValue();
            if (name.name().endsWith("-rate")) {
                assertTrue(read >= 0, meterName(name) + " reads a rate: " + read);
            } else {
                assertEquals(expected, read, 1e-9, meterName(name) + " reads the metric's value");
            }
            checked.add(meterName(name) + name.tags());
        });
        return checked;
    }

    /**
     * A {@link Consumer} whose {@code metrics()} are the share consumer's: Micrometer 1.17's
     * {@code KafkaClientMetrics} has no share-consumer constructor, and reads nothing but
     * {@code metrics()} from the consumer it is given.
     */
    @SuppressWarnings("unchecked")
    static Consumer<?, ?> metricsView(ShareConsumer<?, ?> shareConsumer) {
        return (Consumer<?, ?>) Proxy.newProxyInstance(SdkMeters.class.getClassLoader(), new Class<?>[]{Consumer.class}, (proxy, method, args) -> {
            if (method.getName().equals("metrics") && method.getParameterCount() == 0) {
                return shareConsumer.metrics();
            }
            throw new UnsupportedOperationException(method.getName() + ": only metrics() is viewed");
        });
    }
}
