package io.gapless.kafka.share;

import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;

import java.util.HashMap;
import java.util.Map;

/**
 * The SDK's settings for transactional share acknowledgements. They go into the same
 * {@code Properties}/{@code Map} as the Kafka client settings and are removed before the config
 * reaches the Kafka client. Invalid values fail with a {@code ConfigException} that names the key
 * and the value.
 */
public final class GaplessShareConfig extends AbstractConfig {

    /** Prefix of every SDK setting; such keys are never passed to the Kafka clients. */
    public static final String PREFIX = "gapless.";

    /**
     * What to do when the broker cannot stage share acknowledgements in a transaction (KIP-1289):
     * {@code emulate} (default) runs the ack ledger, {@code at-least-once} acknowledges after the
     * commit (duplicates possible after a crash), {@code fail} throws UnsupportedVersionException.
     */
    public static final String FALLBACK_CONFIG = "gapless.share.transactional.fallback";
    public static final String FALLBACK_EMULATE = "emulate";
    public static final String FALLBACK_AT_LEAST_ONCE = "at-least-once";
    public static final String FALLBACK_FAIL = "fail";

    /** Name of the ack-ledger topic, created on first use. */
    public static final String LEDGER_TOPIC_CONFIG = "gapless.ledger.topic";
    public static final String LEDGER_TOPIC_DEFAULT = "__gapless_share_ack_ledger";

    /** Partitions of the ack-ledger topic when the SDK creates it; never change it afterwards. */
    public static final String LEDGER_PARTITIONS_CONFIG = "gapless.ledger.partitions";

    /** Replication factor of the ack-ledger topic when the SDK creates it; -1 = broker default. */
    public static final String LEDGER_REPLICATION_FACTOR_CONFIG = "gapless.ledger.replication.factor";

    /** Ledger entry bytes written to a ledger partition before a snapshot is written (KIP-1349's rule). */
    public static final String LEDGER_MAX_BYTES_BETWEEN_SNAPSHOTS_CONFIG = "gapless.ledger.max.record.bytes.between.snapshots";
    public static final long LEDGER_MAX_BYTES_BETWEEN_SNAPSHOTS_DEFAULT = 20L * 1024 * 1024;

    /**
     * Value of Kafka's {@code share.acknowledgement.mode} that turns on transactional
     * acknowledgements on a {@link GaplessShareConsumer} (KIP-1289, section 7). The Kafka consumer
     * underneath runs in {@code explicit} mode.
     */
    public static final String ACKNOWLEDGEMENT_MODE_CONFIG = "share.acknowledgement.mode";
    public static final String ACKNOWLEDGEMENT_MODE_TRANSACTIONAL = "transactional";

    private static final ConfigDef CONFIG = new ConfigDef()
            .define(FALLBACK_CONFIG, Type.STRING, FALLBACK_EMULATE,
                    ConfigDef.ValidString.in(FALLBACK_EMULATE, FALLBACK_AT_LEAST_ONCE, FALLBACK_FAIL), Importance.HIGH,
                    "Behaviour when the broker has no transactional share acknowledgements: emulate, at-least-once or fail.")
            .define(LEDGER_TOPIC_CONFIG, Type.STRING, LEDGER_TOPIC_DEFAULT, new ConfigDef.NonEmptyString(),
                    Importance.MEDIUM, "Topic of the ack ledger used by the emulation.")
            .define(LEDGER_PARTITIONS_CONFIG, Type.INT, 1, ConfigDef.Range.atLeast(1), Importance.LOW,
                    "Partitions of the ack-ledger topic when the SDK creates it.")
            .define(LEDGER_REPLICATION_FACTOR_CONFIG, Type.SHORT, (short) -1, Importance.LOW,
                    "Replication factor of the ack-ledger topic when the SDK creates it (-1: broker default).")
            .define(LEDGER_MAX_BYTES_BETWEEN_SNAPSHOTS_CONFIG, Type.LONG, LEDGER_MAX_BYTES_BETWEEN_SNAPSHOTS_DEFAULT,
                    ConfigDef.Range.atLeast(1), Importance.LOW,
                    "Ledger entry bytes written to a ledger partition before the next snapshot.");

    /**
     * Parses and validates the SDK keys of a client config; other keys are ignored.
     *
     * @throws org.apache.kafka.common.config.ConfigException naming the key and value on bad input
     */
    public GaplessShareConfig(Map<?, ?> clientConfig) {
        super(CONFIG, sdkKeys(clientConfig), false);
        short rf = getShort(LEDGER_REPLICATION_FACTOR_CONFIG);
        if (rf == 0 || rf < -1) {
            throw new org.apache.kafka.common.config.ConfigException(LEDGER_REPLICATION_FACTOR_CONFIG, rf,
                    "must be -1 (broker default) or at least 1");
        }
    }

    /** The definition of every SDK setting (for documentation tools). */
    public static ConfigDef configDef() {
        return new ConfigDef(CONFIG);
    }

    /** A copy of {@code clientConfig} without the SDK's keys, for the Kafka client underneath. */
    public static Map<String, Object> withoutSdkKeys(Map<?, ?> clientConfig) {
        Map<String, Object> result = new HashMap<>();
        clientConfig.forEach((k, v) -> {
            String key = String.valueOf(k);
            if (!key.startsWith(PREFIX)) {
                result.put(key, v);
            }
        });
        return result;
    }

    private static Map<String, Object> sdkKeys(Map<?, ?> clientConfig) {
        Map<String, Object> result = new HashMap<>();
        clientConfig.forEach((k, v) -> {
            String key = String.valueOf(k);
            if (key.startsWith(PREFIX)) {
                result.put(key, v);
            }
        });
        return result;
    }

    /** The configured fallback. */
    public String fallback() {
        return getString(FALLBACK_CONFIG);
    }

    /** The ledger topic name. */
    public String ledgerTopic() {
        return getString(LEDGER_TOPIC_CONFIG);
    }

    /** Partitions of the ledger topic when created by the SDK. */
    public int ledgerPartitions() {
        return getInt(LEDGER_PARTITIONS_CONFIG);
    }

    /** Replication factor of the ledger topic when created by the SDK. */
    public short ledgerReplicationFactor() {
        return getShort(LEDGER_REPLICATION_FACTOR_CONFIG);
    }

    /** Ledger bytes between snapshots. */
    public long maxBytesBetweenSnapshots() {
        return getLong(LEDGER_MAX_BYTES_BETWEEN_SNAPSHOTS_CONFIG);
    }
}
