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
package io.gapless.kafka.streams;

import io.gapless.kafka.streams.internal.ConsumedPolicy;
import io.gapless.kafka.streams.internal.MaterializedSerdes;
import io.gapless.kafka.streams.internal.RecordedSources;
import io.gapless.kafka.streams.internal.SourcePolicies;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.GlobalKTable;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;

import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A {@link StreamsBuilder} that records every source topic of the DSL ({@code stream},
 * {@code table}, {@code globalTable}, {@code addGlobalStore}) with the {@code AutoOffsetReset} its
 * {@link Consumed} carries, so that a {@link NewPartitionsReset}'s new-partitions policy reaches
 * {@link GaplessStreams}. Use it exactly like {@code StreamsBuilder}:
 *
 * <pre>{@code
 * GaplessStreamsBuilder builder = new GaplessStreamsBuilder();
 * builder.stream("orders", Consumed.with(Serdes.String(), Serdes.String())
 *         .withOffsetResetPolicy(NewPartitionsReset.latest().withNewPartitionsResetPolicy(AutoOffsetReset.earliest())))
 *     .mapValues(String::toUpperCase).to("orders-upper");
 * KafkaStreams streams = GaplessStreams.create(builder, props);
 * }</pre>
 *
 * <p>The recorded policies stay linked to the {@link Topology} that {@code build()} returns, so
 * both {@code GaplessStreams.create(builder, props)} and {@code GaplessStreams.create(builder.build(), props)}
 * work. Every source is handed to Kafka Streams as {@code AutoOffsetReset.earliest()} while the SDK
 * keeps what was declared (see {@link GaplessTopology}); start the topology with {@link GaplessStreams}.
 * {@code TopologyTestDriver} runs it unchanged (it pipes records into the topology and never resets
 * offsets, so reset policies play no part there). An invalid policy fails the call that adds the source
 * with a {@link org.apache.kafka.common.config.ConfigException} naming the topic.
 *
 * @since 0.1.0
 */
public class GaplessStreamsBuilder extends StreamsBuilder {

    private final SourcePolicies sources = new SourcePolicies();

    /** Same as {@link StreamsBuilder#StreamsBuilder()}. */
    public GaplessStreamsBuilder() {
        super();
        RecordedSources.register(topology, sources);
    }

    /** Same as {@link StreamsBuilder#StreamsBuilder(TopologyConfig)}. */
    public GaplessStreamsBuilder(TopologyConfig topologyConfigs) {
        super(topologyConfigs);
        RecordedSources.register(topology, sources);
    }

    private SourcePolicies sources() {
        return sources;
    }

    // ---- KStream sources ----

    @Override
    public synchronized <K, V> KStream<K, V> stream(String topic) {
        return stream(List.of(Objects.requireNonNull(topic, "topic can't be null")), Consumed.with(null, null));
    }

    @Override
    public synchronized <K, V> KStream<K, V> stream(String topic, Consumed<K, V> consumed) {
        return stream(List.of(Objects.requireNonNull(topic, "topic can't be null")), consumed);
    }

    @Override
    public synchronized <K, V> KStream<K, V> stream(Collection<String> topics) {
        return stream(topics, Consumed.with(null, null));
    }

    @Override
    public synchronized <K, V> KStream<K, V> stream(Collection<String> topics, Consumed<K, V> consumed) {
        Objects.requireNonNull(topics, "topics can't be null");
        Objects.requireNonNull(consumed, "consumed can't be null");
        sources().recordTopics(topics, ConsumedPolicy.of(consumed));
        return super.stream(topics, ConsumedPolicy.forStreams(consumed));
    }

    @Override
    public synchronized <K, V> KStream<K, V> stream(Pattern topicPattern) {
        return stream(topicPattern, Consumed.with(null, null));
    }

    @Override
    public synchronized <K, V> KStream<K, V> stream(Pattern topicPattern, Consumed<K, V> consumed) {
        Objects.requireNonNull(topicPattern, "topicPattern can't be null");
        Objects.requireNonNull(consumed, "consumed can't be null");
        sources().recordPattern(topicPattern, ConsumedPolicy.of(consumed));
        return super.stream(topicPattern, ConsumedPolicy.forStreams(consumed));
    }

    // ---- KTable sources ----

    @Override
    public synchronized <K, V> KTable<K, V> table(String topic) {
        return table(topic, Consumed.with(null, null));
    }

    @Override
    public synchronized <K, V> KTable<K, V> table(String topic, Consumed<K, V> consumed) {
        Objects.requireNonNull(topic, "topic can't be null");
        Objects.requireNonNull(consumed, "consumed can't be null");
        sources().recordTopics(List.of(topic), ConsumedPolicy.of(consumed));
        return super.table(topic, ConsumedPolicy.forStreams(consumed));
    }

    @Override
    public synchronized <K, V> KTable<K, V> table(String topic, Materialized<K, V, KeyValueStore<Bytes, byte[]>> materialized) {
        Objects.requireNonNull(materialized, "materialized can't be null");
        return table(topic, MaterializedSerdes.consumedOf(materialized), materialized);
    }

    @Override
    public synchronized <K, V> KTable<K, V> table(String topic, Consumed<K, V> consumed,
                                                  Materialized<K, V, KeyValueStore<Bytes, byte[]>> materialized) {
        Objects.requireNonNull(topic, "topic can't be null");
        Objects.requireNonNull(consumed, "consumed can't be null");
        sources().recordTopics(List.of(topic), ConsumedPolicy.of(consumed));
        return super.table(topic, ConsumedPolicy.forStreams(consumed), materialized);
    }

    // ---- global stores: recorded so that a new-partitions policy on them is rejected ----

    @Override
    public synchronized <K, V> GlobalKTable<K, V> globalTable(String topic, Consumed<K, V> consumed) {
        sources().recordGlobal(topic, ConsumedPolicy.of(consumed));
        return super.globalTable(topic, consumed);
    }

    @Override
    public synchronized <K, V> GlobalKTable<K, V> globalTable(String topic) {
        sources().recordGlobal(topic, null);
        return super.globalTable(topic);
    }

    @Override
    public synchronized <K, V> GlobalKTable<K, V> globalTable(String topic, Consumed<K, V> consumed,
                                                              Materialized<K, V, KeyValueStore<Bytes, byte[]>> materialized) {
        sources().recordGlobal(topic, ConsumedPolicy.of(consumed));
        return super.globalTable(topic, consumed, materialized);
    }

    @Override
    public synchronized <K, V> GlobalKTable<K, V> globalTable(String topic, Materialized<K, V, KeyValueStore<Bytes, byte[]>> materialized) {
        sources().recordGlobal(topic, null);
        return super.globalTable(topic, materialized);
    }

    @Override
    public synchronized <KIn, VIn> StreamsBuilder addGlobalStore(StoreBuilder<?> storeBuilder, String topic, Consumed<KIn, VIn> consumed,
                                                                 ProcessorSupplier<KIn, VIn, Void, Void> stateUpdateSupplier) {
        sources().recordGlobal(topic, ConsumedPolicy.of(consumed));
        super.addGlobalStore(storeBuilder, topic, consumed, stateUpdateSupplier);
        return this;
    }

}
