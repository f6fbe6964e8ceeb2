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
package io.gapless.kafka.e2e.sharereset;

import io.gapless.kafka.core.ResetPolicy;
import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.EmbeddedKafkaTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static io.gapless.kafka.e2e.sharereset.ShareResetScenarios.BATCH_PER_PARTITION;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Measures how a Kafka 4.4 broker (embedded, in this JVM) starts share-partitions the group meets
 * late, with {@code share.auto.offset.reset=latest}. 4.4 starts partitions added to a known topic
 * at offset 0 (KAFKA-20742) and applies the base policy only to topics subscribed later.
 */
@EmbeddedKafkaTest
class ShareGroupAddedPartitionsKafka44IT {
    private static ShareResetScenarios scenarios;

    @BeforeAll
    static void setUp(EmbeddedKafka kafka) {
        scenarios = new ShareResetScenarios(kafka.bootstrapServers(), kafka.admin(), "Kafka 4.4 (embedded)");
    }

    @AfterAll
    static void tearDown() {
        if (scenarios != null) {
            scenarios.close();
        }
    }

    @Test
    void partitionsAddedWhileAMemberIsLiveLoseNothing() throws Exception {
        ShareResetScenarios.Result r = scenarios.growWhileMemberIsLive("explicit");
        assertEquals(4 * BATCH_PER_PARTITION, r.deliveredFrom(r.delivered().keySet()), r.toString());
        assertEquals(0, r.totalDuplicates(), r.toString());
    }

    @Test
    void partitionsAddedWhileTheGroupIsEmptyLoseNothing() throws Exception {
        ShareResetScenarios.Result r = scenarios.growWhileGroupIsEmpty("implicit");
        assertEquals(4 * BATCH_PER_PARTITION, r.deliveredFrom(r.delivered().keySet()), r.toString());
        assertEquals(0, r.totalDuplicates(), r.toString());
    }

    @Test
    void partitionsAddedWhileTheGroupIsEmptyStartAtZeroWithByDurationToo() throws Exception {
        ShareResetScenarios.Result r = scenarios.growWhileGroupIsEmpty("implicit", ResetPolicy.byDuration(java.time.Duration.ZERO));
        assertEquals(4 * BATCH_PER_PARTITION, r.deliveredFrom(r.delivered().keySet()), r.toString());
        assertEquals(0, r.totalDuplicates(), r.toString());
    }

    @Test
    void aTopicSubscribedLaterStartsByTheBasePolicy() throws Exception {
        ShareResetScenarios.Result r = scenarios.subscribeToTopicLater("explicit");
        assertEquals(0, r.deliveredFrom(r.delivered().keySet()), "latest skips what was written before: " + r);
    }

    @Test
    void alterShareGroupOffsetsOnAnEmptyGroupStartsUninitializedPartitionsWhereAsked() throws Exception {
        ShareResetScenarios.Result r = scenarios.alterOffsetsOfUninitializedPartitions("explicit");
        assertEquals(4 * BATCH_PER_PARTITION, r.deliveredFrom(r.delivered().keySet()), r.toString());
        assertEquals(0, r.totalDuplicates(), r.toString());
    }
}
