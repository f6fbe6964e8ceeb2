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
import java.util.concurrent.ConcurrentHashMap;

/**
 * One {@link TransactionalShareProducer} per share consumer of a container: created on the
 * consumer's thread the first time its listener needs it, with a {@code transactional.id} derived
 * from Spring's stable id for that consumer (so that a restarted consumer fences its predecessor),
 * and closed when the factory reports the consumer removed.
 */
public class TransactionalProducers implements ShareConsumerFactory.Listener<String, String> {
    private final Map<String, Object> producerProps;
    private final Map<ShareConsumer<?, ?>, String> transactionalIds = new ConcurrentHashMap<>();
    private final Map<ShareConsumer<?, ?>, TransactionalShareProducer<String, String>> producers = new ConcurrentHashMap<>();

    public TransactionalProducers(Map<String, Object> producerProps) {
        this.producerProps = producerProps;
    }

    @Override
    public void consumerAdded(String id, ShareConsumer<String, String> consumer) {
        transactionalIds.put(consumer, id);
    }

    @Override
    public void consumerRemoved(String id, ShareConsumer<String, String> consumer) {
        transactionalIds.remove(consumer);
        TransactionalShareProducer<String, String> producer = producers.remove(consumer);
        if (producer != null) {
            producer.close();
        }
    }

    /** The producer of {@code consumer}; call it on the consumer's thread. */
    public TransactionalShareProducer<String, String> producerFor(ShareConsumer<?, ?> consumer) {
        return producers.computeIfAbsent(consumer, c -> {
            Map<String, Object> props = new HashMap<>(producerProps);
            props.put("transactional.id", transactionalIds.getOrDefault(c, "enricher-" + System.identityHashCode(c)));
            TransactionalShareProducer<String, String> producer = new TransactionalShareProducer<>(props);
            producer.initTransactions();
            return producer;
        });
    }

    /** After a fencing error the producer cannot continue: the next transaction gets a new one (same transactional.id). */
    public void discard(ShareConsumer<?, ?> consumer) {
        TransactionalShareProducer<String, String> producer = producers.remove(consumer);
        if (producer != null) {
            producer.close();
        }
    }
}
