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
