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
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.kafka.autoconfigure.DefaultKafkaConsumerFactoryCustomizer;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.config.ShareKafkaListenerContainerFactory;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.core.ShareConsumerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** The auto-configuration in Boot's own context runner: which factories a Boot application gets, from which properties. */
class GaplessKafkaAutoConfigurationTest {
    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(GaplessKafkaAutoConfiguration.class, KafkaAutoConfiguration.class,
                    GaplessHealthAutoConfiguration.class, GaplessTransactionalShareAutoConfiguration.class))
            .withPropertyValues("spring.kafka.bootstrap-servers=broker-a:9092,broker-b:9092");

    @Test
    void bootsConsumerFactoryIsGaplessBuiltFromSpringKafkaProperties() {
        runner.withPropertyValues("spring.kafka.consumer.auto-offset-reset=latest",
                "spring.kafka.consumer.key-deserializer=org.apache.kafka.common.serialization.StringDeserializer",
                "spring.kafka.consumer.properties.auto.offset.reset.new.partitions=earliest",
                "spring.kafka.consumer.properties.gapless.baseline.topic.prefix=__app_baseline.").run(context -> {
            ConsumerFactory<?, ?> factory = context.getBean(ConsumerFactory.class);
            assertThat(factory).isExactlyInstanceOf(GaplessKafkaConsumerFactory.class);
            assertThat(context.getBeanNamesForType(ConsumerFactory.class)).containsExactly("kafkaConsumerFactory");
            Map<String, Object> props = factory.getConfigurationProperties();
            assertThat(props).containsEntry("auto.offset.reset", "latest")
                    .containsEntry("auto.offset.reset.new.partitions", "earliest")
                    .containsEntry("gapless.baseline.topic.prefix", "__app_baseline.")
                    .containsEntry("bootstrap.servers", List.of("broker-a:9092", "broker-b:9092"));
        });
    }

    @Test
    void typedGaplessPropertiesWinOverTheRawKeys() {
        runner.withPropertyValues("spring.kafka.consumer.properties.auto.offset.reset.new.partitions=latest",
                "gapless.consumer.auto-offset-reset-new-partitions=earliest", "gapless.consumer.new-partitions-mode=emulate",
                "gapless.share.auto-offset-reset-new-partitions=earliest", "gapless.share.transactional-fallback=fail").run(context -> {
            assertThat(context.getBean(ConsumerFactory.class).getConfigurationProperties())
                    .containsEntry("auto.offset.reset.new.partitions", "earliest")
                    .containsEntry("gapless.new.partitions.mode", "emulate");
            assertThat(context.getBean(ShareConsumerFactory.class).getConfigurationProperties())
                    .containsEntry("share.auto.offset.reset.new.partitions", "earliest")
                    .containsEntry("gapless.share.transactional.fallback", "fail");
        });
    }

    @Test
    void shareConsumerFactoryLeavesOutWhatShareConsumersRefuse() {
        runner.withPropertyValues("spring.kafka.consumer.auto-offset-reset=latest", "spring.kafka.consumer.isolation-level=read-committed",
                "spring.kafka.consumer.enable-auto-commit=false", "spring.kafka.consumer.max-poll-records=77",
                "spring.kafka.consumer.properties.group.protocol=consumer",
                "spring.kafka.consumer.properties.auto.offset.reset.new.partitions=earliest").run(context -> {
            ShareConsumerFactory<?, ?> share = context.getBean(ShareConsumerFactory.class);
            assertThat(share).isExactlyInstanceOf(GaplessShareConsumerFactory.class);
            assertThat(share.getConfigurationProperties()).containsEntry("max.poll.records", 77)
                    .doesNotContainKeys("auto.offset.reset", "isolation.level", "enable.auto.commit", "group.protocol",
                            "auto.offset.reset.new.partitions");
            assertThat(context).hasSingleBean(ShareKafkaListenerContainerFactory.class);
        });
    }

    @Test
    void bootsCustomizersAreAppliedToTheGaplessFactory() {
        runner.withUserConfiguration(CustomizerConfig.class).run(context -> {
            assertThat(context.getBean(CustomizerConfig.class).calls.get()).isEqualTo(1);
            assertThat(context.getBean(ConsumerFactory.class).getConfigurationProperties()).containsEntry("client.id", "customized");
        });
    }

    @Test
    void backsOffWhenTheApplicationDefinesItsOwnFactories() {
        runner.withUserConfiguration(OwnFactories.class).run(context -> {
            assertThat(context.getBean(ConsumerFactory.class)).isExactlyInstanceOf(DefaultKafkaConsumerFactory.class);
            assertThat(context.getBeanNamesForType(ConsumerFactory.class)).containsExactly("myConsumerFactory");
            assertThat(context.getBean(ShareConsumerFactory.class)).isSameAs(context.getBean("myShareConsumerFactory"));
        });
    }

    @Test
    void gaplessEnabledFalseLeavesBootsOwnFactory() {
        runner.withPropertyValues("gapless.enabled=false").run(context -> {
            assertThat(context.getBean(ConsumerFactory.class)).isExactlyInstanceOf(DefaultKafkaConsumerFactory.class);
            assertThat(context).doesNotHaveBean(ShareConsumerFactory.class).doesNotHaveBean(GaplessClients.class)
                    .doesNotHaveBean(GaplessHealthIndicator.class);
        });
    }

    @Test
    void healthContributorIsRegisteredAndCanBeTurnedOff() {
        runner.run(context -> assertThat(context).hasBean("gaplessHealthIndicator"));
        runner.withPropertyValues("management.health.gapless.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(GaplessHealthIndicator.class));
    }

    @Test
    void typedPropertiesHaveConfigurationMetadataForIdes() throws IOException {
        String metadata;
        try (InputStream in = getClass().getClassLoader().getResourceAsStream("META-INF/spring-configuration-metadata.json")) {
            assertThat(in).as("META-INF/spring-configuration-metadata.json").isNotNull();
            metadata = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertThat(metadata).contains("\"gapless.enabled\"", "\"gapless.consumer.auto-offset-reset-new-partitions\"",
                "\"gapless.share.auto-offset-reset-new-partitions\"", "\"gapless.share.listener.max-attempts\"",
                "Where a partition added after the group started begins");
    }

    @Test
    void transactionalShareListenerWithoutATransactionalProducerFactoryFailsAtStartNamingTheProperty() {
        runner.withUserConfiguration(TransactionalListener.class).run(context -> {
            assertThat(context).hasFailed();
            assertThat(rootMessages(context.getStartupFailure())).contains("spring.kafka.producer.transaction-id-prefix");
        });
    }

    @Test
    void transactionalShareListenerOnAShareFactoryThatIsNotGaplessFailsAtStartNamingTheFactory() {
        runner.withUserConfiguration(TransactionalListener.class, OwnFactories.class)
                .withPropertyValues("spring.kafka.producer.transaction-id-prefix=tx-").run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(rootMessages(context.getStartupFailure())).contains("use GaplessShareConsumerFactory");
                });
    }

    @Test
    void transactionalShareListenerRefusesMaxAttemptsBelowOneNamingTheProperty() {
        runner.withPropertyValues("gapless.share.listener.max-attempts=0").withUserConfiguration(TransactionalListener.class)
                .withPropertyValues("spring.kafka.producer.transaction-id-prefix=tx-").run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(rootMessages(context.getStartupFailure())).contains("gapless.share.listener.max-attempts must be at least 1, got 0");
                });
    }

    private static String rootMessages(Throwable failure) {
        StringBuilder out = new StringBuilder();
        for (Throwable t = failure; t != null; t = t.getCause()) {
            out.append(t.getMessage()).append('\n');
        }
        return out.toString();
    }

    @Configuration(proxyBeanMethods = false)
    static class TransactionalListener {
        @org.springframework.kafka.annotation.KafkaListener(id = "enricher", topics = "payments",
                containerFactory = "transactionalShareListenerContainerFactory")
        void enrich(String payment) {
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class CustomizerConfig {
        final AtomicInteger calls = new AtomicInteger();

        @Bean
        DefaultKafkaConsumerFactoryCustomizer clientIdCustomizer() {
            return factory -> {
                calls.incrementAndGet();
                factory.updateConfigs(Map.of("client.id", "customized"));
            };
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnFactories {
        @Bean
        ConsumerFactory<Object, Object> myConsumerFactory() {
            return new DefaultKafkaConsumerFactory<>(Map.of("bootstrap.servers", "mine:9092"));
        }

        @Bean
        ShareConsumerFactory<Object, Object> myShareConsumerFactory() {
            return new org.springframework.kafka.core.DefaultShareConsumerFactory<>(Map.of("bootstrap.servers", "localhost:1",
                    "key.deserializer", org.apache.kafka.common.serialization.StringDeserializer.class,
                    "value.deserializer", org.apache.kafka.common.serialization.StringDeserializer.class));
        }
    }
}
