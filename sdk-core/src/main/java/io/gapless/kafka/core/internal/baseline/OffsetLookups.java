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
package io.gapless.kafka.core.internal.baseline;

import io.gapless.kafka.core.internal.PolicyOffsets;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.TopicPartition;

import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Offset look-ups of user partitions for the policies (log start, log end, by time), with the
 * store's reader: on the baseline worker, so that the polling thread never waits for them.
 */
final class OffsetLookups implements PolicyOffsets.Lookup {
    private final BaselineClients clients;
    private final Duration timeout;

    OffsetLookups(BaselineClients clients) {
        this(clients, null);
    }

    /** @param timeout the bound of each look-up; {@code null}: the store's {@code gapless.baseline.timeout.ms} */
    private OffsetLookups(BaselineClients clients, Duration timeout) {
        this.clients = clients;
        this.timeout = timeout;
    }

    @Override
    public PolicyOffsets.Lookup within(Duration bound) {
        return new OffsetLookups(clients, bound);
    }

    private Duration timeout() {
        return timeout == null ? clients.timeout() : timeout;
    }

    /** Log start offsets, for policies that resolve to {@code earliest}. */
    @Override
    public Map<TopicPartition, Long> beginningOffsets(Collection<TopicPartition> partitions) {
        return clients.guarded("look up start offsets of " + partitions + " for",
                () -> BaselineClients.needs(describeTopicsOf(partitions), () -> clients.reader().beginningOffsets(partitions, timeout())));
    }

    /** Log end offsets (last stable offsets under {@code read_committed}), for policies that resolve to {@code latest}. */
    @Override
    public Map<TopicPartition, Long> endOffsets(Collection<TopicPartition> partitions) {
        return clients.guarded("look up end offsets of " + partitions + " for",
                () -> BaselineClients.needs(describeTopicsOf(partitions), () -> clients.reader().endOffsets(partitions, timeout())));
    }

    /** The first offset at or after {@code timeMs} per partition; absent where no record is that recent. */
    @Override
    public Map<TopicPartition, OffsetAndTimestamp> offsetsForTimes(Map<TopicPartition, Long> times) {
        return clients.guarded("look up offsets by time of " + times.keySet() + " for",
                () -> BaselineClients.needs(describeTopicsOf(times.keySet()), () -> clients.reader().offsetsForTimes(times, timeout())));
    }

    private static String describeTopicsOf(Collection<TopicPartition> partitions) {
        return "Describe on topics " + partitions.stream().map(TopicPartition::topic).collect(Collectors.toCollection(TreeSet::new));
    }
}
