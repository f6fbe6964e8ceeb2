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
import org.apache.kafka.streams.AutoOffsetReset;

import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/**
 * Reads an {@link AutoOffsetReset} without reflection: the class exposes its policy only through
 * protected fields, which a subclass may read on its own instances, so the value is copied into
 * one through the protected copy constructor.
 */
public final class AutoOffsetResets extends AutoOffsetReset {

    private AutoOffsetResets(AutoOffsetReset source) {
        super(source);
    }

    /** The SDK's view of {@code reset}'s base policy (a new-partitions policy it carries is ignored). */
    public static ResetPolicy toResetPolicy(AutoOffsetReset reset) {
        // A NewPartitionsReset (DeclaredResetPolicy) shows Kafka Streams none while it carries a new-partitions policy; its base is kept apart.
        AutoOffsetResets copy = new AutoOffsetResets(reset instanceof DeclaredResetPolicy d ? d.basePolicy() : reset);
        String kind = String.valueOf(copy.offsetResetStrategy).toUpperCase(Locale.ROOT);
        return switch (kind) {
            case "EARLIEST" -> ResetPolicy.EARLIEST;
            case "LATEST" -> ResetPolicy.LATEST;
            case "NONE" -> ResetPolicy.NONE;
            case "BY_DURATION" -> ResetPolicy.byDuration(copy.duration.orElse(Duration.ZERO));
            default -> throw new IllegalArgumentException("Unknown Kafka Streams offset reset strategy " + kind);
        };
    }

    /** The new-partitions policy {@code reset} carries, if it is a {@code NewPartitionsReset} with one. */
    public static Optional<AutoOffsetReset> newPartitionsPolicyOf(AutoOffsetReset reset) {
        return reset instanceof DeclaredResetPolicy d ? d.newPartitionsResetPolicy() : Optional.empty();
    }

    /**
     * The policy the SDK's builders hand Kafka Streams for every source the SDK positions, whatever
     * the user declared. Never {@code none}: Kafka Streams' task recovery resets a revived task's
     * partitions by this policy without asking the main consumer, and {@code none} would kill the
     * stream thread there; {@code earliest} makes it call {@code seekToBeginning}, which the SDK's
     * main consumer answers with the SDK's own decision. (Any explicit policy also makes Kafka
     * Streams run the main consumer with {@code auto.offset.reset=none}.)
     */
    public static AutoOffsetReset handedToStreams() {
        return AutoOffsetReset.earliest();
    }

    /** {@code toString} for any {@code AutoOffsetReset} (Kafka's has none). */
    public static String describe(AutoOffsetReset reset) {
        return reset instanceof DeclaredResetPolicy ? reset.toString() : toResetPolicy(reset).toString();
    }
}
