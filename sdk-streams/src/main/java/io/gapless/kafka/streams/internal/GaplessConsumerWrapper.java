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

import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.SubscriptionPattern;
import org.apache.kafka.clients.consumer.internals.AsyncKafkaConsumer;
import org.apache.kafka.clients.consumer.internals.StreamsRebalanceData;
import org.apache.kafka.clients.consumer.internals.StreamsRebalanceListener;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.streams.internals.ConsumerWrapper;

import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The main-consumer hook under {@code group.protocol=streams}, where Kafka Streams 4.4 creates the
 * main consumer itself and ignores {@code KafkaClientSupplier.getConsumer}. Streams instantiates
 * this class from its internal config {@code __internal.consumer.wrapper__} (no-arg constructor,
 * installed by {@code StreamsProtocolHook}) and hands it
 * the consumer in {@link #wrapConsumer}; the plan travels in the main consumer's configuration
 * under {@value #PLAN_CONFIG}.
 *
 * <p>{@link ConsumerWrapper} is internal to Kafka Streams (not public API): it exists in 4.4 and
 * may change in any release. {@code GaplessStreams} checks for it before using it and fails with a
 * {@link ConfigException} that says so when it is missing.
 */
public final class GaplessConsumerWrapper extends ConsumerWrapper {
    /** Where the {@link ResetPlan} travels in the main consumer's configuration. */
    public static final String PLAN_CONFIG = "gapless.streams.reset.plan";

    private SourceResetEmulation emulation;
    // The same feature methods as under the classic protocol; this class only adds Streams' own subscribe.
    private GaplessMainConsumer main;
    private Optional<StreamsRebalanceData> rebalanceData = Optional.empty();

    /** Instantiated by Kafka Streams. */
    public GaplessConsumerWrapper() {
    }

    @Override
    public void wrapConsumer(AsyncKafkaConsumer<byte[], byte[]> delegate, Map<String, Object> config,
                             Optional<StreamsRebalanceData> streamsRebalanceData) {
        super.wrapConsumer(delegate, config, streamsRebalanceData);
        try {
            Object plan = config.get(PLAN_CONFIG);
            if (!(plan instanceof ResetPlan resetPlan)) {
                throw new ConfigException(PLAN_CONFIG, plan, "the Gapless main-consumer wrapper needs the plan GaplessStreams"
                        + " puts there; create the application with GaplessStreams.create instead of installing the wrapper yourself");
            }
            Object reset = config.get(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG);
            if (!"none".equals(String.valueOf(reset))) {
                throw new ConfigException(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, reset, "Kafka Streams created the main consumer"
                        + " with this reset policy instead of none, so it would reset source partitions itself and the SDK could"
                        + " not apply new-partitions policies; build the topology with GaplessStreamsBuilder or GaplessTopology");
            }
            this.rebalanceData = streamsRebalanceData == null ? Optional.empty() : streamsRebalanceData;
            this.emulation = new SourceResetEmulation(resetPlan, config);
            this.main = new GaplessMainConsumer(delegate, emulation);
        } catch (RuntimeException e) {
            delegate.close(CloseOptions.timeout(Duration.ZERO));
            throw e;
        }
    }

    @Override
    public ConsumerRecords<byte[], byte[]> poll(Duration timeout) {
        return main.poll(timeout);
    }

    @Override
    public long position(TopicPartition partition) {
        return main.position(partition);
    }

    @Override
    public long position(TopicPartition partition, Duration timeout) {
        return main.position(partition, timeout);
    }

    @Override
    public void seek(TopicPartition partition, long offset) {
        main.seek(partition, offset);
    }

    @Override
    public void seek(TopicPartition partition, OffsetAndMetadata offsetAndMetadata) {
        main.seek(partition, offsetAndMetadata);
    }

    @Override
    public void wakeup() {
        main.wakeup();
    }

    @Override
    public void seekToBeginning(Collection<TopicPartition> partitions) {
        main.seekToBeginning(partitions);
    }

    @Override
    public void seekToEnd(Collection<TopicPartition> partitions) {
        main.seekToEnd(partitions);
    }

    @Override
    public void subscribe(Collection<String> topics, StreamsRebalanceListener streamsRebalanceListener) {
        emulation.forgetAll();
        super.subscribe(topics, new Forgetting(streamsRebalanceListener));
    }

    @Override
    public void subscribe(Collection<String> topics) {
        main.subscribe(topics);
    }

    @Override
    public void subscribe(Collection<String> topics, ConsumerRebalanceListener callback) {
        main.subscribe(topics, callback);
    }

    @Override
    public void subscribe(Pattern pattern, ConsumerRebalanceListener callback) {
        main.subscribe(pattern, callback);
    }

    @Override
    public void subscribe(Pattern pattern) {
        main.subscribe(pattern);
    }

    @Override
    public void subscribe(SubscriptionPattern pattern, ConsumerRebalanceListener callback) {
        main.subscribe(pattern, callback);
    }

    @Override
    public void subscribe(SubscriptionPattern pattern) {
        main.subscribe(pattern);
    }

    @Override
    public void assign(Collection<TopicPartition> partitions) {
        main.assign(partitions);
    }

    @Override
    public void unsubscribe() {
        main.unsubscribe();
    }

    @Override
    public Map<MetricName, ? extends Metric> metrics() {
        return main.metrics();
    }

    @Override
    public void close() {
        main.close();
    }

    @Override
    @Deprecated
    @SuppressWarnings("deprecation")
    public void close(Duration timeout) {
        main.close(timeout);
    }

    @Override
    public void close(CloseOptions option) {
        main.close(option);
    }

    /** Forgets the source partitions of revoked or lost tasks, so that they are resolved afresh when assigned again. */
    private final class Forgetting implements StreamsRebalanceListener {
        private final StreamsRebalanceListener streams;

        Forgetting(StreamsRebalanceListener streams) {
            this.streams = streams;
        }

        @Override
        public void onTasksRevoked(Set<StreamsRebalanceData.TaskId> tasks) {
            Set<TopicPartition> partitions = partitionsOf(tasks);
            if (partitions.isEmpty() && !tasks.isEmpty()) {
                emulation.forgetAll(); // cannot map the tasks: forgetting too much only costs a repeated lookup
            } else {
                emulation.forget(partitions);
            }
            streams.onTasksRevoked(tasks);
        }

        @Override
        public void onTasksAssigned(StreamsRebalanceData.Assignment assignment) {
            streams.onTasksAssigned(assignment);
        }

        @Override
        public void onAllTasksLost() {
            emulation.forgetAll();
            streams.onAllTasksLost();
        }

        private Set<TopicPartition> partitionsOf(Set<StreamsRebalanceData.TaskId> tasks) {
            Set<TopicPartition> out = new HashSet<>();
            Map<String, StreamsRebalanceData.Subtopology> subtopologies = rebalanceData.map(StreamsRebalanceData::subtopologies).orElse(Map.of());
            for (StreamsRebalanceData.TaskId task : tasks) {
                StreamsRebalanceData.Subtopology s = subtopologies.get(task.subtopologyId());
                if (s == null) {
                    continue;
                }
                s.sourceTopics().forEach(t -> out.add(new TopicPartition(t, task.partitionId())));
                s.repartitionSourceTopics().keySet().forEach(t -> out.add(new TopicPartition(t, task.partitionId())));
            }
            return out;
        }
    }
}
