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
