package io.gapless.kafka.core.internal;

import io.gapless.kafka.core.ResetPolicy;

import java.util.Objects;
import java.util.Optional;

/** The pair of policies that position one topic's partitions: the base policy and the optional new-partitions policy. */
public record TopicResetPolicies(ResetPolicy base, Optional<ResetPolicy> newPartitions) {
    public TopicResetPolicies {
        Objects.requireNonNull(base, "base");
        Objects.requireNonNull(newPartitions, "newPartitions");
    }
}
