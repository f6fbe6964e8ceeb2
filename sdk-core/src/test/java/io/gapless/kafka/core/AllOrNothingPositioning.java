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
package io.gapless.kafka.core;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;

/**
 * Test only: the positioning rule issue 23 (finding 1) removed, put back around an SDK consumer so
 * that the differential tester can be shown to fail. Before issue 23 the delegate ran with
 * {@code auto.offset.reset=none} and threw {@code NoOffsetForPartitionException} from every poll
 * before fetching while any assigned partition had no position, and the SDK returned nothing
 * meanwhile: one partition that could not be positioned (its only broker down) stalled every
 * partition of the member. Here: while an assigned, unpaused partition has no position, the other
 * partitions are paused for that poll, so only the positioning goes on.
 */
final class AllOrNothingPositioning<K, V> extends ForwardingConsumer<K, V> {
    private final Consumer<K, V> delegate;

    AllOrNothingPositioning(Consumer<K, V> delegate) {
        this.delegate = delegate;
    }

    @Override
    protected Consumer<K, V> delegate() {
        return delegate;
    }

    @Override
    public ConsumerRecords<K, V> poll(Duration timeout) {
        Set<TopicPartition> held = new HashSet<>(delegate.assignment());
        held.removeAll(delegate.paused());
        Set<TopicPartition> unpositioned = new HashSet<>();
        for (TopicPartition tp : held) {
            try {
                delegate.position(tp, Duration.ZERO);
            } catch (org.apache.kafka.common.errors.TimeoutException notYet) {
                unpositioned.add(tp);
            }
        }
        if (unpositioned.isEmpty()) {
            return delegate.poll(timeout);
        }
        held.removeAll(unpositioned);
        delegate.pause(held);
        try {
            return delegate.poll(timeout);
        } finally {
            Set<TopicPartition> still = new HashSet<>(held);
            still.retainAll(delegate.assignment());
            delegate.resume(still);
        }
    }
}
