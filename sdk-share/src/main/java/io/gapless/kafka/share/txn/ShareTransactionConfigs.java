package io.gapless.kafka.share.txn;

import io.gapless.kafka.core.spi.ModeDecision.Fallback;
import io.gapless.kafka.share.ledger.LedgerSettings;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.utils.Utils;

/**
 * The settings of transactional share acknowledgements (KIP-1289) that the share consumer and its
 * producer both take, as Kafka's {@code CommonClientConfigs} holds the keys its clients share:
 * defined once here and added to {@code GaplessShareConfig} and
 * {@link TransactionalShareProducerConfig}. Set the same values on both clients.
 */
public final class ShareTransactionConfigs {

    /** What to do where Kafka cannot stage share acknowledgements in a transaction. */
    public static final String FALLBACK_CONFIG = "gapless.share.transactional.fallback";
    private static final String FALLBACK_DOC = "What to do where kafka-clients or the broker cannot stage share acknowledgements "
            + "in a transaction (KIP-1289): <code>emulate</code> runs the ack ledger, with the same guarantee; "
            + "<code>at-least-once</code> acknowledges after the commit (a crash in between delivers the records again, "
            + "logged as a WARN); <code>fail</code> throws UnsupportedVersionException from the constructor.";

    /** Name of the ack-ledger topic, created on first use. */
    public static final String LEDGER_TOPIC_CONFIG = "gapless.ledger.topic";
    public static final String LEDGER_TOPIC_DEFAULT = "__gapless_share_ack_ledger";
    private static final String LEDGER_TOPIC_DOC = "Topic of the ack ledger the emulation writes one entry to per transaction; "
            + "created on first use with cleanup.policy=delete and infinite retention.";

    /** Partitions of the ack-ledger topic when the SDK creates it; never change it afterwards. */
    public static final String LEDGER_PARTITIONS_CONFIG = "gapless.ledger.partitions";
    private static final String LEDGER_PARTITIONS_DOC = "Partitions of the ack-ledger topic when the SDK creates it. Every entry of a "
            + "share group goes to one partition; never add partitions to the topic afterwards.";

    /** Replication factor of the ack-ledger topic when the SDK creates it; -1 = broker default. */
    public static final String LEDGER_REPLICATION_FACTOR_CONFIG = "gapless.ledger.replication.factor";
    private static final String LEDGER_REPLICATION_FACTOR_DOC = "Replication factor of the ack-ledger topic when the SDK creates it "
            + "(-1: the broker's default).";

    /** Ledger entry bytes written to a ledger partition before a snapshot is written (KIP-1349's rule). */
    public static final String LEDGER_MAX_BYTES_BETWEEN_SNAPSHOTS_CONFIG = "gapless.ledger.max.record.bytes.between.snapshots";
    public static final long LEDGER_MAX_BYTES_BETWEEN_SNAPSHOTS_DEFAULT = 20L * 1024 * 1024;
    private static final String LEDGER_MAX_BYTES_BETWEEN_SNAPSHOTS_DOC = "Ledger entry bytes read from a ledger partition before the "
            + "producer writes a snapshot and deletes the entries below it (KIP-1349's bytes-based rule).";

    /** Compacted topic recording which share groups moved to native KIP-1289; created on first use. */
    public static final String MODES_TOPIC_CONFIG = "gapless.share.modes.topic";
    public static final String MODES_TOPIC_DEFAULT = "__gapless_share_ack_modes";
    private static final String MODES_TOPIC_DOC = "Compacted topic with one record per share group that moved from the ack-ledger "
            + "emulation to Kafka's native KIP-1289; emulated members refuse to commit into such a group. Created on first use.";

    private ShareTransactionConfigs() {
    }

    /** Adds these settings to {@code def} and returns it. */
    public static ConfigDef addTo(ConfigDef def) {
        return def
                .define(FALLBACK_CONFIG, Type.STRING, Fallback.EMULATE.toString(),
                        ConfigDef.ValidString.in(Utils.enumOptions(Fallback.class)), Importance.HIGH, FALLBACK_DOC)
                .define(LEDGER_TOPIC_CONFIG, Type.STRING, LEDGER_TOPIC_DEFAULT, new ConfigDef.NonEmptyString(),
                        Importance.MEDIUM, LEDGER_TOPIC_DOC)
                .define(LEDGER_PARTITIONS_CONFIG, Type.INT, 1, ConfigDef.Range.atLeast(1), Importance.LOW, LEDGER_PARTITIONS_DOC)
                .define(LEDGER_REPLICATION_FACTOR_CONFIG, Type.SHORT, (short) -1, ConfigDef.LambdaValidator.with((name, value) -> {
                    short rf = (Short) value;
                    if (rf == 0 || rf < -1) {
                        throw new ConfigException(name, value, "must be -1 (broker default) or at least 1");
                    }
                }, () -> "-1 or [1,...]"), Importance.LOW, LEDGER_REPLICATION_FACTOR_DOC)
                .define(LEDGER_MAX_BYTES_BETWEEN_SNAPSHOTS_CONFIG, Type.LONG, LEDGER_MAX_BYTES_BETWEEN_SNAPSHOTS_DEFAULT,
                        ConfigDef.Range.atLeast(1), Importance.LOW, LEDGER_MAX_BYTES_BETWEEN_SNAPSHOTS_DOC)
                .define(MODES_TOPIC_CONFIG, Type.STRING, MODES_TOPIC_DEFAULT, new ConfigDef.NonEmptyString(), Importance.LOW, MODES_TOPIC_DOC);
    }

    /** The fallback a config parsed with these settings asks for. */
    public static Fallback fallback(AbstractConfig config) {
        return Fallback.of(config.getString(FALLBACK_CONFIG));
    }

    /** The mode topic a config parsed with these settings names. */
    public static String modesTopic(AbstractConfig config) {
        return config.getString(MODES_TOPIC_CONFIG);
    }

    /** The ledger settings a config parsed with these settings holds. */
    public static LedgerSettings ledgerSettings(AbstractConfig config) {
        return new LedgerSettings(config.getString(LEDGER_TOPIC_CONFIG), config.getInt(LEDGER_PARTITIONS_CONFIG),
                config.getShort(LEDGER_REPLICATION_FACTOR_CONFIG), config.getLong(LEDGER_MAX_BYTES_BETWEEN_SNAPSHOTS_CONFIG));
    }
}
