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
import org.apache.kafka.clients.consumer.MockShareConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Share records and a MockShareConsumer that records what is acknowledged on it, for the unit tests of this package. */
final class ShareRecords {
    private ShareRecords() {
    }

    /** A record of {@code tp} at {@code offset}, in its {@code delivery}-th delivery. */
    static ConsumerRecord<String, String> record(TopicPartition tp, long offset, int delivery) {
        return new ConsumerRecord<>(tp.topic(), tp.partition(), offset, 0L, TimestampType.CREATE_TIME, 0, 0, "k" + offset, "v" + offset,
                new RecordHeaders(), Optional.empty(), Optional.of((short) delivery));
    }

    /** Records of {@code tp} at {@code offsets}, first deliveries. */
    static ConsumerRecords<String, String> records(TopicPartition tp, long... offsets) {
        List<ConsumerRecord<String, String>> list = new ArrayList<>();
        for (long o : offsets) {
            list.add(record(tp, o, 1));
        }
        return new ConsumerRecords<>(Map.of(tp, list), Map.of());
    }

    /** {@code type} for {@code first..last} of {@code tip}. */
    static Map<TopicIdPartition, List<AcknowledgementBatch>> batch(TopicIdPartition tip, long first, long last, AcknowledgeType type) {
        return Map.of(tip, List.of(new AcknowledgementBatch(first, last, type)));
    }

    /** Records "offset:TYPE" for every acknowledgement and counts commits. */
    static class RecordingShareConsumer extends MockShareConsumer<String, String> {
        final List<String> acks = new ArrayList<>();
        int commits;

        @Override
        public synchronized void acknowledge(ConsumerRecord<String, String> record, AcknowledgeType type) {
            acks.add(record.offset() + ":" + type.name());
        }

        @Override
        public synchronized Map<TopicIdPartition, Optional<KafkaException>> commitSync() {
            commits++;
            return Map.of();
        }
    }
}
