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
package io.gapless.kafka.core.internal;

import io.gapless.kafka.core.spi.TopicResetPolicies;
import io.gapless.kafka.core.spi.ModeDecision;
import io.gapless.kafka.core.BaselineUnavailableException;
import io.gapless.kafka.core.BaselineUnavailablePolicy;
import io.gapless.kafka.core.PartitionClassification;
import io.gapless.kafka.core.PartitionClassifier;
import io.gapless.kafka.core.ResetPolicy;
import org.apache.kafka.clients.consumer.LogTruncationException;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.NoOffsetForPartitionException;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Time;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The positioning rules of {@link OffsetResetHandler}'s javadoc, on Kafka's MockConsumer (pure logic, no broker). */
class OffsetResetHandlerTest {
    private static final TopicPartition OLD0 = new TopicPartition("t", 0);
    private static final TopicPartition OLD1 = new TopicPartition("t", 1);
    private static final TopicPartition NEW2 = new TopicPartition("t", 2);
    private static final TopicPartition NEW3 = new TopicPartition("t", 3);

    private final ManualTime time = new ManualTime(1_000_000L);
    private final ResetMetrics metrics = new ResetMetrics("test", ModeDecision.Kind.EMULATE);
    private final TimedMockConsumer consumer = new TimedMockConsumer();
    private final AtomicInteger classifications = new AtomicInteger();
    private final PartitionClassifier newFromTwo = partitions -> {
        classifications.incrementAndGet();
        Map<TopicPartition, PartitionClassification> out = new HashMap<>();
        partitions.forEach(tp -> out.put(tp, new PartitionClassification(tp, tp.partition() >= 2, "test rule")));
        return out;
    };

    OffsetResetHandlerTest() {
        consumer.assign(List.of(OLD0, OLD1, NEW2, NEW3));
        Map<TopicPartition, Long> begin = new HashMap<>();
        Map<TopicPartition, Long> end = new HashMap<>();
        for (TopicPartition tp : List.of(OLD0, OLD1, NEW2, NEW3)) {
            begin.put(tp, 5L);
            end.put(tp, 100L);
        }
        consumer.updateBeginningOffsets(begin);
        consumer.updateEndOffsets(end);
    }

    @AfterEach
    void closeMetrics() {
        metrics.close();
    }

    private OffsetResetHandler handler(ResetPolicy base, ResetPolicy newPolicy, PartitionClassifier classifier,
                                       BaselineUnavailablePolicy unavailable) {
        TopicResetPolicies p = new TopicResetPolicies(base, Optional.ofNullable(newPolicy));
        return new OffsetResetHandler(topic -> topic.equals("t") ? Optional.of(p) : Optional.empty(), () -> classifier,
                unavailable, metrics, time);
    }

    @Test
    void newPartitionsTakeTheNewPolicyAndOthersTheBasePolicy() {
        OffsetResetHandler h = handler(ResetPolicy.LATEST, ResetPolicy.EARLIEST, newFromTwo, BaselineUnavailablePolicy.FAIL);
        h.handle(consumer, new NoOffsetForPartitionException(List.of(OLD0, OLD1, NEW2, NEW3)));
        assertEquals(100L, consumer.position(OLD0));
        assertEquals(100L, consumer.position(OLD1));
        assertEquals(5L, consumer.position(NEW2));
        assertEquals(5L, consumer.position(NEW3));
        assertEquals(2.0, resets("earliest", "new"));
        assertEquals(2.0, resets("latest", "pre-existing"));
    }

    @Test
    void outOfRangeUsesTheBasePolicyWhateverTheClassification() {
        OffsetResetHandler h = handler(ResetPolicy.LATEST, ResetPolicy.EARLIEST, newFromTwo, BaselineUnavailablePolicy.FAIL);
        h.handle(consumer, new OffsetOutOfRangeException("gone", Map.of(NEW2, 1L, OLD0, 1L)));
        assertEquals(100L, consumer.position(NEW2));
        assertEquals(100L, consumer.position(OLD0));
        assertEquals(0, classifications.get(), "out-of-range needs no classification");
    }

    @Test
    void baseNoneRethrowsForExactlyThePreExistingPartitions() {
        OffsetResetHandler h = handler(ResetPolicy.NONE, ResetPolicy.EARLIEST, newFromTwo, BaselineUnavailablePolicy.FAIL);
        NoOffsetForPartitionException e = assertThrows(NoOffsetForPartitionException.class,
                () -> h.handle(consumer, new NoOffsetForPartitionException(List.of(OLD0, NEW2))));
        assertEquals(Set.of(OLD0), e.partitions());
        assertEquals(5L, consumer.position(NEW2), "the new partition was positioned all the same");
        OffsetOutOfRangeException oore = assertThrows(OffsetOutOfRangeException.class,
                () -> h.handle(consumer, new OffsetOutOfRangeException("gone", Map.of(NEW3, 1L))));
        assertEquals(Map.of(NEW3, 1L), oore.offsetOutOfRangePartitions());
    }

    @Test
    void aRepeatedReportIsIgnoredUntilThePartitionIsReassigned() {
        OffsetResetHandler h = handler(ResetPolicy.LATEST, ResetPolicy.EARLIEST, newFromTwo, BaselineUnavailablePolicy.FAIL);
        h.handle(consumer, new NoOffsetForPartitionException(List.of(NEW2)));
        consumer.seek(NEW2, 42L); // the application consumed on
        h.handle(consumer, new NoOffsetForPartitionException(List.of(NEW2)));
        assertEquals(42L, consumer.position(NEW2), "a stale report must not rewind the partition");
        h.forget(List.of(NEW2));
        h.handle(consumer, new NoOffsetForPartitionException(List.of(NEW2)));
        assertEquals(5L, consumer.position(NEW2));
    }

    @Test
    void partitionsNoLongerAssignedAreLeftAlone() {
        OffsetResetHandler h = handler(ResetPolicy.LATEST, ResetPolicy.EARLIEST, newFromTwo, BaselineUnavailablePolicy.FAIL);
        consumer.assign(List.of(OLD0));
        h.handle(consumer, new NoOffsetForPartitionException(List.of(OLD0, NEW2)));
        assertEquals(100L, consumer.position(OLD0));
        assertEquals(0, consumer.seeks.getOrDefault(NEW2, 0));
    }

    @Test
    void topicsTheSdkDoesNotOwnAreRethrown() {
        OffsetResetHandler h = handler(ResetPolicy.LATEST, ResetPolicy.EARLIEST, newFromTwo, BaselineUnavailablePolicy.FAIL);
        TopicPartition changelog = new TopicPartition("app-store-changelog", 0);
        consumer.assign(List.of(OLD0, changelog));
        consumer.updateEndOffsets(Map.of(changelog, 10L));
        NoOffsetForPartitionException e = assertThrows(NoOffsetForPartitionException.class,
                () -> h.handle(consumer, new NoOffsetForPartitionException(List.of(OLD0, changelog))));
        assertEquals(Set.of(changelog), e.partitions());
        assertEquals(100L, consumer.position(OLD0));
    }

    @Test
    void byDurationKeepsItsTargetAcrossRetries() {
        OffsetResetHandler h = handler(ResetPolicy.LATEST, ResetPolicy.byDuration(Duration.ofMinutes(10)), newFromTwo,
                BaselineUnavailablePolicy.FAIL);
        consumer.failOffsetsForTimes = true;
        // A look-up that times out does not escape (issue 10 point 9): the partition stays unpositioned for a retry.
        assertFalse(h.handle(consumer, new NoOffsetForPartitionException(List.of(NEW2)), Duration.ofSeconds(1)));
        assertEquals(0, consumer.seeks.getOrDefault(NEW2, 0), "not positioned");
        long firstTarget = consumer.lastTimestampAsked;
        time.sleep(60_000);
        consumer.failOffsetsForTimes = false;
        consumer.timeIndex.put(NEW2, new OffsetAndTimestamp(17L, firstTarget));
        h.handle(consumer, new NoOffsetForPartitionException(List.of(NEW2)));
        assertEquals(firstTarget, consumer.lastTimestampAsked, "the retry asks for the same target");
        assertEquals(time.milliseconds() - 60_000 - Duration.ofMinutes(10).toMillis(), firstTarget);
        assertEquals(17L, consumer.position(NEW2));
    }

    /**
     * One report, two partitions: the new one's by_duration look-up times out, the pre-existing
     * one takes latest. The failure keeps only its own partition unpositioned (issue 23: it used
     * to fail the batch), and the other goes to the consumer's own reset.
     */
    @Test
    void aFailedLookUpKeepsOnlyItsOwnPartitionUnpositioned() {
        OffsetResetHandler h = handler(ResetPolicy.LATEST, ResetPolicy.byDuration(Duration.ofMinutes(10)), newFromTwo,
                BaselineUnavailablePolicy.FAIL);
        consumer.failOffsetsForTimes = true;
        h.handle(consumer, new NoOffsetForPartitionException(List.of(OLD0, NEW2)), Duration.ZERO);
        assertEquals(100L, consumer.position(OLD0), "positioned by latest although NEW2's look-up failed");
        assertEquals(0, consumer.seeks.getOrDefault(NEW2, 0), "NEW2 waits for a retry");
        assertTrue(h.positioned(List.of(OLD0)));
        assertFalse(h.positioned(List.of(OLD0, NEW2)), "judged per partition: NEW2 is not positioned");
    }

    /**
     * One report, two topics, one of them deleted meanwhile (a regex subscription): classification
     * used to fail for the batch; now the other topic is positioned and the missing one counts as
     * new (issue 23 finding 1).
     */
    @Test
    void aTopicThatCannotBeDescribedDoesNotFailItsNeighbours() {
        TopicPartition gone = new TopicPartition("gone", 0);
        consumer.assign(List.of(OLD0, gone));
        consumer.updateBeginningOffsets(Map.of(gone, 0L));
        consumer.updateEndOffsets(Map.of(gone, 3L));
        PartitionClassifier goneIsMissing = partitions -> {
            if (partitions.stream().anyMatch(tp -> tp.topic().equals("gone"))) {
                throw new org.apache.kafka.common.errors.UnknownTopicOrPartitionException("topic gone does not exist");
            }
            return newFromTwo.classify(partitions);
        };
        TopicResetPolicies p = new TopicResetPolicies(ResetPolicy.LATEST, Optional.of(ResetPolicy.EARLIEST));
        OffsetResetHandler h = new OffsetResetHandler(topic -> Optional.of(p), () -> goneIsMissing, BaselineUnavailablePolicy.FAIL,
                metrics, time);
        h.handle(consumer, new NoOffsetForPartitionException(List.of(OLD0, gone)), Duration.ZERO);
        assertEquals(100L, consumer.position(OLD0), "pre-existing: latest, although the other topic is gone");
        assertEquals(0L, consumer.position(gone), "not found: new, earliest");
    }

    /** A caller's seekToBeginning makes no later out-of-range report stale (issue 23 finding 2). */
    @Test
    void outOfRangeAfterTheCallersSeekToBeginningIsActedOn() {
        OffsetResetHandler h = handler(ResetPolicy.EARLIEST, ResetPolicy.LATEST, newFromTwo, BaselineUnavailablePolicy.FAIL);
        consumer.seekToBeginning(List.of(OLD0));
        h.positionedByCaller(List.of(OLD0), OffsetResetHandler.UNKNOWN_OFFSET);
        consumer.seek(OLD0, 2L); // below the log start (5): what a deleteRecords past the position leaves
        h.handle(consumer, new OffsetOutOfRangeException(Map.of(OLD0, 2L)), Duration.ZERO);
        assertEquals(5L, consumer.position(OLD0), "reset by the base policy (earliest), not dropped as stale");
    }

    @Test
    void byDurationWithNoRecordThatRecentGoesToTheEnd() {
        OffsetResetHandler h = handler(ResetPolicy.LATEST, ResetPolicy.byDuration(Duration.ofMinutes(10)), newFromTwo,
                BaselineUnavailablePolicy.FAIL);
        h.handle(consumer, new NoOffsetForPartitionException(List.of(NEW3)));
        assertEquals(100L, consumer.position(NEW3));
    }

    @Test
    void anUnavailableBaselineFailsWithoutPositioningAnything() {
        PartitionClassifier broken = partitions -> {
            throw new BaselineUnavailableException("Cannot read the group baseline in topic __gapless_group_baselines");
        };
        OffsetResetHandler h = handler(ResetPolicy.LATEST, ResetPolicy.EARLIEST, broken, BaselineUnavailablePolicy.FAIL);
        BaselineUnavailableException e = assertThrows(BaselineUnavailableException.class,
                () -> h.handle(consumer, new NoOffsetForPartitionException(List.of(OLD0, NEW2))));
        assertTrue(e.getMessage().contains("__gapless_group_baselines"));
        assertTrue(consumer.seeks.isEmpty(), "nothing skipped on the way: " + consumer.seeks);
    }

    @Test
    void anUnavailableBaselineFallsBackToTheBasePolicyWhenChosen() {
        PartitionClassifier broken = partitions -> {
            throw new BaselineUnavailableException("down");
        };
        OffsetResetHandler h = handler(ResetPolicy.LATEST, ResetPolicy.EARLIEST, broken, BaselineUnavailablePolicy.BASE_POLICY);
        h.handle(consumer, new NoOffsetForPartitionException(List.of(OLD0, NEW2)));
        assertEquals(100L, consumer.position(NEW2));
    }

    /** Brokers without topic ids (before 2.8): the store's refusal reaches the caller; no base-policy fallback guesses. */
    @Test
    void aClusterWithoutTopicIdsIsRefusedEvenUnderBasePolicy() {
        PartitionClassifier noIds = partitions -> {
            throw new org.apache.kafka.common.errors.UnsupportedVersionException("The cluster gave topic t no topic id");
        };
        OffsetResetHandler h = handler(ResetPolicy.LATEST, ResetPolicy.EARLIEST, noIds, BaselineUnavailablePolicy.BASE_POLICY);
        assertThrows(org.apache.kafka.common.errors.UnsupportedVersionException.class,
                () -> h.handle(consumer, new NoOffsetForPartitionException(List.of(OLD0, NEW2))));
        assertFalse(h.positioned(List.of(OLD0)), "nothing positioned by a guess");
        assertFalse(h.positioned(List.of(NEW2)), "nothing positioned by a guess");
    }

    @Test
    void noClassificationWhenBothPoliciesAgree() {
        OffsetResetHandler h = handler(ResetPolicy.EARLIEST, ResetPolicy.EARLIEST, newFromTwo, BaselineUnavailablePolicy.FAIL);
        h.handle(consumer, new NoOffsetForPartitionException(List.of(OLD0, NEW2)));
        assertEquals(0, classifications.get());
        assertEquals(5L, consumer.position(OLD0));
    }

    @Test
    void aRepeatedOutOfRangeReportIsActedOnEveryTime() {
        OffsetResetHandler h = handler(ResetPolicy.EARLIEST, ResetPolicy.LATEST, newFromTwo, BaselineUnavailablePolicy.FAIL);
        for (int round = 0; round < 3; round++) {
            consumer.seek(OLD0, 1L);
            h.handle(consumer, new OffsetOutOfRangeException("gone", Map.of(OLD0, 1L)));
            assertEquals(5L, consumer.position(OLD0), "round " + round + ": out of range again, reset again");
        }
        assertEquals(3.0, resets("earliest", "out-of-range"));
    }

    @Test
    void aCachedMissingOffsetReportDoesNotOverrideTheCallersSeek() {
        OffsetResetHandler h = handler(ResetPolicy.LATEST, ResetPolicy.EARLIEST, newFromTwo, BaselineUnavailablePolicy.FAIL);
        consumer.seek(NEW2, 40L);
        h.positionedByCaller(List.of(NEW2), 40L);
        h.handle(consumer, new NoOffsetForPartitionException(List.of(NEW2, NEW3)));
        assertEquals(40L, consumer.position(NEW2), "the caller's seek stands");
        assertEquals(5L, consumer.position(NEW3), "the partition that still had no position is resolved");
        assertEquals(1, classifications.get(), "classified once, for the unpositioned partition only");
    }

    @Test
    void aTruncatedLogResumesAtTheDivergentOffset() {
        OffsetResetHandler h = handler(ResetPolicy.LATEST, ResetPolicy.EARLIEST, newFromTwo, BaselineUnavailablePolicy.FAIL);
        h.handle(consumer, new LogTruncationException("truncated", Map.of(OLD0, 80L),
                Map.of(OLD0, new OffsetAndMetadata(60L, Optional.of(3), ""))));
        assertEquals(60L, consumer.position(OLD0), "neither latest (skip 60..end) nor earliest (replay)");
        assertEquals(0, classifications.get());
    }

    @Test
    void aTruncatedLogWithoutADivergencePointTakesTheBasePolicy() {
        OffsetResetHandler h = handler(ResetPolicy.EARLIEST, ResetPolicy.LATEST, newFromTwo, BaselineUnavailablePolicy.FAIL);
        h.handle(consumer, new LogTruncationException("truncated", Map.of(OLD1, 80L), Map.of()));
        assertEquals(5L, consumer.position(OLD1));
    }

    @Test
    void baseNoneHandsTheTruncationToTheCallerWithItsDivergentOffsets() {
        OffsetResetHandler h = handler(ResetPolicy.NONE, ResetPolicy.EARLIEST, newFromTwo, BaselineUnavailablePolicy.FAIL);
        OffsetAndMetadata divergent = new OffsetAndMetadata(60L, Optional.of(3), "");
        LogTruncationException e = assertThrows(LogTruncationException.class, () -> h.handle(consumer,
                new LogTruncationException("truncated", Map.of(OLD0, 80L), Map.of(OLD0, divergent))));
        assertEquals(Map.of(OLD0, 80L), e.offsetOutOfRangePartitions());
        assertEquals(Map.of(OLD0, divergent), e.divergentOffsets());
        assertEquals(0, consumer.seeks.getOrDefault(OLD0, 0), "nothing moved");
    }

    @Test
    void anAsynchronousResolutionIsAppliedByALaterCall() {
        java.util.List<Runnable> queued = new java.util.ArrayList<>();
        TopicResetPolicies p = new TopicResetPolicies(ResetPolicy.LATEST, Optional.of(ResetPolicy.EARLIEST));
        OffsetResetHandler h = new OffsetResetHandler(topic -> Optional.of(p), () -> newFromTwo, PolicyOffsets.of(consumer),
                queued::add, BaselineUnavailablePolicy.FAIL, metrics, time);
        assertFalse(h.handle(consumer, new NoOffsetForPartitionException(List.of(NEW2)), Duration.ZERO),
                "poll(Duration.ZERO) does not wait for the worker");
        assertTrue(consumer.seeks.isEmpty());
        h.handle(consumer, new NoOffsetForPartitionException(List.of(NEW2)), Duration.ZERO);
        assertEquals(1, queued.size(), "a report for a partition in progress asks nothing again");
        queued.forEach(Runnable::run);
        h.applyCompleted(consumer);
        assertEquals(5L, consumer.position(NEW2));
    }

    private double resets(String policy, String classification) {
        return metrics.metrics().entrySet().stream()
                .filter(e -> e.getKey().name().equals("resets-total")
                        && policy.equals(e.getKey().tags().get("policy"))
                        && classification.equals(e.getKey().tags().get("classification")))
                .mapToDouble(e -> (Double) e.getValue().metricValue()).sum();
    }

    /** MockConsumer with a controllable time index and a record of seeks. */
    private static final class TimedMockConsumer extends MockConsumer<String, String> {
        final Map<TopicPartition, OffsetAndTimestamp> timeIndex = new HashMap<>();
        final Map<TopicPartition, Integer> seeks = new HashMap<>();
        boolean failOffsetsForTimes;
        long lastTimestampAsked = -1;

        TimedMockConsumer() {
            super("none");
        }

        @Override
        public synchronized Map<TopicPartition, OffsetAndTimestamp> offsetsForTimes(Map<TopicPartition, Long> query) {
            query.values().forEach(t -> lastTimestampAsked = t);
            if (failOffsetsForTimes) {
                throw new org.apache.kafka.common.errors.TimeoutException("ListOffsets timed out");
            }
            Map<TopicPartition, OffsetAndTimestamp> out = new HashMap<>();
            query.keySet().forEach(tp -> out.put(tp, timeIndex.get(tp)));
            return out;
        }

        @Override
        public synchronized void seek(TopicPartition partition, long offset) {
            seeks.merge(partition, 1, Integer::sum);
            super.seek(partition, offset);
        }

        @SuppressWarnings("unused")
        Collection<TopicPartition> seeked() {
            return new ArrayList<>(seeks.keySet());
        }
    }

    /** A clock that moves only when told to. */
    private static final class ManualTime implements Time {
        private long nowMs;

        ManualTime(long startMs) {
            this.nowMs = startMs;
        }

        @Override
        public long milliseconds() {
            return nowMs;
        }

        @Override
        public long nanoseconds() {
            return nowMs * 1_000_000L;
        }

        @Override
        public void sleep(long ms) {
            nowMs += ms;
        }

        @Override
        public void waitObject(Object obj, java.util.function.Supplier<Boolean> condition, long deadlineMs) {
            throw new UnsupportedOperationException();
        }
    }
}
