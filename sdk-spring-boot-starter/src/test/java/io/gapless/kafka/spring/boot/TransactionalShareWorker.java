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

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.core.env.Environment;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.core.KafkaTemplate;

/**
 * A worker JVM of {@link TransactionalShareListenerKillIT}: a Boot application whose
 * container-managed transactional share listener enriches every payment (it only calls
 * {@code template.send}). Arguments: bootstrap servers, input, output, group, transaction-id prefix.
 * Runs until it is killed.
 */
public final class TransactionalShareWorker {
    private TransactionalShareWorker() {
    }

    public static void main(String[] args) {
        new SpringApplicationBuilder(Enricher.class).web(WebApplicationType.NONE).properties(
                "spring.kafka.bootstrap-servers=" + args[0],
                "spring.kafka.consumer.key-deserializer=org.apache.kafka.common.serialization.StringDeserializer",
                "spring.kafka.consumer.value-deserializer=org.apache.kafka.common.serialization.StringDeserializer",
                "spring.kafka.producer.key-serializer=org.apache.kafka.common.serialization.StringSerializer",
                "spring.kafka.producer.value-serializer=org.apache.kafka.common.serialization.StringSerializer",
                "spring.kafka.producer.transaction-id-prefix=" + args[4],
                // A killed worker's open transaction delays the group's commits until it times out.
                "spring.kafka.producer.properties.transaction.timeout.ms=5000",
                "spring.main.banner-mode=off",
                "gapless.share.listener.concurrency=2",
                "payments.input=" + args[1], "payments.output=" + args[2], "payments.group=" + args[3]).run();
        System.out.println("EVENT started");
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class Enricher {
        private final KafkaTemplate<String, String> template;
        private final String output;

        Enricher(KafkaTemplate<String, String> template, Environment env) {
            this.template = template;
            this.output = env.getRequiredProperty("payments.output");
        }

        @KafkaListener(id = "enricher", groupId = "${payments.group}", topics = "${payments.input}",
                containerFactory = "transactionalShareListenerContainerFactory")
        void enrich(ConsumerRecord<String, String> payment) {
            template.send(output, payment.key(), payment.value() + " enriched");
        }
    }
}
