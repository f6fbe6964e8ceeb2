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

import io.gapless.kafka.spring.GaplessKafkaConsumerFactory;
import io.gapless.kafka.spring.GaplessShareConsumerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.kafka.autoconfigure.DefaultKafkaConsumerFactoryCustomizer;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.kafka.autoconfigure.KafkaConnectionDetails;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.kafka.config.ShareKafkaListenerContainerFactory;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.core.ShareConsumerFactory;

/**
 * Makes the consumer factories of a Spring Boot application Gapless's: Boot's
 * {@code kafkaConsumerFactory} becomes a {@link GaplessKafkaConsumerFactory} and a
 * {@code kafkaShareConsumerFactory} ({@link GaplessShareConsumerFactory}) is added, both built from
 * Boot's own {@code spring.kafka.*} properties and connection details, with Boot's
 * {@link DefaultKafkaConsumerFactoryCustomizer}s applied (Boot's Micrometer listener among them),
 * plus the typed {@code gapless.*} properties. The SDK's keys are also settable as
 * {@code spring.kafka.consumer.properties.<key>}.
 *
 * <p>Runs before Boot's {@link KafkaAutoConfiguration}, whose factory then backs off; each bean
 * backs off itself when the application defines its own. {@code gapless.enabled=false} turns the
 * whole configuration off (Boot's own factories then stay).
 *
 * @since 0.1.0
 */
@AutoConfiguration(before = KafkaAutoConfiguration.class)
@ConditionalOnClass({KafkaTemplate.class, GaplessKafkaConsumerFactory.class, KafkaProperties.class})
@ConditionalOnBooleanProperty(name = "gapless.enabled", matchIfMissing = true)
@EnableConfigurationProperties({KafkaProperties.class, GaplessProperties.class})
public class GaplessKafkaAutoConfiguration {

    /** @return the open clients of the auto-configured factories, for the health contributor */
    @Bean
    @ConditionalOnMissingBean
    GaplessClients gaplessClients() {
        return new GaplessClients();
    }

    /**
     * Boot's consumer factory, creating {@code GaplessConsumer}s.
     *
     * @return the factory, named {@code kafkaConsumerFactory} as Boot's
     */
    @Bean
    @ConditionalOnMissingBean(ConsumerFactory.class)
    GaplessKafkaConsumerFactory<Object, Object> kafkaConsumerFactory(KafkaProperties kafka, KafkaConnectionDetails connection,
                                                                    GaplessProperties gapless, GaplessClients clients,
                                                                    ObjectProvider<DefaultKafkaConsumerFactoryCustomizer> customizers) {
        GaplessKafkaConsumerFactory<Object, Object> factory =
                new GaplessKafkaConsumerFactory<>(BootClientSettings.consumer(kafka, connection, gapless));
        factory.addListener(clients.consumerListener(factory));
        customizers.orderedStream().forEach(customizer -> customizer.customize(factory));
        return factory;
    }

    /**
     * A share consumer factory from the same {@code spring.kafka.consumer.*} settings, without the
     * keys share consumers refuse ({@code auto-offset-reset}, {@code isolation-level}, ...).
     *
     * @return the factory
     */
    @Bean
    @ConditionalOnMissingBean(ShareConsumerFactory.class)
    GaplessShareConsumerFactory<Object, Object> kafkaShareConsumerFactory(KafkaProperties kafka, KafkaConnectionDetails connection,
                                                                         GaplessProperties gapless, GaplessClients clients) {
        GaplessShareConsumerFactory<Object, Object> factory =
                new GaplessShareConsumerFactory<>(BootClientSettings.share(kafka, connection, gapless));
        factory.addListener(clients.shareListener(factory));
        return factory;
    }

    /**
     * Spring Kafka's share container factory on the share consumer factory, for
     * {@code @KafkaListener(containerFactory = "shareKafkaListenerContainerFactory")}.
     *
     * @return the container factory
     */
    @Bean
    @ConditionalOnMissingBean(name = "shareKafkaListenerContainerFactory")
    @ConditionalOnBean(ShareConsumerFactory.class)
    ShareKafkaListenerContainerFactory<Object, Object> shareKafkaListenerContainerFactory(ShareConsumerFactory<Object, Object> factory) {
        return new ShareKafkaListenerContainerFactory<>(factory);
    }
}
