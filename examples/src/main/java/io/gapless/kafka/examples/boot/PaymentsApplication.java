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
package io.gapless.kafka.examples.boot;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.core.KafkaTemplate;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A Spring Boot application with only the Gapless starter and properties
 * ({@code gapless-boot-demo.properties}): a consumer-group listener on Boot's (now Gapless) consumer
 * factory, and a container-managed transactional share listener whose code only sends.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class PaymentsApplication {
    public static final String ORDERS = "boot-orders";
    public static final String PAYMENTS = "boot-payments";
    public static final String ENRICHED = "boot-payments-enriched";
    public static final String ENRICHER_GROUP = "boot-payments-enricher";

    private final KafkaTemplate<String, String> template;
    private final Set<String> orders = ConcurrentHashMap.newKeySet();

    public PaymentsApplication(KafkaTemplate<String, String> template) {
        this.template = template;
    }

    @KafkaListener(id = "orders", groupId = "boot-orders", topics = ORDERS, concurrency = "2")
    void onOrder(ConsumerRecord<String, String> order) {
        orders.add(order.value());
    }

    /** No transaction call: the container's poll transaction carries this output and the payment's acknowledgement. */
    // tag::boot-transactional-share-listener[]
    @KafkaListener(id = "enricher", groupId = ENRICHER_GROUP, topics = PAYMENTS, containerFactory = "transactionalShareListenerContainerFactory")
    void enrich(ConsumerRecord<String, String> payment) {
        if (payment.value().contains("poison")) {
            throw new IllegalArgumentException("cannot enrich " + payment.value());   // retried, then rejected
        }
        template.send(ENRICHED, payment.key(), payment.value() + " enriched");
    }
    // end::boot-transactional-share-listener[]

    /** The order values the orders listener received. */
    public Set<String> orders() {
        return orders;
    }
}
