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

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;

/**
 * Topic ids of records handed out by a GaplessShareConsumer. Kafka's ConsumerRecord has no topic
 * id, but acknowledgements are keyed by TopicIdPartition; weak identity keys let the records'
 * garbage collection clean this up.
 */
final class RecordTopicIds {
    private static final Cache<ConsumerRecord<?, ?>, Uuid> IDS = Caffeine.newBuilder().weakKeys().build();

    private RecordTopicIds() {
    }

    /** Remembers the topic id of a record this JVM's consumer decorator hands out. */
    static void remember(ConsumerRecord<?, ?> record, Uuid topicId) {
        IDS.put(record, topicId);
    }

    /** The record's partition with its topic id, or {@link Uuid#ZERO_UUID} when unknown. */
    static TopicIdPartition topicIdPartition(ConsumerRecord<?, ?> record) {
        Uuid id = IDS.getIfPresent(record);
        return new TopicIdPartition(id == null ? Uuid.ZERO_UUID : id, new TopicPartition(record.topic(), record.partition()));
    }
}
