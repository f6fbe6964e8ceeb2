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
import org.springframework.kafka.listener.AcknowledgingConsumerAwareMessageListener;
import org.springframework.kafka.listener.BatchAcknowledgingConsumerAwareMessageListener;
import org.springframework.kafka.listener.BatchMessageListener;
import org.springframework.kafka.listener.MessageListener;

import java.util.List;

/**
 * Calls the listener the container was given: a record listener ({@link MessageListener}, what
 * {@code @KafkaListener} methods become) once per record, a {@link BatchMessageListener}
 * ({@code @KafkaListener(batch = "true")}) once per poll. Spring's adapters for
 * {@code @KafkaListener} methods only accept the three-argument form; there is no Kafka
 * {@code Consumer} and no {@code Acknowledgment} to give them: the container settles the records.
 */
final class ListenerInvoker<K, V> {
    private final MessageListener<K, V> recordListener;
    private final BatchMessageListener<K, V> batchListener;

    @SuppressWarnings("unchecked")
    ListenerInvoker(Object listener) {
        if (listener instanceof MessageListener<?, ?> record) {
            this.recordListener = (MessageListener<K, V>) record;
            this.batchListener = null;
        } else if (listener instanceof BatchMessageListener<?, ?> batch) {
            this.recordListener = null;
            this.batchListener = (BatchMessageListener<K, V>) batch;
        } else {
            throw new IllegalArgumentException("A transactional share listener is a MessageListener or a BatchMessageListener, not "
                    + (listener == null ? "null" : listener.getClass().getName()));
        }
    }

    boolean batch() {
        return batchListener != null;
    }

    void onRecord(ConsumerRecord<K, V> record) {
        if (recordListener instanceof AcknowledgingConsumerAwareMessageListener<K, V> aware) {
            aware.onMessage(record, null, null);
        } else {
            recordListener.onMessage(record);
        }
    }

    void onBatch(List<ConsumerRecord<K, V>> records) {
        if (batchListener instanceof BatchAcknowledgingConsumerAwareMessageListener<K, V> aware) {
            aware.onMessage(records, null, null);
        } else {
            batchListener.onMessage(records);
        }
    }
}
