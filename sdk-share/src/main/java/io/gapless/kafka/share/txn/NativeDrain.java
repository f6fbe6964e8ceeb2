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

import java.util.List;
import java.util.Map;

/**
 * A native transactional-mode consumer as its producer reaches it, through the consumer's
 * {@link ShareGroupMetadata} ({@link NativeTransactionalMode}).
 */
interface NativeDrain {
    /** Acknowledges {@code acks} on Kafka's consumer and returns them as Kafka hands them to a transaction. */
    ShareAcknowledgements drain(Map<TopicIdPartition, List<AcknowledgementBatch>> acks);
}
