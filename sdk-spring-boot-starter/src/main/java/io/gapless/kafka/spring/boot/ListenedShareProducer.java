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

import io.gapless.kafka.share.txn.TransactionalShareProducer;
import org.apache.kafka.common.serialization.Serializer;
import org.springframework.kafka.core.ProducerFactory;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A container's producer that tells the template's producer factory's listeners when it is
 * created and closed, as that factory's own producers do: Boot's Micrometer listener (added to
 * the factory by Boot's customizer) then binds its meters, and removes them at close.
 */
final class ListenedShareProducer<K, V> extends TransactionalShareProducer<K, V> {
    private final String id;
    private final List<ProducerFactory.Listener<K, V>> listeners;
    private final AtomicBoolean closed = new AtomicBoolean();

    /** Serializers from the configuration. */
    ListenedShareProducer(Map<String, Object> props, String id, List<ProducerFactory.Listener<K, V>> listeners) {
        super(props);
        this.id = id;
        this.listeners = List.copyOf(listeners);
    }

    ListenedShareProducer(Map<String, Object> props, Serializer<K> keySerializer, Serializer<V> valueSerializer, String id,
                          List<ProducerFactory.Listener<K, V>> listeners) {
        super(props, keySerializer, valueSerializer);
        this.id = id;
        this.listeners = List.copyOf(listeners);
    }

    /** Tells the listeners that the producer exists (once its transactions are initialized). */
    void announce() {
        listeners.forEach(l -> l.producerAdded(id, this));
    }

    @Override
    public void close(Duration timeout) {
        try {
            super.close(timeout);
        } finally {
            if (closed.compareAndSet(false, true)) {
                listeners.forEach(l -> l.producerRemoved(id, this));
            }
        }
    }
}
