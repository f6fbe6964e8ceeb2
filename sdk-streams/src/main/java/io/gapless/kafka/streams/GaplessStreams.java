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

import io.gapless.kafka.core.BrokerCapabilities;
import io.gapless.kafka.core.GaplessConsumerConfig;
import io.gapless.kafka.core.NewPartitionsMode;
import io.gapless.kafka.core.spi.BaselineTopic;
import io.gapless.kafka.core.spi.ClientCompatibility;
import io.gapless.kafka.core.spi.ConnectionConfigs;
import io.gapless.kafka.core.spi.ModeDecision;
import io.gapless.kafka.streams.internal.GaplessClientSupplier;
import io.gapless.kafka.streams.internal.RecordedSources;
import io.gapless.kafka.streams.internal.ResetPlan;
import io.gapless.kafka.streams.internal.SourcePolicies;
import io.gapless.kafka.streams.internal.StreamsProtocolHook;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.streams.KafkaClientSupplier;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.function.Supplier;

/**
 * Creates a {@link KafkaStreams} whose main consumer applies KIP-1327's new-partitions reset
 * policies to the application's source topics:
 *
 * <pre>{@code
 * props.put("auto.offset.reset", "latest");                   // base policy
 * props.put("auto.offset.reset.new.partitions", "earliest");  // for every source without its own
 * KafkaStreams streams = GaplessStreams.create(builder, props); // builder: a GaplessStreamsBuilder
 * streams.start();
 * }</pre>
 *
 * <p>For each source-topic partition without a committed offset, a partition that did not exist
 * when the application's group (its {@code application.id}) started using the SDK (a snapshot of
 * the cluster's topics taken then; a topic that existed then stays pre-existing when a topology
 * upgrade first reads it) follows the new-partitions policy;
 * other partitions, and committed offsets out of range, follow the base policy. A source's own
 * policy ({@link NewPartitionsReset}, or a plain {@code AutoOffsetReset}) wins over the
 * application-wide settings; a plain {@code AutoOffsetReset} takes the application-wide
 * new-partitions policy for its new partitions. Changelog, repartition and global-store topics are
 * never affected: Kafka Streams resets them as always. Partitions are classified by the SDK's
 * durable group baseline (topic {@code __gapless_baseline.<application.id>}, {@code gapless.baseline.unavailable},
 * {@code gapless.baseline.timeout.ms}, as for {@code GaplessConsumer}); every reset is logged at
 * INFO and counted in the main consumer's metrics ({@code gapless-consumer-metrics}), which
 * {@link KafkaStreams#metrics()} includes.
 *
 * <p>Both group protocols work. {@code group.protocol=classic}: the SDK's main consumer comes
 * from a {@link KafkaClientSupplier}. {@code group.protocol=streams}: Kafka Streams 4.4 bypasses
 * client suppliers for the main consumer; the SDK then uses Kafka Streams' internal main-consumer
 * wrapper hook ({@code __internal.consumer.wrapper__}, class {@code ConsumerWrapper}). That hook is
 * not public API; when the Kafka Streams on the classpath lacks it, {@code create} fails with a
 * {@link ConfigException} that says so (use {@code group.protocol=classic} then).
 *
 * <p>All checks run in {@code create}, before any stream thread exists: invalid settings or
 * policies throw {@link ConfigException} naming the key or topic.
 *
 * @since 0.1.0
 */
public final class GaplessStreams {
    private static final Logger log = LoggerFactory.getLogger(GaplessStreams.class);

    private GaplessStreams() {
    }

    /**
     * Builds {@code builder}'s topology with {@code props} (so that optimizations apply) and creates the application.
     *
     * @throws ConfigException if a setting or a source's policy is invalid, naming the topic or key (see
     *         {@link #create(Topology, Properties, KafkaClientSupplier)})
     * @throws io.gapless.kafka.core.UnsupportedClientVersionException if kafka-clients or kafka-streams is older than 4.1
     */
    public static KafkaStreams create(GaplessStreamsBuilder builder, Properties props) {
        ClientCompatibility.require(ClientCompatibility.EntryPoint.GAPLESS_STREAMS); // before build() touches Kafka Streams
        return create(builder.build(streamsOnly(props)), props, null);
    }

    /**
     * Creates the application for a topology built by a {@link GaplessStreamsBuilder} or a
     * {@link GaplessTopology}.
     *
     * @throws ConfigException when the topology was built otherwise, a setting or a source's policy is invalid
     */
    public static KafkaStreams create(Topology topology, Properties props) {
        return create(topology, props, null);
    }

    /**
     * As {@link #create(Topology, Properties)}, with the user's {@link KafkaClientSupplier} for every
     * client (under {@code group.protocol=classic} the SDK wraps the main consumer it supplies; that
     * consumer is created with {@code auto.offset.reset=none}).
     *
     * @throws ConfigException before any stream thread starts, naming the topic or key: a topology not built by
     *         the SDK's builders, {@code none} or a nested policy as a new-partitions policy, a policy on a
     *         global-store topic, SDK settings with a {@code consumer.}/{@code main.consumer.} prefix,
     *         {@code gapless.new.partitions.mode=native}, or under {@code group.protocol=streams} a Kafka Streams
     *         whose internal main-consumer hook changed shape
     * @throws io.gapless.kafka.core.UnsupportedClientVersionException if kafka-clients or kafka-streams is older than 4.1
     */
    public static KafkaStreams create(Topology topology, Properties props, KafkaClientSupplier clientSupplier) {
        ClientCompatibility.require(ClientCompatibility.EntryPoint.GAPLESS_STREAMS);
        SourcePolicies sources = RecordedSources.lookup(topology).orElseThrow(() -> new ConfigException(
                "GaplessStreams needs a topology built by GaplessStreamsBuilder or GaplessTopology: Kafka Streams copies each"
                        + " AutoOffsetReset into an internal type, so only those record the source topics and their policies"));
        sources.validateAll();
        Properties streamsProps = streamsOnly(props);
        StreamsConfig streamsConfig = new StreamsConfig(streamsProps);
        String applicationId = streamsConfig.getString(StreamsConfig.APPLICATION_ID_CONFIG);
        Object baseReset = streamsConfig.getMainConsumerConfigs(applicationId, applicationId + "-gapless", 0)
                .get(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG);

        Map<String, Object> sdkConfig = sdkOnly(props);
        sdkConfig.put(ConsumerConfig.GROUP_ID_CONFIG, applicationId);
        sdkConfig.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, baseReset == null ? "earliest" : baseReset.toString());
        GaplessConsumerConfig config = new GaplessConsumerConfig(sdkConfig);

        ResetPlan.Builder plan = ResetPlan.builder().applicationId(applicationId).sources(sources)
                .globalBase(config.basePolicy()).globalNewPartitions(config.newPartitionsPolicy())
                .baselineTopic(BaselineTopic.of(config.sharedBaselineTopic().orElse(null), config.baselineTopicPrefix(), applicationId)).unavailablePolicy(config.baselineUnavailablePolicy())
                .baselineTimeout(Duration.ofMillis(config.baselineTimeoutMs()));
        boolean anyPolicy = plan.build().anyNewPartitionsPolicy();
        String protocol = streamsConfig.getString(StreamsConfig.GROUP_PROTOCOL_CONFIG).toLowerCase(Locale.ROOT);
        ModeDecision decision = decide(anyPolicy, config.mode(), protocol, () -> probe(streamsProps));
        ResetPlan resetPlan = plan.decision(decision).build();

        KafkaStreams streams;
        String hook;
        if ("streams".equals(protocol)) {
            StreamsProtocolHook.install(streamsProps, resetPlan);
            hook = "Kafka Streams' internal main-consumer wrapper (" + StreamsProtocolHook.WRAPPER_CONFIG + ")";
            streams = clientSupplier == null ? new KafkaStreams(topology, streamsProps) : new KafkaStreams(topology, streamsProps, clientSupplier);
        } else {
            hook = "a KafkaClientSupplier";
            streams = new KafkaStreams(topology, streamsProps, new GaplessClientSupplier(clientSupplier, resetPlan));
        }
        log.info("GaplessStreams {}: new-partitions policies delivered by {} ({}); group.protocol={}, main consumer via {}; sources: {}",
                applicationId, decision.kind().label(), decision.reason(), protocol, hook, resetPlan.describe());
        return streams;
    }

    /**
     * How an application would deliver its new-partitions policies: the decision {@link #create}
     * takes, for tools that report it ({@code gapless probe}).
     *
     * @param anyPolicy   whether any source (or the application) has a new-partitions policy
     * @param groupProtocol the application's {@code group.protocol} ({@code classic} or {@code streams}); Kafka Streams'
     *                      groups are never the consumer protocol KIP-1327's native path needs
     * @param brokerProbe asks the broker; called only when the kafka-clients on the classpath knows KIP-1327's setting
     * @throws ConfigException where the decision is native: this SDK version has no native delivery for Kafka Streams
     */
    public static ModeDecision decide(boolean anyPolicy, NewPartitionsMode mode, String groupProtocol,
            Supplier<BrokerCapabilities> brokerProbe) {
        ModeDecision decision = ModeDecision.decide(anyPolicy, mode, groupProtocol, BrokerCapabilities.clientOnly(), brokerProbe);
        if (decision.kind() == ModeDecision.Kind.NATIVE) {
            throw new ConfigException(GaplessConsumerConfig.NEW_PARTITIONS_MODE_CONFIG, mode.configValue(),
                    "native KIP-1327 delivery for Kafka Streams is not implemented by this SDK version (" + decision.reason()
                            + "); set " + GaplessConsumerConfig.NEW_PARTITIONS_MODE_CONFIG + "=emulate");
        }
        return decision;
    }

    /** {@code props} without the SDK's own keys, for Kafka Streams. */
    private static Properties streamsOnly(Properties props) {
        Properties out = new Properties();
        props.forEach((k, v) -> {
            String key = String.valueOf(k);
            for (String prefix : CLIENT_PREFIXES) {
                if (key.startsWith(prefix) && GaplessConsumerConfig.isSdkKey(key.substring(prefix.length()))) {
                    throw new ConfigException(key, v, "the SDK's settings apply to the whole application: set "
                            + key.substring(prefix.length()) + " without the " + prefix + " prefix");
                }
            }
            if (!GaplessConsumerConfig.isSdkKey(key)) {
                out.put(k, v);
            }
        });
        return out;
    }

    private static final String[] CLIENT_PREFIXES = {StreamsConfig.MAIN_CONSUMER_PREFIX, StreamsConfig.CONSUMER_PREFIX,
        StreamsConfig.RESTORE_CONSUMER_PREFIX, StreamsConfig.GLOBAL_CONSUMER_PREFIX};

    private static Map<String, Object> sdkOnly(Properties props) {
        Map<String, Object> out = new HashMap<>();
        props.forEach((k, v) -> {
            if (GaplessConsumerConfig.isSdkKey(String.valueOf(k))) {
                out.put(String.valueOf(k), v);
            }
        });
        return out;
    }

    private static BrokerCapabilities probe(Properties streamsProps) {
        try (Admin admin = Admin.create(ConnectionConfigs.from(Utils.propsToMap(streamsProps), "probe"))) {
            return BrokerCapabilities.probe(admin, Duration.ofSeconds(30));
        }
    }
}
