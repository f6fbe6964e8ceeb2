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
package io.gapless.kafka.core;

import org.apache.kafka.common.TopicPartition;

import java.util.Collection;
import java.util.Map;

/**
 * Tells partitions created after a consumer group from those that existed before it (KIP-1327's
 * {@code partition.creationTime > group.creationTime}). Implementations: the broker's own
 * classification where it exists ({@link CreationTimeClassifier} over broker timestamps) and
 * the SDK's durable group baseline where it does not.
 *
 * @since 0.1.0
 */
public interface PartitionClassifier {

    /**
     * Classifies each partition. The result holds an entry for every partition asked for, and the
     * same partition gets the same answer on every call and on every member of the group.
     *
     * @throws BaselineUnavailableException when the information needed cannot be read
     */
    Map<TopicPartition, PartitionClassification> classify(Collection<TopicPartition> partitions);
}
