package io.gapless.kafka.core.internal;

import java.util.Optional;

/**
 * Which policies apply to a topic. Empty means the SDK does not own that topic's resets (Kafka
 * Streams' changelog and repartition topics): its {@code InvalidOffsetException} is passed on.
 */
@FunctionalInterface
public interface ResetPolicyLookup {
    Optional<TopicResetPolicies> policiesFor(String topic);
}
