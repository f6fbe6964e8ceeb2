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
