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

import io.gapless.kafka.spring.GaplessShareConsumerFactory;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.annotation.EnableKafka;
import org.springframework.kafka.config.ShareKafkaListenerContainerFactory;
import org.springframework.kafka.listener.ContainerProperties;

import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

/**
 * The payments enricher as an application of its own: a share container factory whose consumers
 * take part in producer transactions (KIP-1289), one transactional producer per
 * consumer ({@link TransactionalProducers}), and {@link PaymentEnricher}. Several instances of it (pods) run side by side in one
 * share group. Settings: {@code demo.bootstrap-servers}, and optionally {@code payments.input},
 * {@code payments.output}, {@code payments.group}, {@code payments.listener-id},
 * {@code payments.concurrency}, {@code payments.instance-id}; an {@link Enrichment} bean replaces the demo's business step.
 */
@Configuration
@EnableKafka
public class PaymentsConfiguration {

    @Value("${demo.bootstrap-servers}")
    private String bootstrapServers;

    /** Share consumers whose acknowledgements commit with a producer transaction (KIP-1289). */
    @Bean
    public GaplessShareConsumerFactory<String, String> transactionalShareConsumerFactory(TransactionalProducers producers) {
        Map<String, Object> props = new HashMap<>();
        props.put("bootstrap.servers", bootstrapServers);
        props.put("key.deserializer", StringDeserializer.class);
        props.put("value.deserializer", StringDeserializer.class);
        props.put("share.acknowledgement.mode", "transactional");
        // One transaction per record: a small batch keeps the records a consumer holds well inside their lock.
        props.put("max.poll.records", 10);
        GaplessShareConsumerFactory<String, String> factory = new GaplessShareConsumerFactory<>(props);
        factory.addListener(producers);   // one producer per share consumer, closed with it
        return factory;
    }

    /** The container only polls and dispatches: the listener's transactions settle the records, so IMPLICIT. */
    // tag::spring-share-container[]
    @Bean
    public ShareKafkaListenerContainerFactory<String, String> transactionalShareContainerFactory(
            GaplessShareConsumerFactory<String, String> transactionalShareConsumerFactory) {
        ShareKafkaListenerContainerFactory<String, String> factory =
                new ShareKafkaListenerContainerFactory<>(transactionalShareConsumerFactory);
        factory.getContainerProperties().setShareAckMode(ContainerProperties.ShareAckMode.IMPLICIT);
        return factory;
    }
    // end::spring-share-container[]

    /**
     * @param instanceId {@code payments.instance-id}: a stable id per instance (a StatefulSet pod name) lets a
     *                   restarted instance fence its predecessor; unset, each start takes a random one
     */
    @Bean
    public TransactionalProducers transactionalProducers(@Value("${payments.instance-id:}") String instanceId) {
        Map<String, Object> props = new HashMap<>();
        props.put("bootstrap.servers", bootstrapServers);
        props.put("key.serializer", StringSerializer.class);
        props.put("value.serializer", StringSerializer.class);
        return new TransactionalProducers(props, instanceId.isBlank() ? UUID.randomUUID().toString() : instanceId);
    }

    @Bean
    public PaymentEnricher paymentEnricher(TransactionalProducers producers, ObjectProvider<Enrichment> enrichment,
                                           @Value("${payments.output:" + PaymentEnricher.OUTPUT + "}") String output) {
        return new PaymentEnricher(producers, enrichment.getIfAvailable(() -> Enrichment.STANDARD), output);
    }
}
