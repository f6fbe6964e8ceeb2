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

import io.gapless.kafka.core.spi.TopicResetPolicies;
import io.gapless.kafka.core.spi.ResetPolicyLookup;
import io.gapless.kafka.core.BaselineUnavailableException;
import io.gapless.kafka.core.BaselineUnavailablePolicy;
import io.gapless.kafka.core.PartitionClassification;
import io.gapless.kafka.core.PartitionClassifier;
import io.gapless.kafka.core.ResetPolicy;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.InvalidOffsetException;
import org.apache.kafka.clients.consumer.LogTruncationException;
import org.apache.kafka.clients.consumer.NoOffsetForPartitionException;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.common.utils.Timer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Positions partitions the delegate consumer (running with {@code auto.offset.reset=none}) could
 * not position. The rules, per partition:
 *
 * <table>
 * <caption>How each partition is positioned</caption>
 * <tr><th>the partition has</th><th>it is positioned by</th></tr>
 * <tr><td>a committed offset in range</td><td>the committed offset (Kafka's, unchanged; the SDK is not involved)</td></tr>
 * <tr><td>a committed offset out of range</td><td>{@code auto.offset.reset} ({@code none}: {@link OffsetOutOfRangeException}
 *     for exactly those partitions)</td></tr>
 * <tr><td>no committed offset, created after the group started</td><td>{@code auto.offset.reset.new.partitions}</td></tr>
 * <tr><td>no committed offset, existed when the group started</td><td>{@code auto.offset.reset} ({@code none}:
 *     {@link NoOffsetForPartitionException} for exactly those partitions)</td></tr>
 * <tr><td>a truncated log ({@link LogTruncationException}) with a known divergence point</td><td>the divergent offset,
 *     as Kafka does with a reset policy; with base {@code none} the exception reaches the caller unchanged</td></tr>
 * </table>
 *
 * <p>"Created after the group started" is the group baseline's rule (sdk-core/RATIONALE.md): the
 * partition was not in the snapshot of the cluster taken when the group (or its current
 * incarnation) started. Classification is asked only where the two policies differ; a topic that
 * cannot be described any more counts as new (deleted while assigned, or created since). Only
 * a Kafka group deleted or expired as a whole starts anew; offsets deleted for one topic do not
 * (KIP-1327's group creation time is write-once), so that topic's added partitions still take the
 * new-partitions policy, as on a broker with KIP-1327.
 *
 * <p>Every partition is resolved on its own. Classification and {@code by_duration} look-ups run
 * on an {@link Executor} (the consumer's baseline worker) and are applied by the polling thread;
 * {@code earliest} and {@code latest} are handed to the consumer's own reset
 * ({@code seekToBeginning}/{@code seekToEnd}), so Kafka looks the offset up for that partition
 * alone, with its own retries and back-off, and fetches the other partitions meanwhile, exactly as
 * with {@code auto.offset.reset}. A resolution that fails retriably is retried for that partition
 * after Kafka's back-off ({@link ResolutionRetries}); a caller's short timeout returns with the
 * partition still unresolved, and a later call applies the result.
 *
 * <p>Reports that no longer describe the partition are dropped: a missing offset for a partition
 * that was positioned since it was assigned (by the SDK or by the caller's seek; the consumer
 * protocol caches such errors), and out-of-range or truncation reports for another offset than
 * the explicit offset the caller just seeked to. After {@code seekToBeginning}/{@code seekToEnd}
 * every report is acted on: Kafka resolved that target itself. Every other report is acted on,
 * however often it repeats.
 */
public final class OffsetResetHandler {
    private static final Logger log = LoggerFactory.getLogger(OffsetResetHandler.class);
    /**
     * How long a report waits for the look-up ahead of a partition already decided: one round trip
     * answers it on a healthy cluster; a leaderless partition's would wait out the look-up time-out.
     */
    static final long LOOKUP_AHEAD_GRACE_MS = 500;
    /**
     * The bound of the look-up ahead itself. It runs on the consumer's one baseline worker, where
     * every later classification queues behind it (and the baseline's reader is one client): a
     * partition without a leader kept it for {@code gapless.baseline.timeout.ms}, and a partition
     * assigned meanwhile had no position, so the delegate fetched nothing at all (BusyWorkerIT).
     * A look-up that takes longer than the grace is not used anyway.
     */
    static final Duration LOOKUP_AHEAD_TIMEOUT = Duration.ofMillis(2 * LOOKUP_AHEAD_GRACE_MS);
    /** The offset of a caller's seek whose target is not known here ({@code seekToBeginning}, {@code seekToEnd}). */
    public static final long UNKNOWN_OFFSET = -1L;

    private final ResetPolicyLookup lookup;
    private final Supplier<? extends PartitionClassifier> classifier;
    private final Function<Consumer<?, ?>, ? extends PolicyOffsets.Lookup> offsets;
    private final Executor executor;
    private final BaselineUnavailablePolicy unavailablePolicy;
    private final ResetMetrics metrics;
    private final Time time;

    private final Set<TopicPartition> positioned = new HashSet<>();
    private final Map<TopicPartition, Long> callerSeeks = new HashMap<>();
    private final Set<TopicPartition> decidedNone = new HashSet<>();
    // by_duration targets are computed from the first report, so a retry cannot move the target forward (KIP-1327).
    private final Map<TopicPartition, Long> firstReportMs = new HashMap<>();
    private final Map<TopicPartition, Job> pending = new HashMap<>();
    // Resolutions started at assignment, before the consumer reported anything: used only once it reports no committed offset.
    private final Map<TopicPartition, Job> early = new HashMap<>();
    private final ResolutionRetries retries = new ResolutionRetries();
    private volatile CompletableFuture<Void> wakeup = new CompletableFuture<>();
    private long seeks;

    /**
     * Works on the calling thread, with the consumer's own offset look-ups: a look-up that times
     * out leaves the partition unpositioned for the next report to retry.
     */
    public OffsetResetHandler(ResetPolicyLookup lookup, Supplier<? extends PartitionClassifier> classifier,
                              BaselineUnavailablePolicy unavailablePolicy, ResetMetrics metrics, Time time) {
        this(lookup, classifier, PolicyOffsets::of, Runnable::run, unavailablePolicy, metrics, time);
    }

    /**
     * Classifies and looks offsets up on {@code executor} with {@code offsets} (thread-safe, for
     * example the group's {@code BaselineStore}); results are applied by the polling thread.
     */
    public OffsetResetHandler(ResetPolicyLookup lookup, Supplier<? extends PartitionClassifier> classifier,
                              PolicyOffsets.Lookup offsets, Executor executor, BaselineUnavailablePolicy unavailablePolicy,
                              ResetMetrics metrics, Time time) {
        this(lookup, classifier, c -> offsets, executor, unavailablePolicy, metrics, time);
    }

    private OffsetResetHandler(ResetPolicyLookup lookup, Supplier<? extends PartitionClassifier> classifier,
                               Function<Consumer<?, ?>, ? extends PolicyOffsets.Lookup> offsets, Executor executor,
                               BaselineUnavailablePolicy unavailablePolicy, ResetMetrics metrics, Time time) {
        this.lookup = lookup;
        this.classifier = classifier;
        this.offsets = offsets;
        this.executor = executor;
        this.unavailablePolicy = unavailablePolicy;
        this.metrics = metrics;
        this.time = time;
    }

    /** {@link #handle(Consumer, InvalidOffsetException, Duration)} without a bound on the wait. */
    public void handle(Consumer<?, ?> consumer, InvalidOffsetException e) {
        handle(consumer, e, Duration.ofMillis(Long.MAX_VALUE));
    }

    /**
     * Acts on the report {@code e} from {@code consumer}, waiting at most {@code timeout} for the
     * work it needs. Returns {@code true} when calling the consumer again at once makes progress:
     * this call positioned partitions, a partition's retry back-off ran out, or {@link #wakeup()}
     * ended the wait (the consumer then throws its {@code WakeupException}). {@code false} when
     * the partitions are still being resolved (poll again later: {@link #applyCompleted} seeks
     * them), or when the report was stale and nothing was done.
     *
     * @throws InvalidOffsetException       of the same kind, for the partitions that stay
     *                                      unpositioned: base policy {@code none}, or a topic the
     *                                      SDK does not own
     * @throws BaselineUnavailableException when classification is impossible and the user chose
     *                                      to fail; then none of those partitions was positioned
     */
    public boolean handle(Consumer<?, ?> consumer, InvalidOffsetException e, Duration timeout) {
        Timer timer = time.timer(timeout.toMillis());
        long seeksBefore = seeks;
        Set<TopicPartition> assigned = consumer.assignment();
        Map<TopicPartition, Request> requests = new LinkedHashMap<>();
        Set<TopicPartition> concerned = new HashSet<>();
        RuntimeException rethrow;
        if (e instanceof LogTruncationException lte) {
            rethrow = onTruncation(consumer, lte, assigned, requests, concerned);
        } else if (e instanceof OffsetOutOfRangeException oore) {
            rethrow = onOutOfRange(oore, assigned, requests, concerned);
        } else {
            rethrow = onNoOffset(e, assigned, requests, concerned);
        }
        log.debug("Report {} for {}: {} new request(s)", e.getClass().getSimpleName(), e.partitions(), requests.size());
        if (!requests.isEmpty()) {
            submit(consumer, requests);
        }
        boolean woken = await(concerned, timer);
        applyCompleted(consumer);
        if (rethrow != null) {
            throw rethrow;
        }
        // Woken: the caller's next call on the consumer throws Kafka's WakeupException (its flag is still set there).
        return woken || seeks > seeksBefore || waitOutBackoff(concerned, timer);
    }

    /**
     * Whether every one of {@code partitions} has been positioned since it was assigned (by the
     * SDK, handed to the consumer's own reset, or by the caller's seek).
     */
    public boolean positioned(Collection<TopicPartition> partitions) {
        return positioned.containsAll(partitions);
    }

    /**
     * Seeks the partitions whose resolution finished since the last call (polling thread).
     *
     * @throws BaselineUnavailableException   a resolution failed and the user chose to fail
     * @throws NoOffsetForPartitionException for partitions whose policy turned out {@code none}
     */
    public void applyCompleted(Consumer<?, ?> consumer) {
        if (pending.isEmpty()) {
            return;
        }
        Set<TopicPartition> assigned = consumer.assignment();
        Set<TopicPartition> none = new LinkedHashSet<>();
        RuntimeException failure = null;
        for (Job job : new LinkedHashSet<>(pending.values())) {
            if (!job.result.isDone()) {
                continue;
            }
            Outcome outcome = null;
            try {
                outcome = job.withLookedUpAhead(job.result.join());
            } catch (CompletionException | java.util.concurrent.CancellationException ex) {
                failure = failure != null ? failure : unwrap(ex);
            }
            for (TopicPartition tp : job.requests.keySet()) {
                if (pending.get(tp) != job) {
                    continue; // forgotten, or positioned by the caller, meanwhile
                }
                pending.remove(tp);
                if (outcome != null && assigned.contains(tp)) {
                    apply(consumer, tp, outcome, none);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
        if (!none.isEmpty()) {
            throw new NoOffsetForPartitionException(none);
        }
    }

    /**
     * Partitions just assigned (the rebalance callback, polling thread) that will probably have no
     * committed offset (the group has recorded no progress): their classification and offset
     * look-up start now, while the consumer fetches their committed offsets, instead of after it
     * reported none. The result is held back until that report: a partition the consumer positions
     * from a committed offset never uses it. See sdk-core/RATIONALE.md, "Round trips of the first poll".
     */
    public void assigned(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
        Map<TopicPartition, Request> requests = new LinkedHashMap<>();
        for (TopicPartition tp : partitions) {
            if (positioned.contains(tp) || pending.containsKey(tp) || early.containsKey(tp) || decidedNone.contains(tp)) {
                continue;
            }
            lookup.policiesFor(tp.topic()).ifPresent(p -> requests.put(tp, new Request(Kind.NO_OFFSET, p, "no committed offset")));
        }
        if (!requests.isEmpty()) {
            long now = time.milliseconds();
            Job job = start(consumer, requests, tp -> now, true);
            requests.keySet().forEach(tp -> early.put(tp, job));
        }
    }

    /** Whether some resolution has not been applied yet. */
    public boolean hasPending() {
        return !pending.isEmpty();
    }

    /**
     * The caller positioned these partitions itself ({@code seek}, {@code seekToBeginning},
     * {@code seekToEnd}; {@link #UNKNOWN_OFFSET} where the target is not known): the SDK must not
     * move them on a stale report. Only an explicit offset makes reports for other offsets stale:
     * after {@code seekToBeginning}/{@code seekToEnd} the consumer resolves the target itself and
     * reports only about it, so every later report is acted on.
     */
    public void positionedByCaller(Collection<TopicPartition> partitions, long offset) {
        for (TopicPartition tp : partitions) {
            positioned.add(tp);
            if (offset == UNKNOWN_OFFSET) {
                // seekToBeginning/seekToEnd: Kafka looks the target up itself; every later report describes it.
                callerSeeks.remove(tp);
            } else {
                callerSeeks.put(tp, offset);
            }
            retries.forget(tp);
            pending.remove(tp);
            early.remove(tp);
            decidedNone.remove(tp);
            firstReportMs.remove(tp);
        }
    }

    /** The delegate's poll returned normally: reports from now on describe positions after the caller's seeks. */
    public void pollReturned() {
        callerSeeks.clear();
    }

    /** Ends a wait in {@link #handle} early (the consumer's {@code wakeup()}). Thread-safe. */
    public void wakeup() {
        wakeup.complete(null);
    }

    /** Forgets partitions that left the assignment: when assigned again they are resolved afresh. */
    public void forget(Collection<TopicPartition> partitions) {
        partitions.forEach(tp -> {
            positioned.remove(tp);
            callerSeeks.remove(tp);
            decidedNone.remove(tp);
            firstReportMs.remove(tp);
            pending.remove(tp);
            early.remove(tp);
            retries.forget(tp);
        });
    }

    /** Forgets everything (unsubscribe, new manual assignment). */
    public void forgetAll() {
        positioned.clear();
        callerSeeks.clear();
        decidedNone.clear();
        firstReportMs.clear();
        pending.clear();
        early.clear();
        retries.clear();
    }

    private RuntimeException onNoOffset(InvalidOffsetException e, Set<TopicPartition> assigned, Map<TopicPartition, Request> requests,
                                        Set<TopicPartition> concerned) {
        Set<TopicPartition> rethrow = new LinkedHashSet<>();
        for (TopicPartition tp : e.partitions()) {
            if (!assigned.contains(tp) || positioned.contains(tp)) {
                continue; // revoked meanwhile, or positioned since: a stale (cached) report
            }
            Optional<TopicResetPolicies> policies = lookup.policiesFor(tp.topic());
            if (policies.isEmpty() || decidedNone.contains(tp)) {
                rethrow.add(tp);
                continue;
            }
            concerned.add(tp);
            Job started = early.remove(tp);
            if (!pending.containsKey(tp) && started != null) {
                pending.put(tp, started);
            } else if (!pending.containsKey(tp) && retries.due(tp, time.milliseconds())) {
                requests.put(tp, new Request(Kind.NO_OFFSET, policies.get(), "no committed offset"));
            }
        }
        return rethrow.isEmpty() ? null : new NoOffsetForPartitionException(rethrow);
    }

    private RuntimeException onOutOfRange(OffsetOutOfRangeException e, Set<TopicPartition> assigned,
                                          Map<TopicPartition, Request> requests, Set<TopicPartition> concerned) {
        Map<TopicPartition, Long> rethrow = new LinkedHashMap<>();
        e.offsetOutOfRangePartitions().forEach((tp, offset) -> {
            if (!assigned.contains(tp) || seekedElsewhere(tp, offset)) {
                return;
            }
            Optional<TopicResetPolicies> policies = lookup.policiesFor(tp.topic());
            if (policies.isEmpty() || policies.get().base().kind() == ResetPolicy.Kind.NONE) {
                rethrow.put(tp, offset);
                return;
            }
            concerned.add(tp);
            callerSeeks.remove(tp); // acted on: later reports describe where the SDK puts the partition
            if (!pending.containsKey(tp) && retries.due(tp, time.milliseconds())) {
                requests.put(tp, new Request(Kind.OUT_OF_RANGE, policies.get(), "committed or fetched offset " + offset + " is out of range"));
            }
        });
        return rethrow.isEmpty() ? null
                : new OffsetOutOfRangeException("Offsets out of range with no configured reset policy for partitions: " + rethrow, rethrow);
    }

    private RuntimeException onTruncation(Consumer<?, ?> consumer, LogTruncationException e, Set<TopicPartition> assigned,
                                          Map<TopicPartition, Request> requests, Set<TopicPartition> concerned) {
        Map<TopicPartition, Long> rethrowFetch = new LinkedHashMap<>();
        Map<TopicPartition, OffsetAndMetadata> rethrowDivergent = new LinkedHashMap<>();
        e.offsetOutOfRangePartitions().forEach((tp, fetchOffset) -> {
            if (!assigned.contains(tp) || seekedElsewhere(tp, fetchOffset)) {
                return;
            }
            OffsetAndMetadata divergent = e.divergentOffsets().get(tp);
            Optional<TopicResetPolicies> policies = lookup.policiesFor(tp.topic());
            if (policies.isEmpty() || policies.get().base().kind() == ResetPolicy.Kind.NONE) {
                rethrowFetch.put(tp, fetchOffset);
                if (divergent != null) {
                    rethrowDivergent.put(tp, divergent);
                }
                return;
            }
            if (divergent != null) {
                // What Kafka does with a reset policy: resume at the first offset known to diverge, nothing skipped or replayed.
                consumer.seek(tp, divergent);
                seeks++;
                callerSeeks.remove(tp);
                pending.remove(tp);
                positioned.add(tp);
                metrics.recordReset("divergent-offset", Kind.LOG_TRUNCATION.label);
                log.info("Reset {} to offset {} (leader epoch {}): log truncated below fetch offset {}, resuming at the divergence point",
                        tp, divergent.offset(), divergent.leaderEpoch().map(String::valueOf).orElse("unknown"), fetchOffset);
                return;
            }
            concerned.add(tp);
            callerSeeks.remove(tp);
            if (!pending.containsKey(tp) && retries.due(tp, time.milliseconds())) {
                requests.put(tp, new Request(Kind.LOG_TRUNCATION, policies.get(), "log truncated below fetch offset " + fetchOffset
                        + " and the divergence point is unknown"));
            }
        });
        return rethrowFetch.isEmpty() ? null
                : new LogTruncationException("Truncation detected for partitions " + rethrowFetch.keySet() + " (divergent offsets "
                + rethrowDivergent + ") and no reset policy is configured", rethrowFetch, rethrowDivergent);
    }

    private boolean seekedElsewhere(TopicPartition tp, long reportedOffset) {
        Long seek = callerSeeks.get(tp);
        return seek != null && seek != reportedOffset;
    }

    private void submit(Consumer<?, ?> consumer, Map<TopicPartition, Request> requests) {
        long now = time.milliseconds();
        Job job = start(consumer, requests, tp -> firstReportMs.computeIfAbsent(tp, k -> now), false);
        job.requests.keySet().forEach(tp -> pending.put(tp, job));
    }

    /**
     * Starts resolving {@code requests} on the executor; {@code reportTime} is the moment
     * {@code by_duration} counts back from. {@code prefetch}: started at the assignment, before
     * any report, so the {@code earliest}/{@code latest} offsets are looked up too while the
     * consumer fetches its committed offsets (the first poll of a new group saves that round trip);
     * where that look-up fails the partition goes to Kafka's own reset as usual.
     */
    private Job start(Consumer<?, ?> consumer, Map<TopicPartition, Request> requests, Function<TopicPartition, Long> reportTime,
                      boolean prefetch) {
        Map<TopicPartition, Long> reportTimes = new HashMap<>();
        requests.keySet().forEach(tp -> reportTimes.put(tp, reportTime.apply(tp)));
        PolicyOffsets.Lookup lookups = offsets.apply(consumer);
        Map<TopicPartition, Request> work = Map.copyOf(requests);
        CompletableFuture<Outcome> result = CompletableFuture.supplyAsync(() -> resolve(work, reportTimes, lookups), executor);
        // The look-up ahead runs after the decisions and never holds them back: a partition without a leader makes it
        // wait gapless.baseline.timeout.ms, and the whole assignment then had no position (LeaderlessPartitionStartIT).
        return new Job(work, result, prefetch ? result.thenApplyAsync(o -> prefetched(o.decisions(), lookups.within(LOOKUP_AHEAD_TIMEOUT)), executor) : null);
    }

    /** Waits for the resolutions of {@code partitions}; returns whether {@link #wakeup()} ended the wait. */
    private boolean await(Set<TopicPartition> partitions, Timer timer) {
        List<CompletableFuture<Outcome>> waits = new ArrayList<>();
        partitions.forEach(tp -> {
            Job j = pending.get(tp);
            if (j != null && !j.result.isDone()) {
                waits.add(j.result);
            }
        });
        if (waits.isEmpty() || timer.isExpired()) {
            return false;
        }
        if (waitFor(CompletableFuture.allOf(waits.toArray(CompletableFuture[]::new)), timer.remainingMs())) {
            return true;
        }
        // The look-ups ahead (a round trip, usually answered by now) get a short grace; a stuck one is left to Kafka's reset.
        List<CompletableFuture<?>> ahead = new ArrayList<>();
        partitions.forEach(tp -> {
            Job j = pending.get(tp);
            if (j != null && j.result.isDone() && j.lookedUpAhead != null && !j.lookedUpAhead.isDone()) {
                ahead.add(j.lookedUpAhead);
            }
        });
        timer.update();
        return !ahead.isEmpty() && !timer.isExpired()
                && waitFor(CompletableFuture.allOf(ahead.toArray(CompletableFuture[]::new)), Math.min(LOOKUP_AHEAD_GRACE_MS, timer.remainingMs()));
    }

    /**
     * Partitions of a report that wait out a retry back-off: the caller's call waits (as Kafka's
     * poll waits for its own reset's back-off) until the first of them is due, or its timeout.
     * Returns whether one is due now, so that the caller reports again at once.
     */
    private boolean waitOutBackoff(Set<TopicPartition> concerned, Timer timer) {
        timer.update();
        long now = time.milliseconds();
        long due = concerned.stream().filter(tp -> !pending.containsKey(tp)).mapToLong(retries::dueAtMs).filter(t -> t > now)
                .min().orElse(-1L);
        if (due < 0 || timer.isExpired()) {
            return false;
        }
        boolean woken = waitFor(new CompletableFuture<>(), Math.min(due - now, timer.remainingMs()));
        timer.update();
        long after = time.milliseconds();
        return woken || !timer.isExpired() && concerned.stream().anyMatch(tp -> retries.due(tp, after));
    }

    /** Waits up to {@code ms} for {@code done} or {@link #wakeup()}; returns whether the wake-up ended it. */
    private boolean waitFor(CompletableFuture<?> done, long ms) {
        try {
            CompletableFuture.anyOf(done, wakeup).get(ms, TimeUnit.MILLISECONDS);
        } catch (InterruptedException ie) {
            throw new InterruptException(ie);
        } catch (TimeoutException | ExecutionException ignored) {
            // not done in time: left pending; a failure surfaces from applyCompleted
        }
        boolean woken = wakeup.isDone();
        if (woken) {
            wakeup = new CompletableFuture<>();
        }
        return woken;
    }

    /** Runs on the executor: classification, then the look-ups the decisions need (by_duration). */
    private Outcome resolve(Map<TopicPartition, Request> requests, Map<TopicPartition, Long> reportTimes, PolicyOffsets.Lookup lookups) {
        Map<TopicPartition, PartitionClassification> classes;
        try {
            classes = classify(requests);
        } catch (RuntimeException ex) {
            if (!retriable(ex) || ex instanceof BaselineUnavailableException) {
                throw ex;
            }
            log.debug("Classifying {} failed ({}); retried on the next report", requests.keySet(), ex.toString());
            return new Outcome(Map.of(), Map.of());
        }
        log.debug("Classified {}", requests.keySet());
        Map<TopicPartition, Decision> decisions = new LinkedHashMap<>();
        requests.forEach((tp, r) -> {
            TopicResetPolicies p = r.policies();
            PartitionClassification c = classes.get(tp);
            if (r.kind() != Kind.NO_OFFSET) {
                decisions.put(tp, new Decision(p.base(), r.kind().label, r.why()));
            } else if (c == null) {
                decisions.put(tp, new Decision(p.base(), "no-offset", p.newPartitions().isPresent()
                        ? r.why() + "; base and new-partitions policies agree" : r.why()));
            } else if (c.isNew()) {
                decisions.put(tp, new Decision(p.newPartitions().orElseThrow(), "new", r.why() + "; new: " + c.reason()));
            } else {
                decisions.put(tp, new Decision(p.base(), "pre-existing", r.why() + "; pre-existing: " + c.reason()));
            }
        });
        // earliest and latest are handed to the consumer's own reset (see apply): only by_duration needs a look-up here.
        Map<TopicPartition, Long> targets = new HashMap<>();
        decisions.forEach((tp, d) -> {
            if (d.policy().kind() == ResetPolicy.Kind.BY_DURATION) {
                targets.put(tp, reportTimes.get(tp) - d.policy().duration().toMillis());
            }
        });
        return new Outcome(new HashMap<>(PolicyOffsets.byDuration(targets, lookups)), decisions);
    }

    /** The {@code earliest}/{@code latest} offsets of a resolution started at the assignment; none where the look-up fails. */
    private static Map<TopicPartition, OptionalLong> prefetched(Map<TopicPartition, Decision> decisions, PolicyOffsets.Lookup lookups) {
        Map<TopicPartition, ResetPolicy> policies = new HashMap<>();
        decisions.forEach((tp, d) -> {
            if (d.policy().kind() == ResetPolicy.Kind.EARLIEST || d.policy().kind() == ResetPolicy.Kind.LATEST) {
                policies.put(tp, d.policy());
            }
        });
        Map<TopicPartition, OptionalLong> out = new HashMap<>();
        if (policies.isEmpty()) {
            return out;
        }
        try {
            PolicyOffsets.resolve(policies, tp -> 0L, lookups).forEach((tp, o) -> out.put(tp, OptionalLong.of(o)));
        } catch (RuntimeException e) {
            log.debug("Looking up {} ahead of the report failed ({}); Kafka's own reset positions them", policies.keySet(), e.toString());
        }
        return out;
    }

    private Map<TopicPartition, PartitionClassification> classify(Map<TopicPartition, Request> requests) {
        List<TopicPartition> needed = new ArrayList<>();
        requests.forEach((tp, r) -> {
            TopicResetPolicies p = r.policies();
            // Classification only matters where the two policies differ.
            if (r.kind() == Kind.NO_OFFSET && p.newPartitions().isPresent() && !p.newPartitions().get().equals(p.base())) {
                needed.add(tp);
            }
        });
        Map<TopicPartition, PartitionClassification> out = new HashMap<>();
        if (needed.isEmpty()) {
            return out;
        }
        long start = time.milliseconds();
        try {
            out.putAll(classifyByTopic(needed));
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

    /**
     * Classifies {@code needed}; when a topic cannot be described (the classifier's
     * {@link UnknownTopicOrPartitionException}), topic by topic, so that one missing topic never
     * fails its neighbours. A topic not found counts as new for the group: it was deleted while
     * assigned (Kafka's own reset then waits for it until the partition is revoked) or created
     * after the metadata the group's start was observed from.
     */
    private Map<TopicPartition, PartitionClassification> classifyByTopic(List<TopicPartition> needed) {
        PartitionClassifier c = classifier.get();
        try {
            return c.classify(needed);
        } catch (UnknownTopicOrPartitionException someMissing) {
            Map<String, List<TopicPartition>> byTopic = new LinkedHashMap<>();
            needed.forEach(tp -> byTopic.computeIfAbsent(tp.topic(), t -> new ArrayList<>()).add(tp));
            Map<TopicPartition, PartitionClassification> out = new HashMap<>();
            byTopic.forEach((topic, partitions) -> {
                try {
                    out.putAll(c.classify(partitions));
                } catch (UnknownTopicOrPartitionException missing) {
                    partitions.forEach(tp -> out.put(tp, new PartitionClassification(tp, true, "topic " + topic
                            + " not found (deleted while assigned, or created since): not a topic the group started with")));
                }
            });
            return out;
        }
    }

    /**
     * Positions {@code tp} by its decision. {@code earliest} and {@code latest} go to the
     * consumer's own reset ({@code seekToBeginning}/{@code seekToEnd}): Kafka looks the offset up
     * for that partition alone, retries it with its own back-off while the leader is unavailable,
     * and fetches every other partition meanwhile, as it does with {@code auto.offset.reset}.
     */
    private void apply(Consumer<?, ?> consumer, TopicPartition tp, Outcome outcome, Set<TopicPartition> none) {
        Decision d = outcome.decisions().get(tp);
        OptionalLong found = outcome.offsets().get(tp);
        ResetPolicy.Kind kind = d == null ? null : d.policy().kind();
        if (found != null && found.isEmpty()) {
            kind = ResetPolicy.Kind.LATEST; // by_duration where no record is that recent: the end, as Kafka's own reset
        }
        if (found != null && found.isPresent()) {
            consumer.seek(tp, found.getAsLong());
            positionedBy(tp, d);
            log.info("Reset {} to offset {} by policy {} ({})", tp, found.getAsLong(), d.policy(), d.why());
        } else if (kind == ResetPolicy.Kind.EARLIEST || kind == ResetPolicy.Kind.LATEST) {
            if (kind == ResetPolicy.Kind.EARLIEST) {
                consumer.seekToBeginning(List.of(tp));
            } else {
                consumer.seekToEnd(List.of(tp));
            }
            positionedBy(tp, d);
            log.info("Reset {} to the {} by policy {} ({})", tp, kind == ResetPolicy.Kind.EARLIEST ? "log start" : "log end",
                    d.policy(), d.why());
        } else if (kind == ResetPolicy.Kind.NONE) {
            decidedNone.add(tp);
            none.add(tp);
            log.info("Not resetting {}: policy none ({})", tp, d.why());
        } else {
            // Classification or look-up failed (retriable): the partition waits out a back-off, alone.
            long wait = retries.failed(tp, time.milliseconds());
            log.debug("Resolving {} failed; retried in {} ms", tp, wait);
        }
    }

    private void positionedBy(TopicPartition tp, Decision d) {
        seeks++;
        positioned.add(tp);
        firstReportMs.remove(tp);
        retries.forget(tp);
        metrics.recordReset(d.policy().kind().name().toLowerCase(Locale.ROOT), d.classification());
    }

    private static boolean retriable(Throwable ex) {
        return PolicyOffsets.retriable(ex);
    }

    private static RuntimeException unwrap(Exception ex) {
        Throwable cause = ex instanceof CompletionException && ex.getCause() != null ? ex.getCause() : ex;
        return cause instanceof RuntimeException re ? re : new KafkaException(cause);
    }

    private enum Kind {
        NO_OFFSET("no-offset"), OUT_OF_RANGE("out-of-range"), LOG_TRUNCATION("log-truncation");

        private final String label;

        Kind(String label) {
            this.label = label;
        }
    }

    private record Request(Kind kind, TopicResetPolicies policies, String why) {
    }

    private record Decision(ResetPolicy policy, String classification, String why) {
    }

    private record Outcome(Map<TopicPartition, OptionalLong> offsets, Map<TopicPartition, Decision> decisions) {
    }

    private static final class Job {
        final Map<TopicPartition, Request> requests;
        final CompletableFuture<Outcome> result;
        /** The offsets looked up ahead of the report (a job started at the assignment), or {@code null}. */
        final CompletableFuture<Map<TopicPartition, OptionalLong>> lookedUpAhead;

        Job(Map<TopicPartition, Request> requests, CompletableFuture<Outcome> result,
            CompletableFuture<Map<TopicPartition, OptionalLong>> lookedUpAhead) {
            this.requests = requests;
            this.result = result;
            this.lookedUpAhead = lookedUpAhead;
        }

        /** The outcome with the offsets looked up ahead, where that look-up is done; otherwise Kafka's own reset positions them. */
        Outcome withLookedUpAhead(Outcome outcome) {
            if (lookedUpAhead == null || !lookedUpAhead.isDone() || lookedUpAhead.isCompletedExceptionally()) {
                return outcome;
            }
            Map<TopicPartition, OptionalLong> offsets = new HashMap<>(outcome.offsets());
            lookedUpAhead.join().forEach(offsets::putIfAbsent);
            return new Outcome(offsets, outcome.decisions());
        }
    }
}
