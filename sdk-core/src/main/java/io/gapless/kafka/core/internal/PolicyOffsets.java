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

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;

/** Turns reset policies into offsets, the way Kafka's consumer does: one batched look-up per kind. */
public final class PolicyOffsets {

    /** The three offset look-ups a policy needs (a consumer, or the SDK's own reader). */
    public interface Lookup {
        Map<TopicPartition, Long> beginningOffsets(Collection<TopicPartition> partitions);

        Map<TopicPartition, Long> endOffsets(Collection<TopicPartition> partitions);

        Map<TopicPartition, OffsetAndTimestamp> offsetsForTimes(Map<TopicPartition, Long> times);
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
}
