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
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.internals.AutoOffsetResetStrategy;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.streams.AutoOffsetReset;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A slow broker must not kill a stream thread: a {@code TimeoutException} from the SDK's own
 * ListOffsets look-up stays inside {@code poll}, the partition stays unpositioned, and the next
 * poll positions it (as Kafka's consumer retries its own resets).
 */
class SourceResetEmulationTimeoutTest {
    private static final TopicPartition ORDERS = new TopicPartition("orders", 0);

    @Test
    void aTimedOutLookupLeavesThePartitionUnpositionedAndTheNextPollPositionsIt() {
        SourcePolicies sources = new SourcePolicies();
        sources.recordTopics(List.of("orders"), AutoOffsetReset.latest());
        ResetPlan plan = ResetPlan.builder().applicationId("app").sources(sources).globalBase(ResetPolicy.LATEST)
                .globalNewPartitions(Optional.empty()).baselineTopic(BaselineTopic.of(null, BaselineTopic.PREFIX_DEFAULT, "app")).build();
        AtomicInteger lookups = new AtomicInteger();
        MockConsumer<byte[], byte[]> mock = new MockConsumer<>(AutoOffsetResetStrategy.NONE.name()) {
            @Override
            public synchronized Map<TopicPartition, Long> endOffsets(Collection<TopicPartition> partitions) {
                if (lookups.incrementAndGet() == 1) {
                    throw new TimeoutException("Failed to get offsets by times in 60000ms");
                }
                return super.endOffsets(partitions);
            }
        };
        mock.assign(List.of(ORDERS));
        mock.updateBeginningOffsets(Map.of(ORDERS, 0L));
        mock.updateEndOffsets(Map.of(ORDERS, 7L));
        try (SourceResetEmulation emulation = new SourceResetEmulation(plan,
                Map.of(ConsumerConfig.GROUP_ID_CONFIG, "app", ConsumerConfig.CLIENT_ID_CONFIG, "app-StreamThread-1-consumer"))) {
            ConsumerRecords<byte[], byte[]> first = emulation.poll(mock, Duration.ofMillis(100));
            assertTrue(first.isEmpty());
            assertEquals(1, lookups.get(), "the look-up timed out once");
            ConsumerRecords<byte[], byte[]> second = emulation.poll(mock, Duration.ofMillis(100));
            assertTrue(second.isEmpty());
            assertEquals(7L, mock.position(ORDERS), "the next poll positioned the partition by its policy");
        }
    }
}
