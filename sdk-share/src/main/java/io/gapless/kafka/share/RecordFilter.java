package io.gapless.kafka.share;

import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.ShareConsumer;

/**
 * A stage of the share consumer's poll path, applied to the records of each delegate poll before
 * they reach the caller. A filter that drops a record must acknowledge it on {@code delegate}
 * (explicit mode requires every delivered record to be acknowledged before the next poll).
 */
@FunctionalInterface
public interface RecordFilter<K, V> {
    ConsumerRecords<K, V> apply(ConsumerRecords<K, V> records, ShareConsumer<K, V> delegate);
}
