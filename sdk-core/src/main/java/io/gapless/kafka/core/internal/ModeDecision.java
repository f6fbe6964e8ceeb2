package io.gapless.kafka.core.internal;

import io.gapless.kafka.core.BrokerCapabilities;
import io.gapless.kafka.core.GaplessConsumerConfig;
import io.gapless.kafka.core.NewPartitionsMode;
import org.apache.kafka.common.config.ConfigException;

import java.util.Locale;
import java.util.function.Supplier;

/**
 * Native pass-through, emulation, or nothing to do, decided once per client from the user's
 * {@code gapless.new.partitions.mode} and what the client and broker support. The broker is only
 * asked when kafka-clients itself knows KIP-1327's setting.
 */
public record ModeDecision(Kind kind, String reason) {

    /**
     * What the decorator does. The {@code new-partitions-mode} metric reports it as its ordinal,
     * as Kafka reports states (KIP-1091's {@code client-state}): 0 off, 1 native, 2 emulate.
     */
    public enum Kind {
        /** No new-partitions policy set: a plain pass-through. */
        OFF,
        /** Kafka applies the policy itself. */
        NATIVE,
        /** The SDK applies the policy through its group baseline. */
        EMULATE;

        /** The description of the {@code new-partitions-mode} metrics (consumer and share consumer). */
        public static final String METRIC_DOC =
                "How the new-partitions policy is delivered, as a number: 0 off (no policy set), 1 native (Kafka applies it), 2 emulate (the SDK applies it)";

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * @param client      what the kafka-clients on the classpath supports ({@link BrokerCapabilities#clientOnly()})
     * @param brokerProbe asks the broker; called only when the client knows KIP-1327's setting
     */
    public static ModeDecision decide(boolean policySet, NewPartitionsMode mode, BrokerCapabilities client,
                                      Supplier<BrokerCapabilities> brokerProbe) {
        if (!policySet) {
            return new ModeDecision(Kind.OFF, GaplessConsumerConfig.AUTO_OFFSET_RESET_NEW_PARTITIONS_CONFIG + " is not set");
        }
        switch (mode) {
            case EMULATE:
                return new ModeDecision(Kind.EMULATE, GaplessConsumerConfig.NEW_PARTITIONS_MODE_CONFIG + "=emulate");
            case NATIVE: {
                BrokerCapabilities caps = client.clientKnowsNewPartitionsConfig() ? brokerProbe.get() : client;
                if (!caps.supportsNativeNewPartitions()) {
                    throw new ConfigException(GaplessConsumerConfig.NEW_PARTITIONS_MODE_CONFIG, "native",
                            "native KIP-1327 support is missing: " + describe(caps)
                                    + "; use auto or emulate to let the SDK emulate it");
                }
                return new ModeDecision(Kind.NATIVE, describe(caps));
            }
            default: {
                if (!client.clientKnowsNewPartitionsConfig()) {
                    return new ModeDecision(Kind.EMULATE, "kafka-clients on the classpath does not know "
                            + GaplessConsumerConfig.AUTO_OFFSET_RESET_NEW_PARTITIONS_CONFIG);
                }
                BrokerCapabilities caps = brokerProbe.get();
                return caps.supportsNativeNewPartitions()
                        ? new ModeDecision(Kind.NATIVE, describe(caps))
                        : new ModeDecision(Kind.EMULATE, describe(caps));
            }
        }
    }

    private static String describe(BrokerCapabilities caps) {
        return "kafka-clients " + (caps.clientKnowsNewPartitionsConfig() ? "knows" : "does not know") + " "
                + GaplessConsumerConfig.AUTO_OFFSET_RESET_NEW_PARTITIONS_CONFIG
                + (caps.brokerProbed() ? ", broker group.version=" + caps.finalizedLevel("group.version")
                + " (KIP-1327 needs " + BrokerCapabilities.GROUP_VERSION_NEW_PARTITIONS + ")" : "");
    }
}
