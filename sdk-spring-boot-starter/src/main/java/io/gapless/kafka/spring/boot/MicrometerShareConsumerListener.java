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
package io.gapless.kafka.spring.boot;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import org.apache.kafka.clients.consumer.ShareConsumer;
import org.springframework.kafka.core.ShareConsumerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What Spring's {@code MicrometerConsumerListener} is for consumers, for share consumers: each share
 * consumer the factory creates has its meters in the registry (tag {@code spring.id}, as Spring
 * tags a consumer's) until it is closed.
 */
final class MicrometerShareConsumerListener<K, V> implements ShareConsumerFactory.Listener<K, V> {
    private final MeterRegistry registry;
    private final Map<String, ShareConsumerMetrics> bound = new ConcurrentHashMap<>();

    MicrometerShareConsumerListener(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void consumerAdded(String id, ShareConsumer<K, V> consumer) {
        bound.computeIfAbsent(id, k -> {
            List<Tag> tags = new ArrayList<>();
            tags.add(Tag.of("spring.id", id));
            ShareConsumerMetrics metrics = new ShareConsumerMetrics(consumer, tags);
            metrics.bindTo(registry);
            return metrics;
        });
    }

    @Override
    public void consumerRemoved(String id, ShareConsumer<K, V> consumer) {
        ShareConsumerMetrics metrics = bound.remove(id);
        if (metrics != null) {
            metrics.close();
        }
    }
}
