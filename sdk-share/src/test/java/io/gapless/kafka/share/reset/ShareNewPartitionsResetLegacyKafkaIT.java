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
import io.gapless.kafka.testkit.legacy.LegacyKafka;
import io.gapless.kafka.testkit.legacy.LegacyKafkaTest;

/**
 * The share-group new-partitions scenarios on Kafka 4.3.1 in a child JVM: a broker that applies
 * the group's base policy to added partitions, so without the SDK's steering {@code latest} would
 * lose what is written to them before a member fetches.
 */
@LegacyKafkaTest
class ShareNewPartitionsResetLegacyKafkaIT extends ShareNewPartitionsResetScenarios {
    ShareNewPartitionsResetLegacyKafkaIT(LegacyKafka legacy) {
        // The helper methods (create topics, add partitions) work on any cluster; closing the test JVM stops the broker.
        super(EmbeddedKafka.external(legacy.bootstrapServers()));
    }
}
