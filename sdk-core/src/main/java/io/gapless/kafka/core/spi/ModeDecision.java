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

import io.gapless.kafka.core.BrokerCapabilities;
import io.gapless.kafka.core.GaplessConsumerConfig;
import io.gapless.kafka.core.NewPartitionsMode;
import org.apache.kafka.common.config.ConfigException;

import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * How a client delivers one proposal's feature, decided once at construction: natively by Kafka,
 * by the SDK's emulation, by a weaker fallback, or not at all. Every client of every module takes
 * this decision here (KIP-1327 for consumer groups, Kafka Streams and share groups; KIP-1289 for
 * share acknowledgements), so the rule "native where the client and broker have it, else the
 * configured {@link Fallback}" exists once. The native support is only probed when it can matter.
 *
 * @since 0.1.0
 */
public record ModeDecision(Kind kind, String reason) {

    public ModeDecision {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(reason, "reason");
    }

    /**
     * What the client does. The {@code new-partitions-mode} metric reports it as its ordinal,
     * as Kafka reports states (KIP-1091's {@code client-state}): 0 off, 1 native, 2 emulate.
     */
    public enum Kind {
        /** The feature is not asked for: a plain pass-through. */
        OFF,
        /** Kafka delivers the feature itself. */
        NATIVE,
        /** The SDK emulates it with the same guarantee. */
        EMULATE,
        /** The SDK delivers a weaker form: acknowledgements after the commit, duplicates after a crash. */
        AT_LEAST_ONCE;

        /** The description of the {@code new-partitions-mode} metrics (consumer and share consumer). */
        public static final String METRIC_DOC =
                "How the new-partitions policy is delivered, as a number: 0 off (no policy set), 1 native (Kafka applies it), 2 emulate (the SDK applies it)";

        /** The lower-case name used in logs and metrics, for example {@code at-least-once}. */
        public String label() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    /** What to do where the native path is missing. Spelled in configs as {@link #toString()}. */
    public enum Fallback {
        /** Emulate the feature. */
        EMULATE,
        /** Deliver the weaker at-least-once form. */
        AT_LEAST_ONCE,
        /** Fail at construction. */
        FAIL;

        /** The configuration value: {@code emulate}, {@code at-least-once} or {@code fail}. */
        @Override
        public String toString() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }

        /** The fallback spelled {@code value}, as {@link #toString()} prints it. */
        public static Fallback of(String value) {
            for (Fallback f : values()) {
                if (f.toString().equals(value)) {
                    return f;
                }
            }
            throw new IllegalArgumentException("Unknown fallback '" + value + "'");
        }
    }

    /** Whether the native path is there, and what was found (for logs and error messages). */
    public record Support(boolean available, String description) {
        public static Support available(String description) {
            return new Support(true, description);
        }

        public static Support missing(String description) {
            return new Support(false, description);
        }
    }

    /**
     * Native where {@code probe} finds support, otherwise {@code fallback}.
     *
     * @param unsupported the error for {@link Fallback#FAIL}, from the missing support's description
     */
    public static ModeDecision decide(Fallback fallback, Supplier<Support> probe,
                                      Function<String, ? extends RuntimeException> unsupported) {
        Support support = probe.get();
        if (support.available()) {
            return new ModeDecision(Kind.NATIVE, support.description());
        }
        return switch (fallback) {
            case EMULATE -> new ModeDecision(Kind.EMULATE, support.description());
            case AT_LEAST_ONCE -> new ModeDecision(Kind.AT_LEAST_ONCE, support.description());
            case FAIL -> throw unsupported.apply(support.description());
        };
    }

    /**
     * KIP-1327's {@code gapless.new.partitions.mode}: {@code emulate} never probes, {@code native}
     * fails without support (with the error {@code missing} makes), {@code auto} falls back to the
     * emulation.
     */
    public static ModeDecision decide(NewPartitionsMode mode, Supplier<Support> probe,
                                      Function<String, ? extends RuntimeException> missing) {
        return switch (mode) {
            case EMULATE -> new ModeDecision(Kind.EMULATE, GaplessConsumerConfig.NEW_PARTITIONS_MODE_CONFIG + "=emulate");
            case NATIVE -> decide(Fallback.FAIL, probe, missing);
            case AUTO -> decide(Fallback.EMULATE, probe, missing);
        };
    }

    /**
     * KIP-1327 for consumer groups ({@code GaplessConsumer}, Kafka Streams), gated as Kafka gates
     * it: natively only with {@code group.protocol=consumer} (a classic consumer rejects the
     * setting; the heartbeat that names new partitions is the consumer protocol's), only where
     * kafka-clients knows {@code auto.offset.reset.new.partitions} and only where the broker
     * finalizes {@code group.version} {@value BrokerCapabilities#GROUP_VERSION_NEW_PARTITIONS}.
     * Anything else is emulated, or fails with {@code native} mode.
     *
     * @param groupProtocol the client's {@code group.protocol} ({@code classic}, {@code consumer},
     *                      or for Kafka Streams {@code streams})
     * @param client        what the kafka-clients on the classpath supports ({@link BrokerCapabilities#clientOnly()})
     * @param brokerProbe   asks the broker; called only when the protocol and the client allow the native path
     */
    public static ModeDecision decide(boolean policySet, NewPartitionsMode mode, String groupProtocol, BrokerCapabilities client,
                                      Supplier<BrokerCapabilities> brokerProbe) {
        if (!policySet) {
            return new ModeDecision(Kind.OFF, GaplessConsumerConfig.AUTO_OFFSET_RESET_NEW_PARTITIONS_CONFIG + " is not set");
        }
        String protocol = String.valueOf(groupProtocol).trim().toLowerCase(Locale.ROOT);
        return decide(mode, () -> {
            if (!NEW_PARTITIONS_PROTOCOL.equals(protocol)) {
                return Support.missing("group.protocol=" + protocol + " (Kafka applies "
                        + GaplessConsumerConfig.AUTO_OFFSET_RESET_NEW_PARTITIONS_CONFIG + " only with group.protocol="
                        + NEW_PARTITIONS_PROTOCOL + ")");
            }
            BrokerCapabilities caps = client.clientKnowsNewPartitionsConfig() ? brokerProbe.get() : client;
            return new Support(caps.supportsNativeNewPartitions(), describe(caps));
        }, why -> new ConfigException(GaplessConsumerConfig.NEW_PARTITIONS_MODE_CONFIG, "native",
                "native KIP-1327 support is missing: " + why + "; use auto or emulate to let the SDK emulate it"));
    }

    /** The only group protocol Kafka's KIP-1327 serves. */
    public static final String NEW_PARTITIONS_PROTOCOL = "consumer";

    /**
     * KIP-1289 (transactional share acknowledgements), gated as Kafka gates it: natively only where
     * kafka-clients has its API with Kafka's signatures and the broker finalizes
     * {@code share.version} {@value BrokerCapabilities#SHARE_VERSION_TRANSACTIONAL_ACKS} and
     * {@code transaction.version} {@value BrokerCapabilities#TRANSACTION_VERSION_TRANSACTIONAL_ACKS};
     * otherwise {@code fallback}.
     *
     * @param clientHasApi whether the kafka-clients on the classpath has KIP-1289's API
     * @param brokerProbe  asks the broker; called only when the client has the API
     * @param unsupported  the error for {@link Fallback#FAIL}, from the description of what is missing
     */
    public static ModeDecision decideShareTransactions(Fallback fallback, boolean clientHasApi, Supplier<BrokerCapabilities> brokerProbe,
                                                       Function<String, ? extends RuntimeException> unsupported) {
        return decide(fallback, () -> {
            if (!clientHasApi) {
                return Support.missing("kafka-clients on the classpath (it has no ShareConsumer.acknowledgementsForTransaction() and "
                        + "Producer.sendShareAcknowledgementsToTransaction(ShareAcknowledgements, ShareGroupMetadata))");
            }
            BrokerCapabilities broker = brokerProbe.get();
            String levels = "share.version=" + broker.finalizedLevel("share.version") + ", transaction.version="
                    + broker.finalizedLevel("transaction.version");
            return broker.supportsNativeTransactionalShareAcks()
                    ? Support.available("kafka-clients and the broker (" + levels + ")")
                    : Support.missing("the broker (it finalizes " + levels + "; KIP-1289 needs share.version>="
                    + BrokerCapabilities.SHARE_VERSION_TRANSACTIONAL_ACKS + " and transaction.version>="
                    + BrokerCapabilities.TRANSACTION_VERSION_TRANSACTIONAL_ACKS + ")");
        }, unsupported);
    }

    private static String describe(BrokerCapabilities caps) {
        return "kafka-clients on the classpath " + (caps.clientKnowsNewPartitionsConfig() ? "knows" : "does not know") + " "
                + GaplessConsumerConfig.AUTO_OFFSET_RESET_NEW_PARTITIONS_CONFIG
                + (caps.brokerProbed() ? ", broker group.version=" + caps.finalizedLevel("group.version")
                + " (KIP-1327 needs " + BrokerCapabilities.GROUP_VERSION_NEW_PARTITIONS + ")" : "");
    }
}
