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
