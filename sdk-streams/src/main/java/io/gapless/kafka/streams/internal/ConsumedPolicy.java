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

import org.apache.kafka.streams.AutoOffsetReset;
import org.apache.kafka.streams.kstream.Consumed;

/**
 * Reads the {@link AutoOffsetReset} a {@link Consumed} carries, through Consumed's protected copy
 * constructor and field: no reflection, and the user's object itself (a
 * {@code NewPartitionsReset} with its new-partitions policy), not Kafka's internal copy.
 */
public final class ConsumedPolicy<K, V> extends Consumed<K, V> {

    private ConsumedPolicy(Consumed<K, V> consumed) {
        super(consumed);
    }

    /** The policy {@code consumed} carries; null when it has none or {@code consumed} is null. */
    public static AutoOffsetReset of(Consumed<?, ?> consumed) {
        return consumed == null ? null : read(consumed);
    }

    private static <K, V> AutoOffsetReset read(Consumed<K, V> consumed) {
        return new ConsumedPolicy<>(consumed).resetPolicy;
    }

    /**
     * A copy of {@code consumed} that carries {@link AutoOffsetResets#handedToStreams()} instead of
     * the user's policy (which the SDK recorded); the user's object is not changed.
     */
    public static <K, V> Consumed<K, V> forStreams(Consumed<K, V> consumed) {
        ConsumedPolicy<K, V> copy = new ConsumedPolicy<>(consumed);
        copy.resetPolicy = AutoOffsetResets.handedToStreams();
        return copy;
    }
}
