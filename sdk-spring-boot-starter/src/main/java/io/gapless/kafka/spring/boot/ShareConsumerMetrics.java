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
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ShareConsumer;

import java.lang.reflect.Proxy;

/**
 * Binds a share consumer's {@code metrics()} (Kafka's share-consumer metrics and the SDK's own) to
 * a {@link MeterRegistry}, named and tagged as Micrometer's {@link KafkaClientMetrics} names a
 * consumer's, and refreshed as it refreshes them. Micrometer 1.17 has no share-consumer binder;
 * its consumer binder reads nothing of the consumer but {@code metrics()}, so it is handed a view
 * of the share consumer that answers only that.
 */
final class ShareConsumerMetrics implements MeterBinder, AutoCloseable {
    private final KafkaClientMetrics binder;

    ShareConsumerMetrics(ShareConsumer<?, ?> consumer, Iterable<Tag> tags) {
        this.binder = new KafkaClientMetrics(metricsOnly(consumer), tags);
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        binder.bindTo(registry);
    }

    /** Removes the meters and stops their refresh. */
    @Override
    public void close() {
        binder.close();
    }

    /** A {@link Consumer} whose {@code metrics()} is the share consumer's; any other call fails. */
    private static Consumer<?, ?> metricsOnly(ShareConsumer<?, ?> consumer) {
        return (Consumer<?, ?>) Proxy.newProxyInstance(ShareConsumerMetrics.class.getClassLoader(), new Class<?>[] {Consumer.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "metrics" -> consumer.metrics();
                    case "toString" -> "metrics of " + consumer;
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    default -> throw new UnsupportedOperationException(method.getName() + " (only metrics() of the share consumer is bound)");
                });
    }
}
