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

import io.gapless.kafka.testkit.EmbeddedKafka;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static io.gapless.kafka.spring.GrowingTopic.WAIT;
import static org.awaitility.Awaitility.await;

/** Waits on a group's state as the broker reports it, with {@link GrowingTopic#WAIT} deadlines. */
public final class GroupWaits {
    private GroupWaits() {
    }

    /**
     * Spring commits the position of partitions without a committed offset on assignment when
     * {@code auto.offset.reset=latest}: once the first {@code partitions} have one, the group
     * consumes what is written next.
     */
    public static void awaitCommitted(EmbeddedKafka kafka, String group, GrowingTopic topic, int partitions) {
        await("committed offsets of " + group).atMost(WAIT).ignoreExceptions().until(() -> {
            Map<TopicPartition, OffsetAndMetadata> offsets = kafka.admin().listConsumerGroupOffsets(group)
                    .partitionsToOffsetAndMetadata().get(10, TimeUnit.SECONDS);
            return IntStream.range(0, partitions).allMatch(p -> offsets.get(new TopicPartition(topic.name(), p)) != null);
        });
    }

    /** The consumer group has no member left (its consumers have closed). */
    public static void awaitNoMembers(EmbeddedKafka kafka, String group) {
        await("group " + group + " without members").atMost(WAIT).ignoreExceptions().until(() -> {
            ConsumerGroupDescription d = kafka.admin().describeConsumerGroups(List.of(group)).all().get(10, TimeUnit.SECONDS).get(group);
            return d.members().isEmpty();
        });
    }

    /** The share group has no member left. */
    public static void awaitNoShareMembers(EmbeddedKafka kafka, String group) {
        await("share group " + group + " without members").atMost(WAIT).ignoreExceptions().until(() ->
                kafka.admin().describeShareGroups(List.of(group)).all().get(10, TimeUnit.SECONDS).get(group).members().isEmpty());
    }
}
