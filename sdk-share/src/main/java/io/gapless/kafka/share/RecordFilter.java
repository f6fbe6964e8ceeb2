package io.gapless.kafka.share;

import org.apache.kafka.clients.consumer.ConsumerRecords;

/**
 * A stage of the share consumer's poll path, applied to the records of each delegate poll before
 * they reach the caller. A stage that drops a record must acknowledge it on the Kafka consumer
 * (explicit mode requires every delivered record to be acknowledged before the next poll).
 */
@FunctionalInterface
interface RecordFilter<K, V> {
    ConsumerRecords<K, V> apply(ConsumerRecords<K, V> records);
}
