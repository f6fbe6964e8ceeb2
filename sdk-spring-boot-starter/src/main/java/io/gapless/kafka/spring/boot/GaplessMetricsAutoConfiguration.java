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

import io.gapless.kafka.spring.GaplessShareConsumerFactory;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;

/**
 * The SDK's meters of share consumers in Boot's Micrometer registry, where Micrometer is on the
 * classpath: Boot binds consumers and producers of its factories itself (their factories'
 * customizers), but has no share consumer factory customizer and Micrometer no share-consumer
 * binder. Every {@link GaplessShareConsumerFactory} of the context gets a listener that binds each
 * share consumer's {@code metrics()} while it is open.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = GaplessKafkaAutoConfiguration.class)
@ConditionalOnClass({MeterRegistry.class, KafkaClientMetrics.class})
public class GaplessMetricsAutoConfiguration {

    /**
     * @param registries Boot's registry (nothing is bound without one)
     * @param factories  the context's Gapless share consumer factories
     * @return the step that adds the listeners once every singleton exists
     */
    @Bean
    static SmartInitializingSingleton gaplessShareConsumerMeters(ObjectProvider<MeterRegistry> registries,
                                                                 ObjectProvider<GaplessShareConsumerFactory<?, ?>> factories) {
        return () -> {
            MeterRegistry registry = registries.getIfUnique();
            if (registry != null) {
                factories.orderedStream().forEach(factory -> listen(factory, registry));
            }
        };
    }

    private static <K, V> void listen(GaplessShareConsumerFactory<K, V> factory, MeterRegistry registry) {
        factory.addListener(new MicrometerShareConsumerListener<>(registry));
    }
}
