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
package io.gapless.kafka.examples.spring;

import io.gapless.kafka.spring.GaplessKafkaConsumerFactory;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.kafka.annotation.EnableKafka;
import org.springframework.kafka.config.ConcurrentKafkaListenerContainerFactory;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;

import java.util.HashMap;
import java.util.Map;

/**
 * The demo application's Spring Kafka set-up: one container factory on Spring's own consumer
 * factory, one on the Gapless factory (the only difference: the factory class and one setting),
 * and the payments enricher ({@link PaymentsConfiguration}), whose share consumers take part in
 * producer transactions.
 */
@Configuration
@EnableKafka
@Import(PaymentsConfiguration.class)
public class DemoConfiguration {

    @Value("${demo.bootstrap-servers}")
    private String bootstrapServers;

    private Map<String, Object> consumerProps() {
        Map<String, Object> props = new HashMap<>();
        props.put("bootstrap.servers", bootstrapServers);
        props.put("key.deserializer", StringDeserializer.class);
        props.put("value.deserializer", StringDeserializer.class);
        props.put("auto.offset.reset", "latest");       // a new group skips the history
        props.put("metadata.max.age.ms", 1000);          // find added partitions quickly (the demo is short)
        return props;
    }

    /** Spring's own factory: {@code latest} also applies to partitions added later, and loses their records. */
    @Bean
    public ConcurrentKafkaListenerContainerFactory<String, String> plainContainerFactory() {
        ConcurrentKafkaListenerContainerFactory<String, String> factory = new ConcurrentKafkaListenerContainerFactory<>();
        factory.setConsumerFactory(new DefaultKafkaConsumerFactory<>(consumerProps()));
        return factory;
    }

    /** The Gapless factory: partitions added after the group started are read from their beginning. */
    // tag::spring-consumer-factory[]
    @Bean
    public ConsumerFactory<String, String> gaplessConsumerFactory() {
        Map<String, Object> props = consumerProps();
        props.put("auto.offset.reset.new.partitions", "earliest");
        return new GaplessKafkaConsumerFactory<>(props);
    }
    // end::spring-consumer-factory[]

    @Bean
    public ConcurrentKafkaListenerContainerFactory<String, String> kafkaListenerContainerFactory(
            ConsumerFactory<String, String> gaplessConsumerFactory) {
        ConcurrentKafkaListenerContainerFactory<String, String> factory = new ConcurrentKafkaListenerContainerFactory<>();
        factory.setConsumerFactory(gaplessConsumerFactory);
        return factory;
    }

    @Bean
    public OrderListeners orderListeners() {
        return new OrderListeners();
    }

}
