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
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.kafka.core.KafkaAdmin;

/**
 * The {@code gapless} health contributor ({@code /actuator/health/gapless}), where Actuator's health
 * is on the classpath; {@code management.health.gapless.enabled=false} turns it off.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = {GaplessKafkaAutoConfiguration.class, KafkaAutoConfiguration.class})
@ConditionalOnClass(HealthIndicator.class)
@ConditionalOnBean({GaplessClients.class, KafkaAdmin.class})
@ConditionalOnEnabledHealthIndicator("gapless")
public class GaplessHealthAutoConfiguration {

    /** @return the health contributor, named {@code gapless} in Actuator's health */
    @Bean(name = "gaplessHealthIndicator", destroyMethod = "close")
    @ConditionalOnMissingBean(name = "gaplessHealthIndicator")
    GaplessHealthIndicator gaplessHealthIndicator(GaplessClients clients, KafkaAdmin kafkaAdmin) {
        return new GaplessHealthIndicator(clients, kafkaAdmin);
    }
}
