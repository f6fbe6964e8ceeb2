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
package io.gapless.kafka.share.reset;

import io.gapless.kafka.core.GaplessConsumerConfig;
import io.gapless.kafka.core.NewPartitionsMode;
import io.gapless.kafka.core.ResetPolicy;
import io.gapless.kafka.core.spi.Authorization;
import io.gapless.kafka.core.spi.ConnectionConfigs;
import io.gapless.kafka.core.spi.KafkaBackoff;
import io.gapless.kafka.core.spi.ModeDecision;
import io.gapless.kafka.core.spi.ShareGroupBaseline;
import io.gapless.kafka.share.admin.ShareGroupSetting;
import io.gapless.kafka.share.admin.ShareGroupSettings;
import io.gapless.kafka.share.admin.UnsupportedShareGroupSettingException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.ShareConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

/**
 * KIP-1327's {@code share.auto.offset.reset.new.partitions} for one share consumer. Native where
 * the broker knows the group config (the SDK sets it and steps aside). Otherwise emulated:
 * <ol>
 *   <li>the group's {@code share.auto.offset.reset} is steered to {@code earliest}, so the broker
 *       never starts a partition later than any policy asks (older brokers apply it to added
 *       partitions too; 4.4 starts added partitions at 0 anyway);</li>
 *   <li>each partition's policy start offset is chosen once, by the new-partitions policy for
 *       partitions created after the group and by the base policy for the others, and recorded in
 *       the group baseline;</li>
 *   <li>while the group is empty, uninitialized partitions are initialized at those offsets
 *       ({@code alterShareGroupOffsets}), so nothing below them is even fetched;</li>
 *   <li>otherwise records below a partition's start offset are acknowledged without reaching the
 *       application, and counted.</li>
 * </ol>
 * The consumer calls {@link #subscribed}, {@link #beforePoll} and {@link #filter}; nothing else
 * of this package is visible to it.
 *
 * @since 0.1.0
 */
public final class ShareNewPartitionsReset implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ShareNewPartitionsReset.class);

    private final String group;
    private final String clientId;
    private final ResetPolicy base;
    private final ResetPolicy newPartitions;
    private final NewPartitionsMode mode;
    private boolean nativeMode;
    private final long checkIntervalMs;
    private final Admin admin;
    private final SharePartitionState state;
    private final ShareGroupSettings groupSettings;
    private final ShareResetMetrics metrics;
    private final ShareGroupBaseline baseline;
    private final ShareStartOffsets starts;
    private final ShareStartOffsetFilter filter;
    private Set<String> topics = Set.of();
    private boolean prepared;
    private long nextPrepareMs;
    private int prepareFailures;
    private long nextCheckMs;
    private int checkFailures;
    private final KafkaBackoff checkBackoff = new KafkaBackoff(1_000, 2, 30_000, 0.2);
    private final PollIntervalGap pollGap;
    private boolean groupSeen;
    private Runnable afterStartsChosen = () -> { };

    private ShareNewPartitionsReset(ShareResetOptions options, Map<String, Object> userConfig, String group, String clientId,
                                    boolean explicitAcks) {
        this.group = group;
        this.clientId = clientId;
        this.base = options.basePolicy();
        this.newPartitions = options.newPartitions();
        this.checkIntervalMs = options.checkIntervalMs();
        this.mode = options.mode();
        this.pollGap = PollIntervalGap.of(userConfig);
        this.admin = Admin.create(ConnectionConfigs.from(userConfig, "share-reset"));
        this.state = new SharePartitionState(admin, group, options.timeout());
        this.groupSettings = ShareGroupSettings.forGroup(admin, group).withTimeout(options.timeout());
        ModeDecision decision;
        try {
            decision = decide(options.mode(), groupSettings, newPartitions);
        } catch (RuntimeException e) {
            admin.close(Duration.ZERO);
            throw e;
        }
        this.nativeMode = decision.kind() == ModeDecision.Kind.NATIVE;
        this.metrics = new ShareResetMetrics(clientId, decision.kind());
        if (nativeMode) {
            this.baseline = null;
            this.starts = null;
            this.filter = null;
        } else {
            this.baseline = ShareGroupBaseline.open(options.baselineTopic(), group, userConfig, options.timeout());
            this.starts = new ShareStartOffsets(baseline, state, base, newPartitions, metrics);
            this.filter = new ShareStartOffsetFilter(starts, explicitAcks, metrics);
        }
        log.info("Share consumer {} in group {}: {}={} (base {}) delivered by {}", clientId, group,
                ShareGroupSetting.AUTO_OFFSET_RESET_NEW_PARTITIONS.key(), newPartitions, base,
                nativeMode ? "the broker (native)" : "emulation (" + decision.reason() + ")");
    }

    /**
     * The feature for a share consumer of {@code group}.
     *
     * @param userConfig   the consumer's Kafka settings; helper clients use its connection settings
     * @param explicitAcks whether the Kafka consumer underneath acknowledges explicitly
     * @throws ConfigException when {@code gapless.new.partitions.mode=native} and the broker lacks the group config
     */
    public static ShareNewPartitionsReset create(ShareResetOptions options, Map<String, Object> userConfig, String group,
                                                 String clientId, boolean explicitAcks) {
        return new ShareNewPartitionsReset(options, userConfig, group, clientId, explicitAcks);
    }

    /** The consumer subscribed to {@code topics}: they are prepared before the next poll. */
    public void subscribed(Collection<String> subscribed) {
        this.topics = Set.copyOf(subscribed);
        this.prepared = false;
        this.nextPrepareMs = 0;
    }

    /** Called before each delegate poll: steering on the first one, discovery of added partitions now and then. */
    public void beforePoll() {
        boolean mayHaveLeft = pollGap.pollStarting(System.currentTimeMillis());
        if (topics.isEmpty()) {
            return;
        }
        if (mayHaveLeft && prepared && !nativeMode) {
            // Out of the group, which may have been empty meanwhile (an operator's reset needs that): check as a starting member.
            log.info("Share group {}: no poll for at least max.poll.interval.ms ({} ms), so Kafka took this member out of the group and"
                    + " it joins again now: its start offsets are checked again before it does", group, pollGap.maxPollIntervalMs());
            prepared = false;
        }
        long now = System.currentTimeMillis();
        if (!prepared) {
            if (now >= nextPrepareMs) {
                tryPrepare();
            }
            return;
        }
        if (!nativeMode && now >= nextCheckMs) {
            try {
                starts.resolve(partitionsOf(topics));
                Set<TopicPartition> unreached = starts.unreached();
                if (!unreached.isEmpty()) {
                    // Once Kafka's start reached a recorded start, records below it can only come from a state moved back.
                    starts.kafkaStarts(state.initializedStartOffsets(unreached));
                }
                if (!groupSeen) {
                    noteGroupSeen(state.presence(clientId));
                }
                checkFailures = 0;
                nextCheckMs = now + checkIntervalMs;
            } catch (KafkaException e) {
                // Not fatal to polling: a partition met meanwhile is looked up by the filter, or delivered if that fails too.
                long delay = Math.max(checkIntervalMs, checkBackoff.backoff(checkFailures++));
                nextCheckMs = System.currentTimeMillis() + delay;
                metrics.recordLookupFailure();
                log.warn("Share group {}: could not check the partitions of {} ({}); checked again in {} ms", group, topics,
                        e.toString(), delay);
            }
        }
    }

    /**
     * Records below their partition's policy start offset are removed (and acknowledged); until the
     * member's preparation succeeded, every record is delivered undecided (nothing acknowledged unseen).
     */
    public <K, V> ConsumerRecords<K, V> filter(ConsumerRecords<K, V> records, ShareConsumer<K, V> delegate) {
        if (nativeMode) {
            return records;
        }
        return prepared ? filter.apply(records, delegate) : filter.deliverUndecided(records);
    }

    /**
     * Prepares the subscription. A cluster that cannot answer (the baseline's leader down, a
     * time-out) does not fail the poll: the member polls on, its records delivered undecided, and
     * the preparation is tried again after a backoff, so a member started while the baseline is
     * unavailable recovers once it is readable. A refused ACL or a contradicting configuration
     * needs the user, and an interrupt or a wake-up was asked for: those are thrown.
     */
    private void tryPrepare() {
        try {
            prepare();
            prepared = true;
            prepareFailures = 0;
            nextCheckMs = System.currentTimeMillis() + checkIntervalMs;
        } catch (AuthorizationException | ConfigException | InterruptException | WakeupException e) {
            throw e; // the user's to act on (an ACL, a setting) or asked for (an interrupt, a wake-up)
        } catch (KafkaException e) {
            if (Authorization.refusal(e) != null) {
                throw e; // a refused ACL wrapped by the baseline (BaselineUnavailableException): the user's to act on
            }
            long delay = checkBackoff.backoff(prepareFailures++);
            nextPrepareMs = System.currentTimeMillis() + delay;
            metrics.recordLookupFailure();
            log.warn("Share group {}: could not prepare the start offsets of {} ({}); its records are delivered undecided, never"
                    + " acknowledged unseen, and the preparation is tried again in {} ms", group, topics, e.toString(), delay);
        }
    }

    public Map<MetricName, ? extends Metric> metrics() {
        return metrics.metrics();
    }

    /**
     * How a share consumer of the group {@code settings} belongs to would deliver
     * {@code share.auto.offset.reset.new.partitions=newPartitions}: native where the broker knows
     * the group config (asked with a validate-only update, which changes nothing), otherwise by
     * {@code mode}. Used at construction and by tools that report it ({@code gapless probe}).
     *
     * @throws ConfigException when {@code mode} is {@code native} and the broker lacks the group config
     */
    public static ModeDecision decide(NewPartitionsMode mode, ShareGroupSettings settings, ResetPolicy newPartitions) {
        return decide(mode, () -> brokerKnowsGroupConfig(settings, newPartitions));
    }

    /**
     * The gate alone. The client plays no part (the SDK sets the group config with Admin, which
     * every supported kafka-clients has); {@code brokerKnowsGroupConfig} is asked only when
     * {@code mode} allows the native path.
     */
    static ModeDecision decide(NewPartitionsMode mode, BooleanSupplier brokerKnowsGroupConfig) {
        String key = ShareGroupSetting.AUTO_OFFSET_RESET_NEW_PARTITIONS.key();
        return ModeDecision.decide(mode, () -> brokerKnowsGroupConfig.getAsBoolean()
                        ? ModeDecision.Support.available("the broker knows the group config " + key)
                        : ModeDecision.Support.missing("the broker does not know the group config " + key),
                why -> new ConfigException(GaplessConsumerConfig.NEW_PARTITIONS_MODE_CONFIG, "native", why + " (KIP-1327); use auto or emulate"));
    }

    private static boolean brokerKnowsGroupConfig(ShareGroupSettings groupSettings, ResetPolicy newPartitions) {
        try {
            groupSettings.update().newPartitionsAutoOffsetReset(newPartitions).validate();
            return true;
        } catch (UnsupportedShareGroupSettingException e) {
            return false;
        }
    }

    private void prepare() {
        if (nativeMode) {
            groupSettings.update().autoOffsetReset(base).newPartitionsAutoOffsetReset(newPartitions).apply();
            return;
        }
        if (!steer()) {
            nativeMode = true;
            groupSettings.update().autoOffsetReset(base).newPartitionsAutoOffsetReset(newPartitions).apply();
            return;
        }
        SharePartitionState.Presence presence = state.presence(clientId);
        // Kafka does not know a new group until its first member joins (or its offsets are first set), although the first
        // member has started its baseline by then: only a group the baseline recorded as known to Kafka was deleted.
        if (!presence.exists() && baseline.groupSeenInKafka() && baseline.startNewIncarnation("share group " + group + " does not"
                + " exist in Kafka although it did: deleted, so a new group (KIP-1327)")) {
            starts.forgetAll();
            groupSeen = false;
            log.info("Share group {} does not exist in Kafka although its baseline recorded that it did: deleted and started again,"
                    + " so a new group; its baseline starts a new incarnation", group);
        }
        List<TopicPartition> all = partitionsOf(topics);
        Map<TopicPartition, Long> chosen = starts.resolve(all);
        afterStartsChosen.run();
        noteGroupSeen(presence);
        Map<TopicPartition, Long> initialized = state.initializedStartOffsets(all);
        Map<TopicPartition, ShareGroupBaseline.ProposedStart> resets = new HashMap<>();
        // An operator's reset needs an empty group, but a partition can be prepared after the group got members again (a
        // topic subscribed later, a member with a wider subscription started after another): no running member is then
        // skipping below its start, so the broker's start is as telling as in an empty group.
        Map<TopicPartition, Long> unread = new HashMap<>(chosen);
        unread.keySet().removeAll(presence.assigned());
        SharePartitionState.operatorResets(unread, initialized).forEach((tp, spso) -> {
            log.info("Share group {}: Kafka starts {} at {}, below the start {} the SDK recorded, while no member is assigned it"
                    + " (an operator's reset, or a skip left unfinished): Kafka's start wins", group, tp, spso, chosen.get(tp));
            resets.put(tp, new ShareGroupBaseline.ProposedStart(spso, "the group's start on the broker"));
        });
        starts.supersede(resets);
        Map<TopicPartition, Long> current = resets.isEmpty() ? chosen : starts.resolve(all);
        Map<TopicPartition, Long> toInitialize = new HashMap<>();
        current.forEach((tp, offset) -> {
            if (!initialized.containsKey(tp)) {
                toInitialize.put(tp, offset);
            }
        });
        starts.kafkaStarts(initialized);
        if (state.initializeWhileEmpty(toInitialize) && !toInitialize.isEmpty()) {
            // Setting a share group's offsets creates the group in Kafka (Kafka 4.2 and later, KAFKA-19662).
            noteGroupSeen(new SharePartitionState.Presence(true, 0, Set.of()));
        }
    }

    /**
     * Steers the group's {@code share.auto.offset.reset} to {@code earliest} by {@link SteeringRule};
     * returns false where the group is native and this member steps aside.
     *
     * @throws ConfigException when the group is native and this member is configured to emulate
     */
    private boolean steer() {
        SteeringRule.Decision decision;
        try {
            decision = SteeringRule.decide(mode, groupSettings.describe());
        } catch (AuthorizationException e) {
            throw e;
        } catch (KafkaException e) {
            decision = new SteeringRule.Decision(SteeringRule.Action.STEER, "the group's configs could not be described (" + e + ")");
        }
        switch (decision.action()) {
            case FAIL:
                throw new ConfigException(GaplessConsumerConfig.NEW_PARTITIONS_MODE_CONFIG, "emulate", "Share group " + group + ": "
                        + decision.reason());
            case STEP_ASIDE:
                log.warn("Share group {}: {}", group, decision.reason());
                return false;
            case STEER_CHANGED:
                log.warn("Share group {}: {}; steered to earliest again", group, decision.reason());
                break;
            default:
                log.debug("Share group {}: steering share.auto.offset.reset to earliest ({})", group, decision.reason());
        }
        try {
            // apply() returns once the broker describes the new value, so no partition initializes by the old one after this.
            groupSettings.update().autoOffsetReset(ResetPolicy.EARLIEST).apply();
        } catch (AuthorizationException e) {
            // Not a broker that lacks the feature: without the steering, a broker may start a partition past its policy (loss).
            throw e;
        } catch (KafkaException e) {
            log.warn("Share group {}: could not steer share.auto.offset.reset to earliest ({}); where the broker starts a partition"
                    + " later than its policy, the skipped range is only detected and counted", group, e.toString());
        }
        return true;
    }

    /** Kafka knows the group: the baseline records it once per incarnation, so that a later "not found" means deleted. */
    private void noteGroupSeen(SharePartitionState.Presence presence) {
        if (!groupSeen && presence.exists() && !topics.isEmpty()) {
            baseline.recordGroupSeenInKafka(topics);
            groupSeen = true;
        }
    }

    /** For tests: runs inside the preparation after the starts are chosen, before the broker's state is read (an interleaving point). */
    void afterStartsChosen(Runnable hook) {
        this.afterStartsChosen = hook;
    }

    /** For tests: the start this client holds for {@code tp}, or {@code null}. */
    Long knownStart(TopicPartition tp) {
        ShareStartOffsets.Start s = starts.cached(tp);
        return s == null ? null : s.offset();
    }

    private List<TopicPartition> partitionsOf(Set<String> names) {
        return baseline.partitionsOf(names);
    }

    @Override
    public void close() {
        if (baseline != null && !nativeMode && !groupSeen && prepared) {
            try {
                noteGroupSeen(state.presence(clientId)); // a member that stops before its first check still leaves the group recorded
            } catch (RuntimeException e) {
                log.debug("Share group {}: could not record that Kafka knows the group at close ({})", group, e.toString());
            }
        }
        if (baseline != null) {
            baseline.close();
        }
        metrics.close();
        admin.close(Duration.ofSeconds(5));
    }

    /** For logs and tests: the policies in force. */
    @Override
    public String toString() {
        return "ShareNewPartitionsReset{group=" + group + ", base=" + base + ", new=" + newPartitions + ", native=" + nativeMode
                + ", topics=" + topics.stream().sorted().collect(Collectors.joining(",")) + "}";
    }
}
