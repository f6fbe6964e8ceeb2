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
import io.gapless.kafka.testkit.TestTopics;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;

/**
 * An operator's reset backwards is only recognized when the group has no member at the moment the
 * SDK prepares the reset topic. A topic the group reads again only after a member has joined (a
 * member that subscribes to it later, or a second application of the group with a wider
 * subscription started after the first) is prepared while the group has members, so the recorded
 * start stands and the records the operator asked to replay are acknowledged unseen.
 * Side by side with a plain share consumer (same steps).
 */
@EmbeddedKafkaTest
class ShareOperatorResetLaterSubscriptionIT {
    private static final Duration WAIT = SideBySide.WAIT;

    private final EmbeddedKafka kafka;
    private final SideBySide side;

    ShareOperatorResetLaterSubscriptionIT(EmbeddedKafka kafka) {
        this.kafka = kafka;
        this.side = new SideBySide(kafka);
    }

    @AfterEach
    void closeAll() {
        side.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"implicit", "explicit"})
    void anOperatorsResetOfATopicSubscribedAfterJoiningIsReplayed(String mode) throws Exception {
        String reset = TestTopics.unique("adv-reset");
        String other = TestTopics.unique("adv-other");
        kafka.createTopic(reset, 1);
        kafka.createTopic(other, 1);
        Set<String> all = side.produce(reset, 0, "history", 300);
        SideBySide.Pair pair = side.pair(mode, "latest", "earliest", reset);
        Set<String> live = pair.joined(reset);
        live.addAll(side.produce(reset, 0, "live", 100));
        pair.pollUntilBothSee(live);
        pair.closeBoth();
        for (String group : List.of(pair.plainGroup, pair.sdkGroup)) {
            await().atMost(WAIT).ignoreExceptions().until(() -> {
                kafka.admin().alterShareGroupOffsets(group, Map.of(new TopicPartition(reset, 0), 0L)).all().get(10, TimeUnit.SECONDS);
                return true;
            });
        }
        SideBySide.Pair again = pair.restart("latest", "earliest");
        // Before any poll: both start on the other topic only, join, and then add the reset topic.
        again.plain.consumer.subscribe(List.of(other));
        again.sdk.consumer.subscribe(List.of(other));
        again.joined(other);
        again.plain.consumer.subscribe(List.of(other, reset));
        again.sdk.consumer.subscribe(List.of(other, reset));
        all.addAll(live);
        again.pollUntilBothSee(all);
        again.assertSdkNeverWorse(all);
    }
}
