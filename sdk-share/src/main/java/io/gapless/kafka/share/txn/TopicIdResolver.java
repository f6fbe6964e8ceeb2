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

import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.Uuid;

/**
 * Topic name to topic id (Kafka's share consumer does not put topic ids on its records).
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface TopicIdResolver {
    /** The topic id of {@code topic}, possibly from a cache. */
    Uuid topicId(String topic);

    /** The topic id of {@code topic} looked up now (a topic deleted and re-created has a new one); updates any cache. */
    default Uuid refresh(String topic) {
        return topicId(topic);
    }

    /** The Kafka consumer acknowledged {@code partition} under this id: a cache may learn it. */
    default void learned(TopicIdPartition partition) {
    }
}
