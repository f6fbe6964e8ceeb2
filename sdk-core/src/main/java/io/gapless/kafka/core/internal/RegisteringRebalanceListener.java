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

import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.common.TopicPartition;

import java.util.Collection;
import java.util.function.Consumer;

/**
 * Wraps the user's rebalance listener (which sees every callback unchanged) to keep the SDK's
 * state in step with the assignment: the group baseline learns the assigned topics before any
 * partition is positioned, and revoked or lost partitions are forgotten.
 */
public final class RegisteringRebalanceListener implements ConsumerRebalanceListener {
    private final ConsumerRebalanceListener user;
    private final Consumer<Collection<TopicPartition>> onAssigned;
    private final Consumer<Collection<TopicPartition>> onGone;

    public RegisteringRebalanceListener(ConsumerRebalanceListener user, Consumer<Collection<TopicPartition>> onAssigned,
                                        Consumer<Collection<TopicPartition>> onGone) {
        this.user = user;
        this.onAssigned = onAssigned;
        this.onGone = onGone;
    }

    @Override
    public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
        RuntimeException failure = null;
        try {
            onAssigned.accept(partitions);
        } catch (RuntimeException e) {
            failure = e; // the user's callback still runs: its view of the assignment must not depend on ours
        }
        if (user != null) {
            user.onPartitionsAssigned(partitions);
        }
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
        onGone.accept(partitions);
        if (user != null) {
            user.onPartitionsRevoked(partitions);
        }
    }

    @Override
    public void onPartitionsLost(Collection<TopicPartition> partitions) {
        onGone.accept(partitions);
        if (user != null) {
            user.onPartitionsLost(partitions);
        }
    }
}
