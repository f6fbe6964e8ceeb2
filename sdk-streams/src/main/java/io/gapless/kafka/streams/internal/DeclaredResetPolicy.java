package io.gapless.kafka.streams.internal;

import org.apache.kafka.streams.AutoOffsetReset;

import java.util.Optional;

/**
 * What the SDK reads from a policy that keeps its declared base apart from what Kafka Streams sees
 * and may carry a new-partitions policy ({@code NewPartitionsReset}); lets this package read it
 * without depending on the public API package.
 */
public interface DeclaredResetPolicy {
    /** The declared base policy, as a plain {@code AutoOffsetReset}. */
    AutoOffsetReset basePolicy();

    /** The policy for newly expanded partitions, empty when none is attached. */
    Optional<AutoOffsetReset> newPartitionsResetPolicy();
}
