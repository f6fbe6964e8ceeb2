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

import io.gapless.kafka.share.txn.TransactionalShareProducer;
import org.apache.kafka.clients.consumer.ShareConsumer;
import org.springframework.kafka.core.ShareConsumerFactory;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One {@link TransactionalShareProducer} per share consumer of a container: created on the
 * consumer's thread the first time its listener needs it, and closed when the factory reports the
 * consumer removed. Its {@code transactional.id} is {@code <instance id>.<Spring's id for the
 * consumer>}: Spring's id ({@code <factory bean>.<listener id>-<n>}) is the same in every instance
 * of the application, so without the instance id the pods of one deployment would fence each
 * other's producers in a loop. Give each instance a stable id of its own (a StatefulSet pod name)
 * and a restarted instance fences its predecessor's producers; without one each start gets a random
 * id, never shared, and a dead instance's open transaction ends by {@code transaction.timeout.ms}.
 */
public class TransactionalProducers implements ShareConsumerFactory.Listener<String, String> {
    private final Map<String, Object> producerProps;
    private final String instanceId;
    private final Map<ShareConsumer<?, ?>, String> transactionalIds = new ConcurrentHashMap<>();
    private final Map<ShareConsumer<?, ?>, TransactionalShareProducer<String, String>> producers = new ConcurrentHashMap<>();
    private final Map<ShareConsumer<?, ?>, String> producerIds = new ConcurrentHashMap<>();

    /**
     * @param instanceId this instance of the application, unique among the instances running at once
     * @throws IllegalArgumentException when {@code instanceId} is blank
     */
    public TransactionalProducers(Map<String, Object> producerProps, String instanceId) {
        if (instanceId == null || instanceId.isBlank()) {
            throw new IllegalArgumentException("instanceId must name this instance of the application, got '" + instanceId + "'");
        }
        this.producerProps = producerProps;
        this.instanceId = instanceId;
    }

    @Override
    public void consumerAdded(String id, ShareConsumer<String, String> consumer) {
        transactionalIds.put(consumer, instanceId + "." + id);
    }

    @Override
    public void consumerRemoved(String id, ShareConsumer<String, String> consumer) {
        transactionalIds.remove(consumer);
        producerIds.remove(consumer);
        TransactionalShareProducer<String, String> producer = producers.remove(consumer);
        if (producer != null) {
            producer.close();
        }
    }

    /** The producer of {@code consumer}; call it on the consumer's thread. */
    public TransactionalShareProducer<String, String> producerFor(ShareConsumer<?, ?> consumer) {
        return producers.computeIfAbsent(consumer, c -> {
            Map<String, Object> props = new HashMap<>(producerProps);
            props.put("transactional.id", transactionalIds.getOrDefault(c, instanceId + ".enricher-" + System.identityHashCode(c)));
            producerIds.put(c, (String) props.get("transactional.id"));
            TransactionalShareProducer<String, String> producer = new TransactionalShareProducer<>(props);
            producer.initTransactions();
            return producer;
        });
    }

    /** The transactional ids of this instance's producers now, for operators (and the demo's checks). */
    public Set<String> transactionalIds() {
        return Set.copyOf(producerIds.values());
    }

    /** After a fatal error the producer cannot continue: the next transaction gets a new one (same transactional.id). */
    public void discard(ShareConsumer<?, ?> consumer) {
        TransactionalShareProducer<String, String> producer = producers.remove(consumer);
        if (producer != null) {
            producer.close();
        }
    }
}
