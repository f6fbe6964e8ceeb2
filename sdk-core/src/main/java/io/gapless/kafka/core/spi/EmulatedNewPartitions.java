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

import io.gapless.kafka.core.internal.BaselineSession;
import io.gapless.kafka.core.internal.BaselineWorker;
import io.gapless.kafka.core.internal.OffsetResetHandler;
import io.gapless.kafka.core.internal.RegisteringRebalanceListener;
import io.gapless.kafka.core.internal.ResetMetrics;
import io.gapless.kafka.core.internal.baseline.BaselineStore;
import io.gapless.kafka.core.internal.baseline.GroupBaselineClassifier;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.InvalidOffsetException;
import org.apache.kafka.clients.consumer.NoOffsetForPartitionException;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.common.utils.Timer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * {@link NewPartitionsEmulation#emulate}: the offset-reset handler and, where some topic needs
 * classification, the group baseline (store, classifier, session) with its own worker thread.
 * The retry loops of {@code poll} and {@code position} live here, once for both clients.
 */
final class EmulatedNewPartitions implements NewPartitionsEmulation {
    private static final Logger log = LoggerFactory.getLogger(EmulatedNewPartitions.class);

    private final NewPartitionsEmulation.Settings settings;
    private final ResetMetrics metrics;
    private final Baseline baseline;
    private final OffsetResetHandler handler;
    private Set<String> pendingManualTopics = Set.of();

    EmulatedNewPartitions(NewPartitionsEmulation.Settings settings) {
        this.settings = settings;
        this.metrics = new ResetMetrics(settings.clientId(), settings.mode());
        if (settings.baseline().isPresent()) {
            BaselineStore store = new BaselineStore(settings.baseline().get(), settings.group(), BaselineStore.GroupType.CONSUMER,
                    ConnectionConfigs.from(settings.clientConfig(), "baseline"), settings.isolation(), settings.baselineTimeout(),
                    metrics::recordBaselineRead, metrics::recordBaselineWrite);
            GroupBaselineClassifier classifier = new GroupBaselineClassifier(store);
            BaselineWorker worker = new BaselineWorker("gapless-baseline-" + settings.clientId());
            this.handler = new OffsetResetHandler(settings.policies(), () -> classifier, store, worker, settings.unavailablePolicy(),
                    metrics, Time.SYSTEM);
            this.baseline = new GroupBaselineParts(classifier, worker,
                    new BaselineSession(classifier, worker, settings.clientId(), metrics::recordBaselineFailure));
            if (settings.eager()) {
                // The helper clients' set-up is not on the path from subscribe to the first positioned partition.
                worker.submitInterruptible(() -> {
                    try {
                        store.startClients();
                    } catch (RuntimeException e) {
                        log.debug("Starting the baseline clients of {} failed; the first real use reports it", settings.clientId(), e);
                    }
                    return null;
                });
            }
        } else {
            // Base and new-partitions policies agree everywhere: no baseline, the consumer's own look-ups.
            this.handler = new OffsetResetHandler(settings.policies(), () -> {
                throw new IllegalStateException("no topic of " + settings.group() + " needs classification");
            }, settings.unavailablePolicy(), metrics, Time.SYSTEM);
            this.baseline = NO_BASELINE;
        }
    }

    @Override
    public <K, V> ConsumerRecords<K, V> poll(Consumer<K, V> delegate, Duration timeout) {
        Timer timer = Time.SYSTEM.timer(timeout.toMillis());
        registerManualAssignment();
        baseline.maybeCheckProgress();
        applyCompleted(delegate);
        while (true) {
            try {
                ConsumerRecords<K, V> records = delegate.poll(Duration.ofMillis(timer.remainingMs()));
                handler.pollReturned();
                return records;
            } catch (InvalidOffsetException e) {
                timer.update();
                boolean again;
                try {
                    again = resolve(delegate, e, Duration.ofMillis(timer.remainingMs()));
                } catch (RuntimeException shown) {
                    if (!settings.failures().retryOnNextPoll(shown)) {
                        throw shown;
                    }
                    log.warn("Could not position {} of {} within the poll: {}; retrying on the next poll",
                            e.partitions(), settings.group(), shown.getMessage());
                    return ConsumerRecords.empty();
                }
                timer.update();
                if (!again || timer.isExpired()) {
                    return ConsumerRecords.empty();
                }
            }
        }
    }

    @Override
    public long position(Consumer<?, ?> delegate, TopicPartition partition, Duration timeout) {
        Timer timer = Time.SYSTEM.timer(timeout.toMillis());
        registerManualAssignment();
        applyCompleted(delegate);
        while (true) {
            try {
                return delegate.position(partition, Duration.ofMillis(timer.remainingMs()));
            } catch (InvalidOffsetException e) {
                timer.update();
                resolve(delegate, e, Duration.ofMillis(timer.remainingMs()));
                timer.update();
                if (timer.isExpired()) {
                    throw new TimeoutException("Timeout of " + timeout.toMillis() + "ms expired before the position for partition "
                            + partition + " could be determined");
                }
            }
        }
    }

    @Override
    public boolean positionAfresh(Consumer<?, ?> delegate, Collection<TopicPartition> partitions, Duration timeout) {
        handler.forget(partitions);
        resolve(delegate, new NoOffsetForPartitionException(partitions), timeout);
        // Per partition: another partition positioned in the same call says nothing about these.
        return handler.positioned(partitions);
    }

    /** The handler's decision for {@code e}'s partitions, its failures as the owner shows them. */
    private boolean resolve(Consumer<?, ?> delegate, InvalidOffsetException e, Duration timeout) {
        try {
            return handler.handle(delegate, e, timeout);
        } catch (RuntimeException failure) {
            throw settings.failures().translate(failure);
        }
    }

    private void applyCompleted(Consumer<?, ?> delegate) {
        try {
            handler.applyCompleted(delegate);
        } catch (RuntimeException failure) {
            throw settings.failures().translate(failure);
        }
    }

    @Override
    public void seeked(Collection<TopicPartition> partitions, long offset) {
        handler.positionedByCaller(partitions, offset);
    }

    @Override
    public void committed() {
        baseline.committed();
    }

    @Override
    public void wakeup() {
        handler.wakeup();
    }

    @Override
    public void newSession() {
        log.debug("New session");
        handler.forgetAll();
        baseline.newSession();
    }

    @Override
    public void assigned(Collection<TopicPartition> partitions) {
        newSession();
        pendingManualTopics = partitions.stream().map(TopicPartition::topic).collect(Collectors.toSet());
    }

    @Override
    public void register(Collection<TopicPartition> partitions) {
        if (partitions.isEmpty()) {
            return;
        }
        log.debug("Assigned {}", partitions);
        // Only topics whose partitions may need classification; repartition and other internal topics never.
        Set<String> topics = partitions.stream().map(TopicPartition::topic)
                .filter(t -> settings.policies().policiesFor(t).filter(p -> p.newPartitions().isPresent()).isPresent())
                .collect(Collectors.toSet());
        baseline.register(topics);
    }

    @Override
    public ConsumerRebalanceListener listenerFor(Consumer<?, ?> delegate, ConsumerRebalanceListener user) {
        return new RegisteringRebalanceListener(user, partitions -> onAssigned(delegate, partitions), handler::forget);
    }

    /** The rebalance callback: registration, and (eager) the resolution of partitions the group probably has no offsets for, start now. */
    private void onAssigned(Consumer<?, ?> delegate, Collection<TopicPartition> partitions) {
        register(partitions);
        if (settings.eager() && !baseline.progressRecorded()) {
            handler.assigned(delegate, partitions);
        }
    }

    private void registerManualAssignment() {
        if (!pendingManualTopics.isEmpty()) {
            Set<String> topics = pendingManualTopics;
            pendingManualTopics = Set.of();
            register(topics.stream().map(t -> new TopicPartition(t, 0)).toList());
        }
    }

    @Override
    public void forget(Collection<TopicPartition> partitions) {
        handler.forget(partitions);
    }

    @Override
    public void forgetAll() {
        handler.forgetAll();
        pendingManualTopics = Set.of();
    }

    @Override
    public Map<MetricName, ? extends Metric> metrics() {
        return metrics.metrics();
    }

    @Override
    public void close(Duration timeout) {
        try {
            baseline.close(timeout);
        } finally {
            metrics.close();
        }
    }

    /** The group baseline's part of the emulation, or none where no topic needs classification. */
    private interface Baseline {
        void newSession();

        void register(Set<String> topics);

        void committed();

        void maybeCheckProgress();

        boolean progressRecorded();

        void close(Duration timeout);
    }

    /** No topic needs classification: the baseline is never used. */
    private static final Baseline NO_BASELINE = new Baseline() {
        @Override
        public void newSession() {
        }

        @Override
        public void register(Set<String> topics) {
        }

        @Override
        public void committed() {
        }

        @Override
        public void maybeCheckProgress() {
        }

        @Override
        public boolean progressRecorded() {
            return false;
        }

        @Override
        public void close(Duration timeout) {
        }
    };

    /** The group's baseline: classifier (and its store), worker and session. */
    private record GroupBaselineParts(GroupBaselineClassifier classifier, BaselineWorker worker, BaselineSession session) implements Baseline {
        @Override
        public void newSession() {
            session.newSession();
        }

        @Override
        public void register(Set<String> topics) {
            if (!topics.isEmpty()) {
                session.register(topics);
            }
        }

        @Override
        public void committed() {
            session.committed();
        }

        @Override
        public void maybeCheckProgress() {
            session.maybeCheckProgress();
        }

        @Override
        public boolean progressRecorded() {
            return classifier.progressRecorded();
        }

        @Override
        public void close(Duration timeout) {
            Timer timer = Time.SYSTEM.timer(timeout.toMillis());
            worker.close(timeout);
            timer.update();
            classifier.close(Duration.ofMillis(timer.remainingMs()));
        }
    }
}
