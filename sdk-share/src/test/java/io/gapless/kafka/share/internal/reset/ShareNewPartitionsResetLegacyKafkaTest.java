package io.gapless.kafka.share.internal.reset;

import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.legacy.LegacyKafka;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.TestInstance;

/**
 * The share-group new-partitions scenarios on Kafka 4.3.1 in a child JVM: a broker that applies
 * the group's base policy to added partitions, so without the SDK's steering {@code latest} would
 * lose what is written to them before a member fetches.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ShareNewPartitionsResetLegacyKafkaTest extends ShareNewPartitionsResetScenarios {
    private static LegacyKafka legacy;
    private static EmbeddedKafka handle;

    ShareNewPartitionsResetLegacyKafkaTest() {
        super(cluster());
    }

    private static EmbeddedKafka cluster() {
        if (handle == null) {
            legacy = LegacyKafka.start();
            handle = EmbeddedKafka.external(legacy.bootstrapServers());
        }
        return handle;
    }

    @AfterAll
    void stopLegacyBroker() {
        handle.close();
        legacy.close();
    }
}
