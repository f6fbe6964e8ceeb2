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

import io.gapless.kafka.streams.internal.AutoOffsetResets;
import io.gapless.kafka.streams.internal.RecordedSources;
import io.gapless.kafka.streams.internal.SourcePolicies;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyConfig;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.TimestampExtractor;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;
import org.apache.kafka.streams.state.StoreBuilder;

import java.util.List;
import java.util.regex.Pattern;

/**
 * A {@link Topology} for the Processor API that records each source topic and the
 * {@link org.apache.kafka.streams.AutoOffsetReset} it was given, so that a {@link NewPartitionsReset} keeps its
 * new-partitions policy (Kafka Streams itself keeps only an internal copy without it). Use it
 * exactly like {@code Topology} and start it with {@link GaplessStreams#create(Topology, java.util.Properties)}:
 *
 * <pre>{@code
 * GaplessTopology topology = new GaplessTopology();
 * topology.addSource(NewPartitionsReset.latest().withNewPartitionsResetPolicy(org.apache.kafka.streams.AutoOffsetReset.earliest()),
 *         "orders-source", "orders");
 * }</pre>
 *
 * <p>Sources added without a policy follow the application's {@code auto.offset.reset} and
 * {@code auto.offset.reset.new.partitions}; the source of {@code addReadOnlyStateStore} is read from
 * the beginning, as Kafka's {@code Topology} does. Whatever was declared, every source is handed to
 * Kafka Streams as {@code org.apache.kafka.streams.AutoOffsetReset.earliest()}: that makes Streams run its main
 * consumer with {@code auto.offset.reset=none}, so that the SDK positions every source partition
 * itself, and makes Streams' own resets (task recovery) ask the SDK's main consumer. Run a
 * {@code GaplessTopology} with {@link GaplessStreams}: a plain {@code KafkaStreams} would read every
 * source from the beginning where it has no committed offset (it replays, it does not lose).
 *
 * <p>An invalid policy ({@code none} as new-partitions policy, a nested new-partitions policy, a
 * new-partitions policy on a global store) fails the {@code add...} call with a
 * {@link org.apache.kafka.common.config.ConfigException} naming the topic.
 *
 * @since 0.1.0
 */
@SuppressWarnings("deprecation")
public class GaplessTopology extends Topology {

    private static final org.apache.kafka.streams.AutoOffsetReset ALWAYS_EARLIEST =
            NewPartitionsReset.earliest().withNewPartitionsResetPolicy(org.apache.kafka.streams.AutoOffsetReset.earliest());

    private final SourcePolicies sources = new SourcePolicies();
    private int depth;

    /** Same as {@link Topology#Topology()}. */
    public GaplessTopology() {
        super();
        RecordedSources.register(this, sources);
    }

    /** Same as {@link Topology#Topology(TopologyConfig)}. */
    public GaplessTopology(TopologyConfig topologyConfigs) {
        super(topologyConfigs);
        RecordedSources.register(this, sources);
    }

    /** The recorded source topics and their policies (for {@link GaplessStreams} and {@link GaplessStreamsBuilder}). */
    SourcePolicies sourcePolicies() {
        return sources;
    }

    // ---- funnels: record once (outermost call), make the policy explicit, call Kafka's most general overload ----

    private <K, V> Topology names(org.apache.kafka.streams.AutoOffsetReset reset, String name, TimestampExtractor te,
                                  Deserializer<K> kd, Deserializer<V> vd, String... topics) {
        if (depth > 0) {
            return super.addSource(reset, name, te, kd, vd, topics);
        }
        sources.recordTopics(topics == null ? List.of() : List.of(topics), reset);
        depth++;
        try {
            return super.addSource(AutoOffsetResets.handedToStreams(), name, te, kd, vd, topics);
        } finally {
            depth--;
        }
    }

    private <K, V> Topology pattern(org.apache.kafka.streams.AutoOffsetReset reset, String name, TimestampExtractor te,
                                    Deserializer<K> kd, Deserializer<V> vd, Pattern pattern) {
        if (depth > 0) {
            return super.addSource(reset, name, te, kd, vd, pattern);
        }
        if (pattern != null) {
            sources.recordPattern(pattern, reset);
        }
        depth++;
        try {
            return super.addSource(AutoOffsetResets.handedToStreams(), name, te, kd, vd, pattern);
        } finally {
            depth--;
        }
    }

    private static org.apache.kafka.streams.AutoOffsetReset convert(Topology.AutoOffsetReset legacy) {
        if (legacy == null) {
            return null;
        }
        return legacy == Topology.AutoOffsetReset.EARLIEST ? org.apache.kafka.streams.AutoOffsetReset.earliest() : org.apache.kafka.streams.AutoOffsetReset.latest();
    }

    // ---- Topology's addSource overloads ----
    @Override
    public synchronized Topology addSource(String name, String... topics) {
        return names(null, name, null, null, null, topics);
    }

    @Deprecated
    @Override
    public synchronized Topology addSource(Topology.AutoOffsetReset offsetReset, String name, String... topics) {
        return names(convert(offsetReset), name, null, null, null, topics);
    }

    @Override
    public synchronized Topology addSource(org.apache.kafka.streams.AutoOffsetReset offsetReset, String name, String... topics) {
        return names(offsetReset, name, null, null, null, topics);
    }

    @Override
    public synchronized Topology addSource(TimestampExtractor timestampExtractor, String name, String... topics) {
        return names(null, name, timestampExtractor, null, null, topics);
    }

    @Deprecated
    @Override
    public synchronized Topology addSource(Topology.AutoOffsetReset offsetReset, TimestampExtractor timestampExtractor, String name, String... topics) {
        return names(convert(offsetReset), name, timestampExtractor, null, null, topics);
    }

    @Override
    public synchronized Topology addSource(org.apache.kafka.streams.AutoOffsetReset offsetReset, TimestampExtractor timestampExtractor, String name, String... topics) {
        return names(offsetReset, name, timestampExtractor, null, null, topics);
    }

    @Override
    public synchronized <K, V> Topology addSource(String name, Deserializer<K> keyDeserializer, Deserializer<V> valueDeserializer, String... topics) {
        return names(null, name, null, keyDeserializer, valueDeserializer, topics);
    }

    @Deprecated
    @Override
    public synchronized <K, V> Topology addSource(Topology.AutoOffsetReset offsetReset, String name, Deserializer<K> keyDeserializer, Deserializer<V> valueDeserializer, String... topics) {
        return names(convert(offsetReset), name, null, keyDeserializer, valueDeserializer, topics);
    }

    @Override
    public synchronized <K, V> Topology addSource(org.apache.kafka.streams.AutoOffsetReset offsetReset, String name, Deserializer<K> keyDeserializer, Deserializer<V> valueDeserializer, String... topics) {
        return names(offsetReset, name, null, keyDeserializer, valueDeserializer, topics);
    }

    @Deprecated
    @Override
    public synchronized <K, V> Topology addSource(Topology.AutoOffsetReset offsetReset, String name, TimestampExtractor timestampExtractor, Deserializer<K> keyDeserializer, Deserializer<V> valueDeserializer, String... topics) {
        return names(convert(offsetReset), name, timestampExtractor, keyDeserializer, valueDeserializer, topics);
    }

    @Override
    public synchronized <K, V> Topology addSource(org.apache.kafka.streams.AutoOffsetReset offsetReset, String name, TimestampExtractor timestampExtractor, Deserializer<K> keyDeserializer, Deserializer<V> valueDeserializer, String... topics) {
        return names(offsetReset, name, timestampExtractor, keyDeserializer, valueDeserializer, topics);
    }

    @Override
    public synchronized Topology addSource(String name, Pattern topicPattern) {
        return pattern(null, name, null, null, null, topicPattern);
    }

    @Deprecated
    @Override
    public synchronized Topology addSource(Topology.AutoOffsetReset offsetReset, String name, Pattern topicPattern) {
        return pattern(convert(offsetReset), name, null, null, null, topicPattern);
    }

    @Override
    public synchronized Topology addSource(org.apache.kafka.streams.AutoOffsetReset offsetReset, String name, Pattern topicPattern) {
        return pattern(offsetReset, name, null, null, null, topicPattern);
    }

    @Override
    public synchronized Topology addSource(TimestampExtractor timestampExtractor, String name, Pattern topicPattern) {
        return pattern(null, name, timestampExtractor, null, null, topicPattern);
    }

    @Deprecated
    @Override
    public synchronized Topology addSource(Topology.AutoOffsetReset offsetReset, TimestampExtractor timestampExtractor, String name, Pattern topicPattern) {
        return pattern(convert(offsetReset), name, timestampExtractor, null, null, topicPattern);
    }

    @Override
    public synchronized Topology addSource(org.apache.kafka.streams.AutoOffsetReset offsetReset, TimestampExtractor timestampExtractor, String name, Pattern topicPattern) {
        return pattern(offsetReset, name, timestampExtractor, null, null, topicPattern);
    }

    @Override
    public synchronized <K, V> Topology addSource(String name, Deserializer<K> keyDeserializer, Deserializer<V> valueDeserializer, Pattern topicPattern) {
        return pattern(null, name, null, keyDeserializer, valueDeserializer, topicPattern);
    }

    @Deprecated
    @Override
    public synchronized <K, V> Topology addSource(Topology.AutoOffsetReset offsetReset, String name, Deserializer<K> keyDeserializer, Deserializer<V> valueDeserializer, Pattern topicPattern) {
        return pattern(convert(offsetReset), name, null, keyDeserializer, valueDeserializer, topicPattern);
    }

    @Override
    public synchronized <K, V> Topology addSource(org.apache.kafka.streams.AutoOffsetReset offsetReset, String name, Deserializer<K> keyDeserializer, Deserializer<V> valueDeserializer, Pattern topicPattern) {
        return pattern(offsetReset, name, null, keyDeserializer, valueDeserializer, topicPattern);
    }

    @Deprecated
    @Override
    public synchronized <K, V> Topology addSource(Topology.AutoOffsetReset offsetReset, String name, TimestampExtractor timestampExtractor, Deserializer<K> keyDeserializer, Deserializer<V> valueDeserializer, Pattern topicPattern) {
        return pattern(convert(offsetReset), name, timestampExtractor, keyDeserializer, valueDeserializer, topicPattern);
    }

    @Override
    public synchronized <K, V> Topology addSource(org.apache.kafka.streams.AutoOffsetReset offsetReset, String name, TimestampExtractor timestampExtractor, Deserializer<K> keyDeserializer, Deserializer<V> valueDeserializer, Pattern topicPattern) {
        return pattern(offsetReset, name, timestampExtractor, keyDeserializer, valueDeserializer, topicPattern);
    }

    // ---- other sources ----

    @Override
    public synchronized <K, V, S extends StateStore> Topology addReadOnlyStateStore(StoreBuilder<S> storeBuilder, String sourceName,
            Deserializer<K> keyDeserializer, Deserializer<V> valueDeserializer, String topic, String processorName,
            ProcessorSupplier<K, V, Void, Void> stateUpdateSupplier) {
        return addReadOnlyStateStore(storeBuilder, sourceName, null, keyDeserializer, valueDeserializer, topic, processorName,
                stateUpdateSupplier);
    }

    @Override
    public synchronized <K, V, S extends StateStore> Topology addReadOnlyStateStore(StoreBuilder<S> storeBuilder, String sourceName,
            TimestampExtractor timestampExtractor, Deserializer<K> keyDeserializer, Deserializer<V> valueDeserializer, String topic,
            String processorName, ProcessorSupplier<K, V, Void, Void> stateUpdateSupplier) {
        if (depth == 0 && topic != null) {
            // Kafka's Topology reads a read-only store's source from the beginning whatever auto.offset.reset says.
            sources.recordTopics(List.of(topic), ALWAYS_EARLIEST);
        }
        depth++;
        try {
            return super.addReadOnlyStateStore(storeBuilder, sourceName, timestampExtractor, keyDeserializer, valueDeserializer,
                    topic, processorName, stateUpdateSupplier);
        } finally {
            depth--;
        }
    }

    @Override
    public synchronized <K, V, S extends StateStore> Topology addGlobalStore(StoreBuilder<S> storeBuilder, String sourceName,
            Deserializer<K> keyDeserializer, Deserializer<V> valueDeserializer, String topic, String processorName,
            ProcessorSupplier<K, V, Void, Void> stateUpdateSupplier) {
        if (topic != null) {
            sources.recordGlobal(topic, null);
        }
        return super.addGlobalStore(storeBuilder, sourceName, keyDeserializer, valueDeserializer, topic, processorName, stateUpdateSupplier);
    }

    @Override
    public synchronized <K, V, S extends StateStore> Topology addGlobalStore(StoreBuilder<S> storeBuilder, String sourceName,
            TimestampExtractor timestampExtractor, Deserializer<K> keyDeserializer, Deserializer<V> valueDeserializer, String topic,
            String processorName, ProcessorSupplier<K, V, Void, Void> stateUpdateSupplier) {
        if (topic != null) {
            sources.recordGlobal(topic, null);
        }
        return super.addGlobalStore(storeBuilder, sourceName, timestampExtractor, keyDeserializer, valueDeserializer, topic,
                processorName, stateUpdateSupplier);
    }
}
