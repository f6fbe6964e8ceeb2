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

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.core.ShareConsumerFactory;

/**
 * The {@code transactionalShareListenerContainerFactory} for container-managed transactional share
 * listeners, on the share consumer factory and Boot's {@code KafkaTemplate}. The template must be
 * transactional ({@code spring.kafka.producer.transaction-id-prefix}); a container started without
 * it fails naming that property.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = {GaplessKafkaAutoConfiguration.class, KafkaAutoConfiguration.class})
@ConditionalOnBooleanProperty(name = "gapless.enabled", matchIfMissing = true)
@ConditionalOnBean(ShareConsumerFactory.class)
@ConditionalOnSingleCandidate(KafkaTemplate.class)
public class GaplessTransactionalShareAutoConfiguration {

    /** @return the container factory, with the {@code gapless.share.listener.*} settings */
    @Bean
    @ConditionalOnMissingBean(name = "transactionalShareListenerContainerFactory")
    TransactionalShareListenerContainerFactory<Object, Object> transactionalShareListenerContainerFactory(
            ShareConsumerFactory<Object, Object> shareConsumerFactory, KafkaTemplate<?, ?> template, GaplessProperties gapless) {
        TransactionalShareListenerContainerFactory<Object, Object> factory =
                new TransactionalShareListenerContainerFactory<>(shareConsumerFactory, template);
        GaplessProperties.Listener listener = gapless.getShare().getListener();
        factory.setConcurrency(listener.getConcurrency());
        factory.setPollTimeout(listener.getPollTimeout());
        factory.setMaxAttempts(listener.getMaxAttempts());
        return factory;
    }
}
