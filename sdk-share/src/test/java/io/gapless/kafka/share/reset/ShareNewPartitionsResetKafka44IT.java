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
package io.gapless.kafka.share.reset;

import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.EmbeddedKafkaTest;

/** The share-group new-partitions scenarios on the embedded Kafka 4.4 broker. */
@EmbeddedKafkaTest
class ShareNewPartitionsResetKafka44IT extends ShareNewPartitionsResetScenarios {
    ShareNewPartitionsResetKafka44IT(EmbeddedKafka kafka) {
        super(kafka);
    }
}
