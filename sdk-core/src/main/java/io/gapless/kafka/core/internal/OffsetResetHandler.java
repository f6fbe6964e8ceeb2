package io.gapless.kafka.core.internal;

import io.gapless.kafka.core.BaselineUnavailableException;
import io.gapless.kafka.core.BaselineUnavailablePolicy;
import io.gapless.kafka.core.PartitionClassification;
import io.gapless.kafka.core.PartitionClassifier;
import io.gapless.kafka.core.ResetPolicy;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.InvalidOffsetException;
import org.apache.kafka.clients.consumer.NoOffsetForPartitionException;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Positions partitions the delegate consumer (running with {@code auto.offset.reset=none}) could
 * not position, by DESIGN.md's decision table: a committed offset out of range takes the base
 * policy; no committed offset takes the new-partitions policy when the partition is new and the
 * base policy otherwise; {@code none} rethrows for exactly the partitions it covers.
 *
 * <p>Idempotent: the consumer protocol's consumer may report the same missing offset again after
 * the SDK positioned the partition, so a partition is resolved once per assignment.
 */
public final class OffsetResetHandler {
    private static final Logger log = LoggerFactory.getLogger(OffsetResetHandler.class);

    private final ResetPolicyLookup lookup;
    private final Supplier<? extends PartitionClassifier> classifier;
    private final BaselineUnavailablePolicy unavailablePolicy;
    private final ResetMetrics metrics;
    private final Time time;
    private final Set<TopicPartition> resolved = new HashSet<>();
    private final Map<TopicPartition, Long> resolvedOutOfRange = new HashMap<>();
    // by_duration targets survive retries, so a failed lookup cannot move the target forward (KIP-1327).
    private final Map<TopicPartition, Long> durationTargets = new HashMap<>();

    public OffsetResetHandler(ResetPolicyLookup lookup, Supplier<? extends PartitionClassifier> classifier,
                              BaselineUnavailablePolicy unavailablePolicy, ResetMetrics metrics, Time time) {
        this.lookup = lookup;
        this.classifier = classifier;
        this.unavailablePolicy = unavailablePolicy;
        this.metrics = metrics;
        this.time = time;
    }

    /**
     * Resolves the partitions of {@code e} on {@code consumer}. Returns normally when every
     * partition was positioned (or was already); throws an exception of the same kind for the
     * partitions that stay unpositioned (base policy {@code none}, or a topic the SDK does not own).
     *
     * @throws BaselineUnavailableException when classification is impossible and the user chose to fail;
     *                                      then no partition of {@code e} was positioned
     */
    public void handle(Consumer<?, ?> consumer, InvalidOffsetException e) {
        Set<TopicPartition> assigned = consumer.assignment();
        if (e instanceof OffsetOutOfRangeException oore) {
            handleOutOfRange(consumer, oore, assigned);
        } else {
            handleNoOffset(consumer, e, assigned);
        }
    }

    /** Forgets partitions that left the assignment: when assigned again they are resolved afresh. */
    public void forget(Collection<TopicPartition> partitions) {
        resolved.removeAll(partitions);
        partitions.forEach(resolvedOutOfRange::remove);
        partitions.forEach(durationTargets::remove);
    }

    /** Forgets everything (unsubscribe, new manual assignment). */
    public void forgetAll() {
        resolved.clear();
        resolvedOutOfRange.clear();
        durationTargets.clear();
    }

    private void handleOutOfRange(Consumer<?, ?> consumer, OffsetOutOfRangeException e, Set<TopicPartition> assigned) {
        Map<TopicPartition, Long> notOwned = new HashMap<>();
        Map<TopicPartition, Reset> resets = new LinkedHashMap<>();
        for (Map.Entry<TopicPartition, Long> entry : e.offsetOutOfRangePartitions().entrySet()) {
            TopicPartition tp = entry.getKey();
            if (!assigned.contains(tp) || entry.getValue().equals(resolvedOutOfRange.get(tp))) {
                continue; // revoked meanwhile, or a report the SDK already acted on
            }
            Optional<TopicResetPolicies> policies = lookup.policiesFor(tp.topic());
            if (policies.isEmpty()) {
                notOwned.put(tp, entry.getValue());
                continue;
            }
            resets.put(tp, new Reset(policies.get().base(), "out-of-range",
                    "committed or fetched offset " + entry.getValue() + " is out of range"));
        }
        Set<TopicPartition> unresolved = apply(consumer, resets);
        resets.keySet().stream().filter(tp -> !unresolved.contains(tp))
                .forEach(tp -> resolvedOutOfRange.put(tp, e.offsetOutOfRangePartitions().get(tp)));
        unresolved.forEach(tp -> notOwned.put(tp, e.offsetOutOfRangePartitions().get(tp)));
        if (!notOwned.isEmpty()) {
            throw new OffsetOutOfRangeException("Offsets out of range with no configured reset policy for partitions: " + notOwned, notOwned);
        }
    }

    private void handleNoOffset(Consumer<?, ?> consumer, InvalidOffsetException e, Set<TopicPartition> assigned) {
        Set<TopicPartition> rethrow = new HashSet<>();
        Map<TopicPartition, TopicResetPolicies> mine = new LinkedHashMap<>();
        for (TopicPartition tp : e.partitions()) {
            if (!assigned.contains(tp) || resolved.contains(tp)) {
                continue;
            }
            Optional<TopicResetPolicies> policies = lookup.policiesFor(tp.topic());
            if (policies.isEmpty()) {
                rethrow.add(tp);
            } else {
                mine.put(tp, policies.get());
            }
        }
        Map<TopicPartition, PartitionClassification> classes = classify(mine);
        Map<TopicPartition, Reset> resets = new LinkedHashMap<>();
        mine.forEach((tp, policies) -> {
            PartitionClassification c = classes.get(tp);
            if (c == null) {
                resets.put(tp, new Reset(policies.base(), "no-offset", policies.newPartitions().isPresent()
                        ? "no committed offset; base and new-partitions policies agree" : "no committed offset"));
            } else if (c.isNew()) {
                resets.put(tp, new Reset(policies.newPartitions().orElseThrow(), "new", "no committed offset; new: " + c.reason()));
            } else {
                resets.put(tp, new Reset(policies.base(), "pre-existing", "no committed offset; pre-existing: " + c.reason()));
            }
        });
        Set<TopicPartition> unresolved = apply(consumer, resets);
        resets.keySet().stream().filter(tp -> !unresolved.contains(tp)).forEach(resolved::add);
        rethrow.addAll(unresolved);
        if (!rethrow.isEmpty()) {
            throw new NoOffsetForPartitionException(rethrow);
        }
    }

    private Map<TopicPartition, PartitionClassification> classify(Map<TopicPartition, TopicResetPolicies> mine) {
        List<TopicPartition> needed = new ArrayList<>();
        mine.forEach((tp, p) -> {
            // Classification only matters where the two policies differ.
            if (p.newPartitions().isPresent() && !p.newPartitions().get().equals(p.base())) {
                needed.add(tp);
            }
        });
        Map<TopicPartition, PartitionClassification> out = new HashMap<>();
        if (needed.isEmpty()) {
            return out;
        }
        long start = time.milliseconds();
        try {
            out.putAll(classifier.get().classify(needed));
        } catch (BaselineUnavailableException ex) {
            if (unavailablePolicy == BaselineUnavailablePolicy.FAIL) {
                throw ex;
            }
            log.warn("Group baseline unavailable ({}); gapless.baseline.unavailable=base-policy: treating {} as pre-existing",
                    ex.getMessage(), needed);
            needed.forEach(tp -> out.put(tp, new PartitionClassification(tp, false, "baseline unavailable, base-policy chosen")));
        } finally {
            metrics.recordClassificationTime(time.milliseconds() - start);
        }
        return out;
    }

    /** Seeks every partition whose policy positions it; returns those whose policy is {@code none}. */
    private Set<TopicPartition> apply(Consumer<?, ?> consumer, Map<TopicPartition, Reset> resets) {
        Set<TopicPartition> none = new HashSet<>();
        Map<TopicPartition, ResetPolicy> policies = new HashMap<>();
        resets.forEach((tp, r) -> {
            if (r.policy.kind() == ResetPolicy.Kind.NONE) {
                none.add(tp);
            } else {
                policies.put(tp, r.policy);
            }
        });
        Map<TopicPartition, Long> targets = PolicyOffsets.resolve(policies, tp -> durationTargets.computeIfAbsent(tp,
                k -> time.milliseconds() - policies.get(k).duration().toMillis()), PolicyOffsets.of(consumer));
        targets.forEach((tp, offset) -> {
            Reset r = resets.get(tp);
            consumer.seek(tp, offset);
            durationTargets.remove(tp);
            metrics.recordReset(r.policy.kind().name().toLowerCase(java.util.Locale.ROOT), r.classification);
            log.info("Reset {} to offset {} by policy {} ({})", tp, offset, r.policy, r.why);
        });
        none.forEach(tp -> log.info("Not resetting {}: policy none ({})", tp, resets.get(tp).why));
        return none;
    }

    private record Reset(ResetPolicy policy, String classification, String why) {
    }
}
