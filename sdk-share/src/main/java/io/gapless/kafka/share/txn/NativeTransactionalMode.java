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
package io.gapless.kafka.share.txn;

import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.ShareConsumer;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InvalidRecordStateException;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The seed KIP's {@code share.acknowledgement.mode=transactional} where Kafka has KIP-1289 itself:
 * the application stages records with {@code ShareAcknowledgements.fromRecords}, and Kafka's
 * consumer (in {@code explicit} mode underneath) must hand exactly those over. When the producer
 * stages them, this acknowledges them on Kafka's consumer and takes them back with Kafka's
 * {@code acknowledgementsForTransaction()}, which the producer sends; records of a poll no
 * transaction staged are released at the next poll, as on the emulated path. Used from the
 * consumer's thread.
 *
 * @since 0.1.0
 */
public final class NativeTransactionalMode<K, V> implements NativeDrain {
    private record Key(TopicPartition partition, long offset) {
    }

    private final ShareConsumer<K, V> delegate;
    private final NativeShareTransactions kafka;
    private final Map<Key, ConsumerRecord<K, V>> held = new LinkedHashMap<>();

    public NativeTransactionalMode(ShareConsumer<K, V> delegate, NativeShareTransactions kafka) {
        this.delegate = delegate;
        this.kafka = kafka;
    }

    /** Kafka's member identity, leading the producer here. */
    public ShareGroupMetadata metadata() {
        return ShareGroupMetadata.withNativeDrain(kafka.shareGroupMetadata(delegate), this);
    }

    /** Before a poll: what no transaction staged is released (it comes back). */
    public void beforePoll() {
        held.values().forEach(r -> delegate.acknowledge(r, AcknowledgeType.RELEASE));
        held.clear();
    }

    /** The records a poll handed out. */
    public void hold(ConsumerRecords<K, V> records) {
        records.forEach(r -> held.put(key(r), r));
    }

    /** The application acknowledged a record itself: it is no longer the transaction's. */
    public void forget(ConsumerRecord<K, V> record) {
        held.remove(key(record));
    }

    private static Key key(ConsumerRecord<?, ?> r) {
        return new Key(new TopicPartition(r.topic(), r.partition()), r.offset());
    }

    @Override
    public ShareAcknowledgements drain(Map<TopicIdPartition, List<AcknowledgementBatch>> acks) {
        List<ConsumerRecord<K, V>> records = new ArrayList<>();
        List<AcknowledgeType> types = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        acks.forEach((tip, batches) -> {
            for (AcknowledgementBatch b : batches) {
                for (long o = b.firstOffset(); o <= b.lastOffset() && missing.size() < 10; o++) {
                    ConsumerRecord<K, V> r = held.get(new Key(tip.topicPartition(), o));
                    if (r == null) {
                        missing.add(tip.topicPartition() + "@" + o);
                    } else {
                        records.add(r);
                        types.add(b.acknowledgeType());
                    }
                }
            }
        });
        if (!missing.isEmpty()) {
            throw new InvalidRecordStateException("Cannot acknowledge in a transaction: " + missing + " not held by this consumer. "
                    + "Only records returned by the consumer's last poll and not yet acknowledged can be.");
        }
        for (int i = 0; i < records.size(); i++) {
            delegate.acknowledge(records.get(i), types.get(i));
            held.remove(key(records.get(i)));
        }
        return kafka.acknowledgementsForTransaction(delegate);
    }
}
