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
package io.gapless.kafka.core.spi;

import io.gapless.kafka.core.BaselineUnavailablePolicy;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;

import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * KIP-1327's emulation for one consumer whose delegate runs with {@code auto.offset.reset=none}:
 * the one object that owns the offset-reset handler, the group-baseline session, the baseline
 * worker thread and the retry loops of {@code poll} and {@code position}. {@code GaplessConsumer}
 * and the Kafka Streams main consumer both forward to it, so the wiring exists once.
 *
 * <p>Chosen once, at construction: {@link #emulate} where the SDK positions partitions itself,
 * {@link #off} where it does not (no new-partitions policy, or Kafka delivers it natively); the
 * off variant forwards every call to the delegate unchanged. Nothing asks again per call.
 *
 * <p>Why in {@code core.spi}: sdk-streams needs the same emulation as {@code GaplessConsumer}, and
 * reaches sdk-core only through its public API and this package (ARCHITECTURE.md). The handler,
 * the baseline and its store stay internal to sdk-core behind this interface. Used from the
 * polling thread only, except {@link #wakeup()}.
 *
 * @since 0.1.0
 */
public interface NewPartitionsEmulation extends AutoCloseable {
    /** The offset of a caller's seek whose target is not known here ({@code seekToBeginning}, {@code seekToEnd}). */
    long UNKNOWN_OFFSET = -1L;

    /**
     * No emulation: every call goes to the delegate unchanged; only the SDK's metrics (which say
     * {@code mode}) are kept.
     *
     * @param clientId the consumer's client id (the metrics' tag)
     * @param mode     how the client delivers {@code auto.offset.reset.new.partitions}: {@code OFF} or {@code NATIVE}
     * @return the pass-through variant
     */
    static NewPartitionsEmulation off(String clientId, ModeDecision.Kind mode) {
        return new NoEmulation(clientId, mode);
    }

    /**
     * The emulation: partitions the delegate reports without a valid offset are positioned by the
     * SDK's policies; with {@link Settings#baseline()} present, classification against the group
     * baseline runs on a worker thread of its own.
     *
     * @param settings what to emulate and for whom
     * @return the emulating variant
     */
    static NewPartitionsEmulation emulate(Settings settings) {
        return new EmulatedNewPartitions(settings);
    }

    /**
     * {@code delegate.poll(timeout)}, positioning the partitions it reports without a valid offset;
     * what is not positioned within {@code timeout} stays unpositioned and a later poll goes on
     * with it, as Kafka's own reset does.
     *
     * @param <K>      key type
     * @param <V>      value type
     * @param delegate the Kafka consumer underneath
     * @param timeout  the caller's poll timeout
     * @return the delegate's records (empty while partitions are still being positioned)
     */
    <K, V> ConsumerRecords<K, V> poll(Consumer<K, V> delegate, Duration timeout);

    /**
     * {@code delegate.position(partition, timeout)}, positioning the partition first when it has no valid offset.
     *
     * @param delegate  the Kafka consumer underneath
     * @param partition the partition asked for
     * @param timeout   the bound of the whole call
     * @return the partition's position
     * @throws TimeoutException when the partition is not positioned within {@code timeout}
     */
    long position(Consumer<?, ?> delegate, TopicPartition partition, Duration timeout);

    /**
     * Positions {@code partitions} afresh by the SDK's decision, as partitions without a committed
     * offset (Kafka Streams' own resets of a revived task), waiting at most {@code timeout}.
     *
     * @param delegate   the Kafka consumer underneath
     * @param partitions partitions whose topics have SDK policies
     * @param timeout    the bound of the wait
     * @return whether every one of them is positioned now
     */
    boolean positionAfresh(Consumer<?, ?> delegate, Collection<TopicPartition> partitions, Duration timeout);

    /**
     * The caller positioned {@code partitions} itself ({@code seek}: the offset; {@code seekToBeginning},
     * {@code seekToEnd}: {@link #UNKNOWN_OFFSET}): a stale report must not move them.
     *
     * @param partitions the partitions seeked
     * @param offset     the explicit target, or {@link #UNKNOWN_OFFSET}
     */
    void seeked(Collection<TopicPartition> partitions, long offset);

    /** The caller committed synchronously: the baseline records once that this incarnation of the group has progress. */
    void committed();

    /** Ends a wait for the SDK's own work early (the consumer's {@code wakeup()}). Thread-safe. */
    void wakeup();

    /** A new subscription (or Streams' new assignment): everything is forgotten, and the baseline is warmed up while the consumer joins. */
    void newSession();

    /**
     * A new manual assignment: {@link #newSession()}, and the assigned topics are recorded in the
     * baseline at the next {@code poll} or {@code position}.
     *
     * @param partitions the assignment
     */
    void assigned(Collection<TopicPartition> partitions);

    /**
     * Records the topics of {@code partitions} that have a new-partitions policy in the group
     * baseline, on the worker: the polling thread does not wait for it.
     *
     * @param partitions partitions assigned now
     */
    void register(Collection<TopicPartition> partitions);

    /**
     * The listener to hand to Kafka: {@code user} itself when off; otherwise a wrapper (which
     * passes every callback on to {@code user}) that registers assigned topics and forgets
     * revoked or lost partitions.
     *
     * @param delegate the Kafka consumer underneath: an eager emulation starts early resolutions on it at
     *                 assignment (may be {@code null} for one that is not eager)
     * @param user     the caller's listener, or {@code null}
     * @return the listener to subscribe with ({@code null} only when off and {@code user} is)
     */
    ConsumerRebalanceListener listenerFor(Consumer<?, ?> delegate, ConsumerRebalanceListener user);

    /**
     * Partitions left the assignment: when assigned again they are resolved afresh.
     *
     * @param partitions the partitions gone
     */
    void forget(Collection<TopicPartition> partitions);

    /** Forgets every resolution (unsubscribe), without starting a new session. */
    void forgetAll();

    /**
     * The SDK's metrics of this consumer.
     *
     * @return the reset metrics, by name
     */
    Map<MetricName, ? extends Metric> metrics();

    /** {@link #close(Duration)} within 30 seconds. */
    @Override
    default void close() {
        close(Duration.ofSeconds(30));
    }

    /**
     * Stops the worker and closes the baseline's clients within {@code timeout}; unregisters the metrics.
     *
     * @param timeout the bound of the whole close
     */
    void close(Duration timeout);

    /**
     * How the owner shows a failure of the SDK's positioning to its caller ({@code GaplessConsumer}:
     * as it is; Kafka Streams: as the exceptions Kafka Streams expects).
     */
    @FunctionalInterface
    interface Failures {
        /** Failures shown as they are; none is retried on the next poll. */
        Failures AS_IS = failure -> failure;

        /**
         * @param failure what the handler threw
         * @return what the owner's caller sees instead
         */
        RuntimeException translate(RuntimeException failure);

        /**
         * @param translated a failure as {@link #translate} showed it, thrown while {@code poll} positioned partitions
         * @return {@code true} when {@code poll} returns empty instead (the next poll retries), {@code false} to throw it
         */
        default boolean retryOnNextPoll(RuntimeException translated) {
            return false;
        }
    }

    /**
     * What to emulate, for whom.
     *
     * @param clientId          the consumer's client id (metrics, helper clients, the worker thread's name)
     * @param mode              the client's path decision, as its metrics report it
     * @param group             the consumer group (the Streams application id)
     * @param policies          the base and new-partitions policies of each topic the SDK positions
     * @param baseline          the group's baseline topic where some topic needs classification (its
     *                          policies differ); empty: the delegate's own offset look-ups, on the calling thread
     * @param clientConfig      the consumer's settings (connection and security are used for the helper clients)
     * @param isolation         the consumer's isolation level (for the offset look-ups made for it)
     * @param baselineTimeout   the bound of one baseline call
     * @param unavailablePolicy what a partition does when the baseline cannot be reached
     * @param eager             {@code true}: the baseline's clients start at construction and partitions
     *                          assigned before the group recorded progress start resolving in the
     *                          rebalance callback (sdk-core/RATIONALE.md, "Round trips of the first poll")
     * @param failures          how failures are shown to the owner's caller
     */
    record Settings(String clientId, ModeDecision.Kind mode, String group, ResetPolicyLookup policies, Optional<BaselineTopic> baseline,
                    Map<String, Object> clientConfig, IsolationLevel isolation, Duration baselineTimeout,
                    BaselineUnavailablePolicy unavailablePolicy, boolean eager, Failures failures) {
        /** Checks that nothing is missing; copies the config. */
        public Settings {
            Objects.requireNonNull(clientId, "clientId");
            Objects.requireNonNull(mode, "mode");
            Objects.requireNonNull(group, "group");
            Objects.requireNonNull(policies, "policies");
            Objects.requireNonNull(baseline, "baseline");
            clientConfig = java.util.Collections.unmodifiableMap(new java.util.HashMap<>(clientConfig)); // values may be null
            Objects.requireNonNull(isolation, "isolation");
            Objects.requireNonNull(baselineTimeout, "baselineTimeout");
            Objects.requireNonNull(unavailablePolicy, "unavailablePolicy");
            Objects.requireNonNull(failures, "failures");
        }
    }
}
