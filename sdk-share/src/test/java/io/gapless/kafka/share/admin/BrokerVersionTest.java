package io.gapless.kafka.share.admin;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class BrokerVersionTest {

    @Test
    void namesTheReleaseFromTheHighestSupportedMetadataVersion() {
        assertEquals("Kafka 4.4 (metadata.version 4.4-IV2 finalized, software supports up to 4.4-IV2)", BrokerVersion.of(33, 33).describe());
        assertEquals("Kafka 4.3 (metadata.version 4.3-IV0 finalized, software supports up to 4.3-IV0)", BrokerVersion.of(30, 30).describe());
        // An upgraded 4.4 broker whose cluster has not finalized the new metadata.version yet.
        assertEquals("Kafka 4.4 (metadata.version 4.2-IV1 finalized, software supports up to 4.4-IV2)", BrokerVersion.of(29, 33).describe());
    }

    @Test
    void saysWhatItDoesNotKnow() {
        assertEquals("Kafka newer than 4.5 (metadata.version level 40 finalized, software supports up to level 41)",
                BrokerVersion.of(40, 41).describe());
        assertEquals("Kafka 4.4 (metadata.version unknown finalized, software supports up to 4.4-IV2)", BrokerVersion.of(-1, 33).describe());
        assertEquals("a broker of unknown version (describeFeatures did not answer)", BrokerVersion.unknown().describe());
    }
}
