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

import io.gapless.kafka.core.ResetPolicy;
import io.gapless.kafka.core.spi.BaselineTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.clients.consumer.internals.AutoOffsetResetStrategy;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.streams.AutoOffsetReset;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 29 finding 1, driven step by step (no timing decides the outcome): Kafka Streams revives a
 * task and asks {@code seekToBeginning} for two source partitions without a committed offset; in
 * that one call the look-up of {@code recent-1} completes and moves it, while the look-up of
 * {@code recent-0} fails retriably. Plain Kafka Streams' {@code seekToBeginning} always moves the
 * partition; the SDK's answer must not let {@code recent-0} keep the revived task's stale fetch
 * position (the aborted records before it would never be read again under exactly_once_v2): the
 * call ends with a {@link TimeoutException} (Streams retries the task's initialization) and a
 * later call positions it.
 */
class SourceResetEmulationRevivalTest {
    private static final TopicPartition FAILING = new TopicPartition("recent", 0);
    private static final TopicPartition ANSWERED = new TopicPartition("recent", 1);
    private static final long STALE = 4L;
    private static final long BY_DURATION_TARGET = 3L;

    /** A consumer whose offsetsForTimes for {@link #FAILING} fails retriably until {@code brokerAnswers} is set. */
    private static MockConsumer<byte[], byte[]> consumer(AtomicBoolean brokerAnswers, List<Map<TopicPartition, Long>> asked) {
        MockConsumer<byte[], byte[]> mock = new MockConsumer<>(AutoOffsetResetStrategy.NONE.name()) {
            @Override
            public synchronized Map<TopicPartition, OffsetAndTimestamp> offsetsForTimes(Map<TopicPartition, Long> times) {
                asked.add(Map.copyOf(times));
                if (times.containsKey(FAILING) && !brokerAnswers.get()) {
                    throw new TimeoutException("Failed to get offsets by times in 1234ms (leader of " + FAILING + " moving)");
                }
                Map<TopicPartition, OffsetAndTimestamp> out = new HashMap<>();
                times.forEach((tp, t) -> out.put(tp, new OffsetAndTimestamp(BY_DURATION_TARGET, t)));
                return out;
            }
        };
        mock.assign(List.of(FAILING, ANSWERED));
        mock.updateBeginningOffsets(Map.of(FAILING, 0L, ANSWERED, 0L));
        mock.updateEndOffsets(Map.of(FAILING, 9L, ANSWERED, 9L));
        // The revived task's fetch positions (aborted records between the last commit and here).
        mock.seek(FAILING, STALE);
        mock.seek(ANSWERED, STALE);
        return mock;
    }

    private static ResetPlan plan() {
        SourcePolicies sources = new SourcePolicies();
        sources.recordTopics(List.of("recent"), AutoOffsetReset.byDuration(Duration.ofMinutes(5)));
        return ResetPlan.builder().applicationId("app").sources(sources).globalBase(ResetPolicy.LATEST)
                .globalNewPartitions(Optional.empty()).baselineTopic(BaselineTopic.of(null, BaselineTopic.PREFIX_DEFAULT, "app")).build();
    }

    @Test
    void aPartitionWhoseLookUpFailedIsNotReportedPositionedBecauseAnotherPartitionMovedInTheSameCall() {
        // Plain Kafka Streams: seekToBeginning moves both partitions, whatever the broker does.
        MockConsumer<byte[], byte[]> plain = consumer(new AtomicBoolean(false), new ArrayList<>());
        plain.seekToBeginning(List.of(FAILING, ANSWERED));
        assertEquals(0L, plain.position(FAILING));
        assertEquals(0L, plain.position(ANSWERED));

        AtomicBoolean brokerAnswers = new AtomicBoolean(false);
        List<Map<TopicPartition, Long>> asked = new ArrayList<>();
        MockConsumer<byte[], byte[]> mock = consumer(brokerAnswers, asked);
        try (SourceResetEmulation emulation = new SourceResetEmulation(plan(), Map.of(ConsumerConfig.GROUP_ID_CONFIG, "app",
                ConsumerConfig.CLIENT_ID_CONFIG, "app-StreamThread-1-consumer", ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "1234"))) {
            // Step 1: one call; the batch look-up fails, then recent-1 alone is answered and moved, recent-0 alone fails.
            TimeoutException e = assertThrows(TimeoutException.class,
                    () -> emulation.resetRequestedByStreams(mock, List.of(FAILING, ANSWERED), p -> { }),
                    "recent-0 was not moved: Streams must retry the task's initialization, not resume at the stale position");
            assertTrue(e.getMessage().contains(FAILING.toString()), e.getMessage());
            assertEquals(3, asked.size(),
                    "one batch look-up, then one per partition: " + asked);
            assertEquals(BY_DURATION_TARGET, mock.position(ANSWERED), "the partition whose look-up completed moved in that call");
            assertEquals(STALE, mock.position(FAILING), "not moved yet (and reported as such)");

            // Step 2: the broker answers again; Streams' retry of the task's initialization positions recent-0.
            brokerAnswers.set(true);
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            boolean done = false;
            while (!done && System.nanoTime() < deadline) {
                try {
                    emulation.resetRequestedByStreams(mock, List.of(FAILING), p -> { });
                    done = true;
                } catch (TimeoutException stillBackingOff) {
                    // the partition's retry back-off (Kafka's) has not run out yet: Streams retries
                }
            }
            assertTrue(done, "positioned once the broker answers");
            assertEquals(BY_DURATION_TARGET, mock.position(FAILING), "moved to the by_duration target, as the plain seek moves it");
        }
    }
}
