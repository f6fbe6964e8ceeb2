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

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.kafka.annotation.KafkaListener;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** The same listener twice, in two groups: on Spring's own consumer factory and on the Gapless one. */
public class OrderListeners {
    public static final String TOPIC = "spring-orders";
    public static final String PLAIN = "plain-orders";
    public static final String GAPLESS = "gapless-orders";

    private final Map<String, Set<String>> seen = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> duplicates = new ConcurrentHashMap<>();

    @KafkaListener(id = PLAIN, topics = TOPIC, groupId = "orders-plain", concurrency = "2", containerFactory = "plainContainerFactory")
    public void plain(ConsumerRecord<String, String> order) {
        record(PLAIN, order.value());
    }

    @KafkaListener(id = GAPLESS, topics = TOPIC, groupId = "orders-gapless", concurrency = "2")
    public void gapless(ConsumerRecord<String, String> order) {
        record(GAPLESS, order.value());
    }

    private void record(String id, String value) {
        if (!seen(id).add(value)) {
            duplicates(id).incrementAndGet();
        }
    }

    /** The values the listener {@code id} received. */
    public Set<String> seen(String id) {
        return seen.computeIfAbsent(id, k -> ConcurrentHashMap.newKeySet());
    }

    /** How many records the listener {@code id} received more than once. */
    public AtomicInteger duplicates(String id) {
        return duplicates.computeIfAbsent(id, k -> new AtomicInteger());
    }
}
