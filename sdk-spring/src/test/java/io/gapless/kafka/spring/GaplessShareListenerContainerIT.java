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
package io.gapless.kafka.spring;

import io.gapless.kafka.share.GaplessShareConsumer;
import io.gapless.kafka.share.admin.ShareGroupSettings;
import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.EmbeddedKafkaTest;
import io.gapless.kafka.testkit.TestTopics;
import org.apache.kafka.clients.consumer.ShareConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.core.ShareConsumerFactory;
import org.springframework.kafka.listener.ContainerProperties;
import org.springframework.kafka.listener.MessageListener;
import org.springframework.kafka.listener.ShareKafkaMessageListenerContainer;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

import static io.gapless.kafka.spring.GrowingTopic.WAIT;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

/**
 * Spring Kafka's {@link ShareKafkaMessageListenerContainer} (two consumers, container-managed
 * acknowledgements) on the Gapless share factory with {@code share.auto.offset.reset=latest} and
 * {@code share.auto.offset.reset.new.partitions=earliest}, while its topic grows running and
 * stopped: every record written after the group was serving arrives exactly once, none of the
 * history before it.
 */
@EmbeddedKafkaTest
class GaplessShareListenerContainerIT {
    private static final int PER_PARTITION = 30;
    /** Warm-up markers, written until the group serves a partition: under {@code latest} the first ones may be skipped. */
    private static final Predicate<String> NOT_WARM_UP = v -> !v.startsWith("warm-up");

    @Test
    void nothingLostNothingReplayedWhileTheTopicGrowsRunningAndStopped(EmbeddedKafka kafka) {
        String group = TestTopics.unique("spring-share");
        ShareGroupSettings.forGroup(kafka.admin(), group).update().recordLockDuration(Duration.ofSeconds(30)).apply();
        try (GrowingTopic topic = new GrowingTopic(kafka, "spring-share", 2)) {
            topic.write("history", 20);
            Map<String, Object> props = new HashMap<>();
            props.put("bootstrap.servers", kafka.bootstrapServers());
            props.put("key.deserializer", StringDeserializer.class);
            props.put("value.deserializer", StringDeserializer.class);
            props.put("share.auto.offset.reset", "latest");
            props.put("share.auto.offset.reset.new.partitions", "earliest");
            GaplessShareConsumerFactory<String, String> factory = new GaplessShareConsumerFactory<>(props);
            List<ShareConsumer<String, String>> consumers = new CopyOnWriteArrayList<>();
            factory.addListener(new ShareConsumerFactory.Listener<>() {
                @Override
                public void consumerAdded(String id, ShareConsumer<String, String> consumer) {
                    consumers.add(consumer);
                }
            });
            RecordTally received = new RecordTally();
            ContainerProperties containerProps = new ContainerProperties(topic.name());
            containerProps.setGroupId(group);
            containerProps.setMessageListener((MessageListener<String, String>) received::record);
            ShareKafkaMessageListenerContainer<String, String> container = new ShareKafkaMessageListenerContainer<>(factory, containerProps);
            container.setConcurrency(2);
            container.setBeanName("share-container-" + group);
            container.start();
            try {
                topic.awaitServed(received, "warm-up");
                topic.write("live", PER_PARTITION);
                topic.grow(4);
                topic.write("grown-running", PER_PARTITION);
                topic.awaitServed(received, "after-running-growth");

                container.stop();
                GroupWaits.awaitNoShareMembers(kafka, group);
                topic.grow(6);
                topic.write("grown-stopped", PER_PARTITION);
                container.start();
                topic.awaitServed(received, "after-stopped-growth");
                await("every record written after the group was serving").atMost(WAIT)
                        .until(() -> received.sorted(NOT_WARM_UP).equals(expected(topic)));
            } finally {
                container.stop();
            }
            assertEquals(4, consumers.size(), "two consumers per start");
            consumers.forEach(c -> assertInstanceOf(GaplessShareConsumer.class, c));
            assertEquals(expected(topic), received.sorted(NOT_WARM_UP),
                    "per partition, every record written after the group was serving, each exactly once, and no history");
        }
    }

    private static Map<Integer, List<String>> expected(GrowingTopic topic) {
        return topic.written().sorted(NOT_WARM_UP.and(v -> !v.startsWith("history")));
    }
}
