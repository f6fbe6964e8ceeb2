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
package io.gapless.kafka.streams.internal;

import io.gapless.kafka.core.spi.BaselineTopic;
import io.gapless.kafka.core.ResetPolicy;
import io.gapless.kafka.streams.NewPartitionsReset;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.NoOffsetForPartitionException;
import org.apache.kafka.clients.consumer.internals.AutoOffsetResetStrategy;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.streams.AutoOffsetReset;
import org.apache.kafka.streams.errors.StreamsException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** How the Streams main consumer's emulation answers Kafka Streams' own resets and the policy none (pure logic, MockConsumer). */
class SourceResetEmulationTest {
    private static final TopicPartition ORDERS = new TopicPartition("orders", 0);
    private static final TopicPartition STRICT = new TopicPartition("strict", 0);
    private static final TopicPartition REPARTITION = new TopicPartition("app-rekey-repartition", 0);
    private static final Map<String, Object> CONFIG = Map.of(ConsumerConfig.GROUP_ID_CONFIG, "app",
            ConsumerConfig.CLIENT_ID_CONFIG, "app-StreamThread-1-consumer", ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "1234");

    private static ResetPlan plan() {
        SourcePolicies sources = new SourcePolicies();
        sources.recordTopics(List.of("orders"), NewPartitionsReset.latest());
        sources.recordTopics(List.of("strict"), AutoOffsetReset.none());
        return ResetPlan.builder().applicationId("app").sources(sources).globalBase(ResetPolicy.LATEST)
                .globalNewPartitions(Optional.empty()).baselineTopic(BaselineTopic.of(null, BaselineTopic.PREFIX_DEFAULT, "app")).build();
    }

    private static MockConsumer<byte[], byte[]> consumer(TopicPartition... partitions) {
        MockConsumer<byte[], byte[]> mock = new MockConsumer<>(AutoOffsetResetStrategy.NONE.name());
        mock.assign(List.of(partitions));
        for (TopicPartition tp : partitions) {
            mock.updateBeginningOffsets(Map.of(tp, 2L));
            mock.updateEndOffsets(Map.of(tp, 9L));
        }
        return mock;
    }

    /** Task recovery: Streams asks seekToBeginning (the policy the SDK hands it); the SDK positions its source by its own policy, afresh. */
    @Test
    void streamsOwnResetOfASourceFollowsTheSdksPolicyAndOtherPartitionsAreStreams() {
        MockConsumer<byte[], byte[]> mock = consumer(ORDERS, REPARTITION);
        mock.assign(List.of(ORDERS));
        try (SourceResetEmulation emulation = new SourceResetEmulation(plan(), CONFIG)) {
            emulation.poll(mock, Duration.ZERO); // first assignment: orders positioned at its end by latest
            assertEquals(9L, mock.position(ORDERS));
            mock.assign(List.of(ORDERS, REPARTITION));
            mock.seek(ORDERS, 4L); // the revived task's stale position
            List<Collection<TopicPartition>> toStreams = new ArrayList<>();
            emulation.resetRequestedByStreams(mock, List.of(ORDERS, REPARTITION), toStreams::add);
            assertEquals(List.of(List.of(REPARTITION)), toStreams, "only the repartition partition is left to Kafka Streams");
            assertEquals(9L, mock.position(ORDERS), "resolved again by the SDK (latest), not left at the stale position");
        }
    }

    @Test
    void policyNoneFailsTheThreadAsKafkaStreamsDoesInsteadOfLettingStreamsResetIt() {
        MockConsumer<byte[], byte[]> mock = consumer(STRICT);
        try (SourceResetEmulation emulation = new SourceResetEmulation(plan(), CONFIG)) {
            StreamsException e = assertThrows(StreamsException.class, () -> emulation.poll(mock, Duration.ZERO));
            assertTrue(e.getMessage().contains("No valid committed offset found for input [strict]"), e.getMessage());
            assertTrue(e.getCause() instanceof NoOffsetForPartitionException);
            assertThrows(StreamsException.class, () -> emulation.resetRequestedByStreams(mock, Set.of(STRICT), p -> { }));
        }
    }

    @Test
    void aNonSourcePartitionIsPassedToKafkaStreams() {
        MockConsumer<byte[], byte[]> mock = consumer(REPARTITION);
        try (SourceResetEmulation emulation = new SourceResetEmulation(plan(), CONFIG)) {
            NoOffsetForPartitionException e = assertThrows(NoOffsetForPartitionException.class, () -> emulation.poll(mock, Duration.ZERO));
            assertEquals(Set.of(REPARTITION), e.partitions());
        }
    }

    /** On task recovery a time-out is a TimeoutException: Kafka Streams then retries the task's initialization. */
    @Test
    void aTimeOutDuringStreamsOwnResetIsATimeoutException() {
        MockConsumer<byte[], byte[]> mock = new MockConsumer<>(AutoOffsetResetStrategy.NONE.name()) {
            @Override
            public synchronized Map<TopicPartition, Long> endOffsets(Collection<TopicPartition> partitions) {
                throw new TimeoutException("slow broker");
            }
        };
        mock.assign(List.of(ORDERS));
        try (SourceResetEmulation emulation = new SourceResetEmulation(plan(), CONFIG)) {
            assertThrows(TimeoutException.class, () -> emulation.resetRequestedByStreams(mock, List.of(ORDERS), p -> { }));
        }
    }

    @Test
    void positionWithoutTimeoutUsesDefaultApiTimeout() {
        try (SourceResetEmulation emulation = new SourceResetEmulation(plan(), CONFIG)) {
            assertEquals(Duration.ofMillis(1234), emulation.defaultApiTimeout());
        }
        try (SourceResetEmulation emulation = new SourceResetEmulation(plan(), Map.of(ConsumerConfig.GROUP_ID_CONFIG, "app"))) {
            assertEquals(Duration.ofMillis(60_000), emulation.defaultApiTimeout(), "Kafka's default");
        }
    }
}
