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

import io.gapless.kafka.core.PartitionClassification;
import io.gapless.kafka.core.ResetPolicy;
import io.gapless.kafka.core.spi.ModeDecision;
import io.gapless.kafka.core.spi.ShareGroupBaseline;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.ShareConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The start-offset filter runs after Kafka's poll took the batch: whatever the baseline or the
 * cluster does, it throws nothing, and it acknowledges unseen only below a start it checked for
 * the partition's current topic id (finding 2 and 1 of issue 28, as pure logic; the broker
 * scenarios are ShareStartOffsetSafetyIT).
 */
class ShareStartOffsetFilterTest {
    private static final TopicPartition TP = new TopicPartition("orders", 0);

    private final FakeBaseline baseline = new FakeBaseline();
    private final ShareResetMetrics metrics = new ShareResetMetrics("c-1", ModeDecision.Kind.EMULATE);
    private final AtomicLong now = new AtomicLong(1_000);
    private final List<Long> acknowledged = new ArrayList<>();
    private final ShareStartOffsets starts = new ShareStartOffsets(baseline, null, ResetPolicy.LATEST, ResetPolicy.EARLIEST, metrics);
    private final ShareStartOffsetFilter filter = new ShareStartOffsetFilter(starts, true, metrics, now::get);

    @AfterEach
    void close() {
        metrics.close();
    }

    @Test
    void beforeTheMemberIsPreparedEveryRecordIsDeliveredWithoutALookUp() {
        baseline.recorded.put(TP, 100L);
        int calls = baseline.calls;
        assertEquals(10, filter.deliverUndecided(batch(0, 10)).count(), "no start is trusted before the group checks ran");
        assertEquals(List.of(), acknowledged);
        assertEquals(calls, baseline.calls, "the baseline is not asked");
        assertEquals(10.0, metric("records-delivered-undecided-total"));
    }

    @Test
    void aStartThatCannotBeLookedUpDeliversTheRecordsInsteadOfThrowing() {
        baseline.failing = true;
        ConsumerRecords<String, String> out = filter.apply(batch(0, 10), delegate());
        assertEquals(10, out.count(), "delivered, not acknowledged unseen and not thrown out of poll");
        assertEquals(List.of(), acknowledged);
        assertEquals(10.0, metric("records-delivered-undecided-total"));
        assertEquals(1.0, metric("start-lookup-failures-total"));
        // Within the backoff the baseline is not asked again: later polls are not slowed down by it.
        int calls = baseline.calls;
        assertEquals(5, filter.apply(batch(10, 5), delegate()).count());
        assertEquals(calls, baseline.calls);
        // Once it answers, the start applies from then on.
        baseline.failing = false;
        baseline.recorded.put(TP, 100L);
        now.addAndGet(60_000);
        assertEquals(0, filter.apply(batch(20, 10), delegate()).count(), "below the start recorded: skipped");
        assertEquals(LongStream.range(20, 30).boxed().toList(), acknowledged);
    }

    @Test
    void aStartWhoseTopicCannotBeCheckedDeliversTheRecordsBelowIt() {
        baseline.recorded.put(TP, 100L);
        assertEquals(0, filter.apply(batch(0, 10), delegate()).count());
        acknowledged.clear();
        baseline.failing = true;
        assertEquals(10, filter.apply(batch(10, 10), delegate()).count(), "unchecked start: delivered");
        assertEquals(List.of(), acknowledged);
        assertEquals(5, filter.apply(batch(100, 5), delegate()).count(), "at or above the start: always delivered, no check needed");
    }

    @Test
    void aStartRecordedForAnotherTopicIdIsForgotten() {
        baseline.recorded.put(TP, 100L);
        assertEquals(0, filter.apply(batch(0, 10), delegate()).count());
        // Deleted and re-created under the same name: the baseline (keyed by id) has nothing for the new topic.
        baseline.topicId = Uuid.randomUuid();
        baseline.recorded.clear();
        baseline.recorded.put(TP, 0L); // what another member recorded for the new topic (new-partitions policy earliest)
        acknowledged.clear();
        assertEquals(10, filter.apply(batch(0, 10), delegate()).count(), "the new topic's records are not below the old start");
        assertEquals(List.of(), acknowledged);
        assertEquals(0L, starts.cached(TP).offset(), "the new topic's start");
        assertEquals(baseline.topicId, starts.cached(TP).topicId());
    }

    @Test
    void aPartitionTheClusterNoLongerHasIsDeliveredUndecided() {
        baseline.recorded.put(TP, 100L);
        assertEquals(0, filter.apply(batch(0, 10), delegate()).count());
        baseline.topicId = null; // deleted
        assertEquals(10, filter.apply(batch(10, 10), delegate()).count());
        assertNull(starts.cached(TP));
    }

    private double metric(String name) {
        return metrics.metrics().entrySet().stream().filter(e -> e.getKey().name().equals(name))
                .mapToDouble(e -> ((Number) e.getValue().metricValue()).doubleValue()).sum();
    }

    private static ConsumerRecords<String, String> batch(long from, int count) {
        List<ConsumerRecord<String, String>> rs = new ArrayList<>();
        for (long o = from; o < from + count; o++) {
            rs.add(new ConsumerRecord<>(TP.topic(), TP.partition(), o, "k", "v" + o));
        }
        return new ConsumerRecords<>(Map.of(TP, rs), Map.of());
    }

    @SuppressWarnings("unchecked")
    private ShareConsumer<String, String> delegate() {
        return (ShareConsumer<String, String>) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[]{ShareConsumer.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("acknowledge")) {
                        acknowledged.add(((ConsumerRecord<?, ?>) args[0]).offset());
                        return null;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }

    /** A baseline whose every call fails while {@code failing}: the baseline leader down, or too few in-sync replicas. */
    private static final class FakeBaseline implements ShareGroupBaseline {
        boolean failing;
        int calls;
        Uuid topicId = Uuid.randomUuid();
        final Map<TopicPartition, Long> recorded = new HashMap<>();

        private void call() {
            calls++;
            if (failing) {
                throw new KafkaException("baseline unavailable (test)");
            }
        }

        @Override
        public String group() {
            return "g";
        }

        @Override
        public List<TopicPartition> partitionsOf(Collection<String> topics) {
            call();
            return List.of(TP);
        }

        @Override
        public boolean register(Collection<String> topics) {
            call();
            return false;
        }

        @Override
        public Map<TopicPartition, PartitionClassification> classify(Collection<TopicPartition> partitions) {
            call();
            Map<TopicPartition, PartitionClassification> out = new HashMap<>();
            partitions.forEach(tp -> out.put(tp, new PartitionClassification(tp, true, "test")));
            return out;
        }

        @Override
        public Map<TopicPartition, Long> recordedStartOffsets(Collection<TopicPartition> partitions) {
            call();
            Map<TopicPartition, Long> out = new HashMap<>();
            partitions.forEach(tp -> {
                if (recorded.containsKey(tp)) {
                    out.put(tp, recorded.get(tp));
                }
            });
            return out;
        }

        @Override
        public Map<TopicPartition, Long> chooseStartOffsets(Map<TopicPartition, ProposedStart> proposals) {
            call();
            proposals.forEach((tp, p) -> recorded.putIfAbsent(tp, p.offset()));
            return recordedStartOffsets(proposals.keySet());
        }

        @Override
        public Map<String, Uuid> topicIds(Collection<String> topics) {
            call();
            return topicId == null || !topics.contains(TP.topic()) ? Map.of() : Map.of(TP.topic(), topicId);
        }

        @Override
        public boolean startNewIncarnation(String reason) {
            call();
            recorded.clear();
            return true;
        }

        @Override
        public boolean groupSeenInKafka() {
            call();
            return false;
        }

        @Override
        public void recordGroupSeenInKafka(Collection<String> topics) {
            call();
        }

        @Override
        public Map<TopicPartition, Long> supersedeStartOffsets(Map<TopicPartition, ProposedStart> starts) {
            call();
            starts.forEach((tp, p) -> recorded.put(tp, p.offset()));
            return recordedStartOffsets(starts.keySet());
        }

        @Override
        public Map<TopicPartition, Long> policyOffsets(Map<TopicPartition, ResetPolicy> policies, long nowMs) {
            call();
            Map<TopicPartition, Long> out = new HashMap<>();
            policies.forEach((tp, p) -> out.put(tp, p == ResetPolicy.EARLIEST ? 0L : 1_000L));
            return out;
        }

        @Override
        public void close() {
        }
    }
}
