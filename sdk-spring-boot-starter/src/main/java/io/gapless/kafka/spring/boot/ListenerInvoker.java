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
