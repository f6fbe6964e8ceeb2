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
package io.gapless.kafka.share.txn;

import io.gapless.kafka.core.spi.ModeDecision.Fallback;
import io.gapless.kafka.core.spi.StateTopics;
import io.gapless.kafka.share.ledger.LedgerSettings;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.utils.Utils;

/**
 * The settings of transactional share acknowledgements (KIP-1289) that the share consumer and its
 * producer both take, as Kafka's {@code CommonClientConfigs} holds the keys its clients share:
 * defined once here and added to {@code GaplessShareConfig} and
 * {@link TransactionalShareProducerConfig}. Set the same values on both clients.
 *
 * @since 0.1.0
 */
public final class ShareTransactionConfigs {

    /** What to do where Kafka cannot stage share acknowledgements in a transaction. */
    public static final String FALLBACK_CONFIG = "gapless.share.transactional.fallback";
    private static final String FALLBACK_DOC = "What to do where kafka-clients or the broker cannot stage share acknowledgements "
            + "in a transaction (KIP-1289): <code>emulate</code> runs the ack ledger, with the same guarantee; "
            + "<code>at-least-once</code> acknowledges after the commit (a crash in between delivers the records again, "
            + "logged as a WARN); <code>fail</code> throws UnsupportedVersionException from the constructor.";

    /** Prefix of the per-group ack-ledger topics ({@code <prefix><group>}, see {@code core.spi.StateTopics}). */
    public static final String LEDGER_TOPIC_PREFIX_CONFIG = "gapless.ledger.topic.prefix";
    public static final String LEDGER_TOPIC_PREFIX_DEFAULT = "__gapless_ledger.";
    private static final String LEDGER_TOPIC_PREFIX_DOC = "Prefix of the ack-ledger topics: each share group gets its own, named "
            + "&lt;prefix&gt;&lt;group id&gt; (characters a topic name cannot hold are escaped), created on first use with one partition, "
            + "min(3, brokers) replicas, min.insync.replicas=2 (1 without replicas), cleanup.policy=delete, infinite retention and "
            + "unclean.leader.election.enable=false. A PREFIXED ACL on &lt;prefix&gt;&lt;group&gt; scopes a tenant to its own ledger.";

    /** One ack-ledger topic for every share group, instead of one per group. */
    public static final String LEDGER_TOPIC_CONFIG = "gapless.ledger.topic";
    private static final String LEDGER_TOPIC_DOC = "One ack-ledger topic for every share group instead of one per group (unset by "
            + "default). It must have one partition and is created and checked like the per-group ones; every group then shares "
            + "that partition (commits of all groups are ordered together, and any principal allowed to write it can write every "
            + "group's entries).";

    /** Replication factor of an ack-ledger topic the SDK creates; -1 = min(3, brokers). */
    public static final String LEDGER_REPLICATION_FACTOR_CONFIG = "gapless.ledger.replication.factor";
    private static final String LEDGER_REPLICATION_FACTOR_DOC = "Replication factor of an ack-ledger topic the SDK creates (-1: "
            + "min(3, brokers)). Set to 1 to accept an unreplicated ledger topic on a cluster of several brokers, which is refused "
            + "otherwise.";

    /** Removed: ledger topics have exactly one partition. */
    static final String LEDGER_PARTITIONS_REMOVED_CONFIG = "gapless.ledger.partitions";

    /** Ledger entry bytes written to a ledger partition before a snapshot is written (KIP-1349's rule). */
    public static final String LEDGER_MAX_BYTES_BETWEEN_SNAPSHOTS_CONFIG = "gapless.ledger.max.record.bytes.between.snapshots";
    public static final long LEDGER_MAX_BYTES_BETWEEN_SNAPSHOTS_DEFAULT = 20L * 1024 * 1024;
    private static final String LEDGER_MAX_BYTES_BETWEEN_SNAPSHOTS_DOC = "Ledger entry bytes read from a ledger partition before the "
            + "producer writes a snapshot and deletes the entries below it (KIP-1349's bytes-based rule).";

    /** Prefix of the per-group topics recording that a share group moved to native KIP-1289; created on first use. */
    public static final String MODE_TOPIC_PREFIX_CONFIG = "gapless.share.mode.topic.prefix";
    public static final String MODE_TOPIC_PREFIX_DEFAULT = "__gapless_ack_mode.";
    private static final String MODE_TOPIC_PREFIX_DOC = "Prefix of the KIP-1289 mode topics: each share group that uses transactional "
            + "acknowledgements gets one, named &lt;prefix&gt;&lt;group id&gt; like its ledger topic (one partition, compacted), "
            + "holding at most one record: that the group moved from the ack-ledger emulation to Kafka's native KIP-1289. "
            + "Emulated members refuse to commit into such a group.";

    private ShareTransactionConfigs() {
    }

    /** Adds these settings to {@code def} and returns it. */
    public static ConfigDef addTo(ConfigDef def) {
        return def
                .define(FALLBACK_CONFIG, Type.STRING, Fallback.EMULATE.toString(),
                        ConfigDef.ValidString.in(Utils.enumOptions(Fallback.class)), Importance.HIGH, FALLBACK_DOC)
                .define(LEDGER_TOPIC_PREFIX_CONFIG, Type.STRING, LEDGER_TOPIC_PREFIX_DEFAULT, ConfigDef.LambdaValidator.with((name, value) -> {
                    try {
                        StateTopics.forGroup((String) value, "g");
                    } catch (IllegalArgumentException | NullPointerException e) {
                        throw new ConfigException(name, value, e.getMessage());
                    }
                }, () -> "a legal topic-name prefix"), Importance.MEDIUM, LEDGER_TOPIC_PREFIX_DOC)
                .define(LEDGER_TOPIC_CONFIG, Type.STRING, null, ConfigDef.LambdaValidator.with((name, value) -> {
                    if (value == null) {
                        return;
                    }
                    try {
                        Topic.validate((String) value);
                    } catch (InvalidTopicException e) {
                        throw new ConfigException(name, value, e.getMessage());
                    }
                }, () -> "unset, or a legal topic name"), Importance.LOW, LEDGER_TOPIC_DOC)
                .define(LEDGER_REPLICATION_FACTOR_CONFIG, Type.SHORT, (short) -1, ConfigDef.LambdaValidator.with((name, value) -> {
                    short rf = (Short) value;
                    if (rf == 0 || rf < -1) {
                        throw new ConfigException(name, value, "must be -1 (broker default) or at least 1");
                    }
                }, () -> "-1 or [1,...]"), Importance.LOW, LEDGER_REPLICATION_FACTOR_DOC)
                .define(LEDGER_MAX_BYTES_BETWEEN_SNAPSHOTS_CONFIG, Type.LONG, LEDGER_MAX_BYTES_BETWEEN_SNAPSHOTS_DEFAULT,
                        ConfigDef.Range.atLeast(1), Importance.LOW, LEDGER_MAX_BYTES_BETWEEN_SNAPSHOTS_DOC)
                .define(MODE_TOPIC_PREFIX_CONFIG, Type.STRING, MODE_TOPIC_PREFIX_DEFAULT, ConfigDef.LambdaValidator.with((name, value) -> {
                    try {
                        StateTopics.forGroup((String) value, "g");
                    } catch (IllegalArgumentException | NullPointerException e) {
                        throw new ConfigException(name, value, e.getMessage());
                    }
                }, () -> "a legal topic-name prefix"), Importance.LOW, MODE_TOPIC_PREFIX_DOC);
    }

    /** The fallback a config parsed with these settings asks for. */
    public static Fallback fallback(AbstractConfig config) {
        return Fallback.of(config.getString(FALLBACK_CONFIG));
    }

    /** The mode-topic prefix a config parsed with these settings names. */
    public static String modeTopicPrefix(AbstractConfig config) {
        return config.getString(MODE_TOPIC_PREFIX_CONFIG);
    }

    /**
     * The ledger settings a config parsed with these settings holds.
     *
     * @throws ConfigException for the removed {@value #LEDGER_PARTITIONS_REMOVED_CONFIG}
     */
    public static LedgerSettings ledgerSettings(AbstractConfig config) {
        Object partitions = config.originals().get(LEDGER_PARTITIONS_REMOVED_CONFIG);
        if (partitions != null) {
            throw new ConfigException(LEDGER_PARTITIONS_REMOVED_CONFIG, partitions, "is no longer supported: an ack-ledger topic has "
                    + "exactly one partition (each share group has its own topic, " + LEDGER_TOPIC_PREFIX_CONFIG + ")");
        }
        return new LedgerSettings(config.getString(LEDGER_TOPIC_PREFIX_CONFIG), config.getString(LEDGER_TOPIC_CONFIG),
                config.getShort(LEDGER_REPLICATION_FACTOR_CONFIG), config.getLong(LEDGER_MAX_BYTES_BETWEEN_SNAPSHOTS_CONFIG));
    }
}
