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

import io.gapless.kafka.core.ResetPolicy;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RetriableException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.ToLongFunction;

/** Turns reset policies into offsets, the way Kafka's consumer does: one batched look-up per kind. */
public final class PolicyOffsets {

    /** The three offset look-ups a policy needs (a consumer, or the SDK's own reader). */
    public interface Lookup {
        Map<TopicPartition, Long> beginningOffsets(Collection<TopicPartition> partitions);

        Map<TopicPartition, Long> endOffsets(Collection<TopicPartition> partitions);

        Map<TopicPartition, OffsetAndTimestamp> offsetsForTimes(Map<TopicPartition, Long> times);

        /**
         * The same look-ups, each ending (with a {@link org.apache.kafka.common.errors.TimeoutException})
         * after at most {@code timeout}; this one where a look-up cannot be bounded.
         */
        default Lookup within(Duration timeout) {
            return this;
        }
    }

    private PolicyOffsets() {
    }

    /** A consumer's own look-ups. */
    public static Lookup of(Consumer<?, ?> consumer) {
        return new Lookup() {
            @Override
            public Map<TopicPartition, Long> beginningOffsets(Collection<TopicPartition> partitions) {
                return consumer.beginningOffsets(partitions);
            }

            @Override
            public Map<TopicPartition, Long> endOffsets(Collection<TopicPartition> partitions) {
                return consumer.endOffsets(partitions);
            }

            @Override
            public Map<TopicPartition, OffsetAndTimestamp> offsetsForTimes(Map<TopicPartition, Long> times) {
                return consumer.offsetsForTimes(times);
            }

            @Override
            public Lookup within(Duration timeout) {
                return of(consumer, timeout);
            }
        };
    }

    /** A consumer's own look-ups, each bounded by {@code timeout}. */
    private static Lookup of(Consumer<?, ?> consumer, Duration timeout) {
        return new Lookup() {
            @Override
            public Map<TopicPartition, Long> beginningOffsets(Collection<TopicPartition> partitions) {
                return consumer.beginningOffsets(partitions, timeout);
            }

            @Override
            public Map<TopicPartition, Long> endOffsets(Collection<TopicPartition> partitions) {
                return consumer.endOffsets(partitions, timeout);
            }

            @Override
            public Map<TopicPartition, OffsetAndTimestamp> offsetsForTimes(Map<TopicPartition, Long> times) {
                return consumer.offsetsForTimes(times, timeout);
            }
        };
    }

    /**
     * The offset each policy points at: the log start for {@code earliest}, the end for
     * {@code latest}, the first record at or after the target time for {@code by_duration} (the
     * end where no record is that recent). Partitions whose policy is {@code none} are left out.
     *
     * @param durationTarget the target timestamp of a {@code by_duration} partition
     */
    public static Map<TopicPartition, Long> resolve(Map<TopicPartition, ResetPolicy> policies,
                                                    ToLongFunction<TopicPartition> durationTarget, Lookup lookup) {
        List<TopicPartition> earliest = new ArrayList<>();
        List<TopicPartition> latest = new ArrayList<>();
        Map<TopicPartition, Long> byTime = new HashMap<>();
        policies.forEach((tp, p) -> {
            switch (p.kind()) {
                case EARLIEST -> earliest.add(tp);
                case LATEST -> latest.add(tp);
                case BY_DURATION -> byTime.put(tp, durationTarget.applyAsLong(tp));
                case NONE -> { }
            }
        });
        Map<TopicPartition, Long> offsets = new HashMap<>();
        if (!earliest.isEmpty()) {
            offsets.putAll(lookup.beginningOffsets(earliest));
        }
        if (!byTime.isEmpty()) {
            Map<TopicPartition, OffsetAndTimestamp> found = lookup.offsetsForTimes(byTime);
            byTime.keySet().forEach(tp -> {
                OffsetAndTimestamp o = found.get(tp);
                if (o == null) {
                    latest.add(tp);
                } else {
                    offsets.put(tp, o.offset());
                }
            });
        }
        if (!latest.isEmpty()) {
            offsets.putAll(lookup.endOffsets(latest));
        }
        return offsets;
    }

    /**
     * The first offset at or after each partition's target time; empty where no record is that
     * recent (the log end applies). Each partition is found independently: when the batched
     * look-up fails retriably (one leader unavailable), every partition is looked up alone and
     * those that still fail are left out, to be retried; the others are found.
     *
     * @throws RuntimeException a non-retriable failure of the look-up
     */
    public static Map<TopicPartition, OptionalLong> byDuration(Map<TopicPartition, Long> targets, Lookup lookup) {
        Map<TopicPartition, OptionalLong> out = new HashMap<>();
        if (targets.isEmpty()) {
            return out;
        }
        try {
            collect(lookup.offsetsForTimes(targets), targets.keySet(), out);
        } catch (RuntimeException batch) {
            if (!retriable(batch) || targets.size() == 1) {
                rethrowUnlessRetriable(batch);
                return out;
            }
            targets.forEach((tp, time) -> {
                try {
                    collect(lookup.offsetsForTimes(Map.of(tp, time)), List.of(tp), out);
                } catch (RuntimeException alone) {
                    rethrowUnlessRetriable(alone);
                }
            });
        }
        return out;
    }

    private static void collect(Map<TopicPartition, OffsetAndTimestamp> found, Collection<TopicPartition> asked,
                                Map<TopicPartition, OptionalLong> out) {
        asked.forEach(tp -> {
            OffsetAndTimestamp o = found.get(tp);
            out.put(tp, o == null ? OptionalLong.empty() : OptionalLong.of(o.offset()));
        });
    }

    private static void rethrowUnlessRetriable(RuntimeException e) {
        if (!retriable(e)) {
            throw e;
        }
    }

    /** Whether {@code ex} or one of its causes is one of Kafka's {@link RetriableException}s. */
    static boolean retriable(Throwable ex) {
        for (Throwable t = ex; t != null; t = t.getCause()) {
            if (t instanceof RetriableException) {
                return true;
            }
        }
        return false;
    }
}
