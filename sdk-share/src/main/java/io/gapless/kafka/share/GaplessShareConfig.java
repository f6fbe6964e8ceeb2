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
package io.gapless.kafka.share;

import io.gapless.kafka.core.GaplessConsumerConfig;
import io.gapless.kafka.core.NewPartitionsMode;
import io.gapless.kafka.core.ResetPolicy;
import io.gapless.kafka.core.spi.BaselineTopic;
import io.gapless.kafka.core.spi.ClientIds;
import io.gapless.kafka.core.spi.ModeDecision;
import io.gapless.kafka.core.spi.ResetPolicyValidator;
import io.gapless.kafka.share.ledger.LedgerSettings;
import io.gapless.kafka.share.reset.ShareResetOptions;
import io.gapless.kafka.share.txn.ShareTransactionConfigs;
import io.gapless.kafka.share.txn.TransactionalShareProducerConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.utils.Utils;

import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The settings {@link GaplessShareConsumer} adds to Kafka's share-consumer settings, with their
 * documentation in {@link #configDef()}: transactional acknowledgements (KIP-1289: the
 * {@code transactional} value of {@code share.acknowledgement.mode}, the fallback and the ack
 * ledger) and the new-partitions policy (KIP-1327: {@code share.auto.offset.reset},
 * {@code share.auto.offset.reset.new.partitions}, the group baseline and the partition check
 * interval). They go into the same {@code Properties}/{@code Map} as the Kafka client settings and
 * are removed, or rewritten, before the config reaches the Kafka consumer. Invalid values and
 * combinations fail with a {@code ConfigException} that names the key and the value.
 *
 * <p>{@link TransactionalShareProducerConfig} defines the producer's keys; the KIP-1289 keys of
 * both are the same ({@link ShareTransactionConfigs}): set the same values on consumer and producer.
 *
 * @since 0.1.0
 */
public final class GaplessShareConfig extends AbstractConfig {

    /** Prefix of every SDK setting; such keys are never passed to the Kafka clients. */
    public static final String PREFIX = TransactionalShareProducerConfig.PREFIX;

    /**
     * Kafka's {@code share.acknowledgement.mode}, plus {@value #ACKNOWLEDGEMENT_MODE_TRANSACTIONAL}
     * (KIP-1289, section 7), which turns on acknowledgements that commit or abort with a
     * {@code TransactionalShareProducer}'s transaction. The Kafka consumer underneath then runs in
     * {@code explicit} mode: that is the value this config holds after parsing ({@link #transactional()}
     * tells what was asked for).
     */
    public static final String ACKNOWLEDGEMENT_MODE_CONFIG = ConsumerConfig.SHARE_ACKNOWLEDGEMENT_MODE_CONFIG;
    public static final String ACKNOWLEDGEMENT_MODE_TRANSACTIONAL = "transactional";
    private static final String ACKNOWLEDGEMENT_MODE_DOC = "Kafka's acknowledgement mode of the share consumer "
            + "(<code>implicit</code> or <code>explicit</code>), or <code>transactional</code> (KIP-1289): records are settled "
            + "by a TransactionalShareProducer's transaction, acknowledged on commit and released on abort; the Kafka consumer "
            + "underneath runs <code>explicit</code>. Requires group.id.";

    /** See {@link ShareTransactionConfigs#FALLBACK_CONFIG}. */
    public static final String FALLBACK_CONFIG = ShareTransactionConfigs.FALLBACK_CONFIG;
    public static final String FALLBACK_EMULATE = "emulate";
    public static final String FALLBACK_AT_LEAST_ONCE = "at-least-once";
    public static final String FALLBACK_FAIL = "fail";

    /** See {@link ShareTransactionConfigs#LEDGER_TOPIC_PREFIX_CONFIG}. */
    public static final String LEDGER_TOPIC_PREFIX_CONFIG = ShareTransactionConfigs.LEDGER_TOPIC_PREFIX_CONFIG;
    public static final String LEDGER_TOPIC_PREFIX_DEFAULT = ShareTransactionConfigs.LEDGER_TOPIC_PREFIX_DEFAULT;
    /** See {@link ShareTransactionConfigs#LEDGER_TOPIC_CONFIG}. */
    public static final String LEDGER_TOPIC_CONFIG = ShareTransactionConfigs.LEDGER_TOPIC_CONFIG;
    /** See {@link ShareTransactionConfigs#LEDGER_REPLICATION_FACTOR_CONFIG}. */
    public static final String LEDGER_REPLICATION_FACTOR_CONFIG = ShareTransactionConfigs.LEDGER_REPLICATION_FACTOR_CONFIG;
    /** See {@link ShareTransactionConfigs#LEDGER_MAX_BYTES_BETWEEN_SNAPSHOTS_CONFIG}. */
    public static final String LEDGER_MAX_BYTES_BETWEEN_SNAPSHOTS_CONFIG = ShareTransactionConfigs.LEDGER_MAX_BYTES_BETWEEN_SNAPSHOTS_CONFIG;
    public static final long LEDGER_MAX_BYTES_BETWEEN_SNAPSHOTS_DEFAULT = ShareTransactionConfigs.LEDGER_MAX_BYTES_BETWEEN_SNAPSHOTS_DEFAULT;

    /** The share group's base policy as the SDK applies it (the group config of the same name; not a Kafka consumer setting). */
    public static final String AUTO_OFFSET_RESET_CONFIG = "share.auto.offset.reset";
    private static final String AUTO_OFFSET_RESET_DOC = "The share group's base policy, as the SDK should apply it: earliest, latest "
            + "or by_duration:&lt;ISO-8601 duration&gt;. Only read with share.auto.offset.reset.new.partitions; the SDK then owns "
            + "the group config of the same name.";

    /** KIP-1327: where share-partitions created after the group start. */
    public static final String AUTO_OFFSET_RESET_NEW_PARTITIONS_CONFIG = "share.auto.offset.reset.new.partitions";
    private static final String AUTO_OFFSET_RESET_NEW_PARTITIONS_DOC = "KIP-1327: where share-partitions created after the share "
            + "group start (earliest, latest or by_duration:&lt;ISO-8601 duration&gt;; not none), natively where the broker "
            + "knows the group config, emulated otherwise. Unset: the broker's behaviour. Requires group.id.";

    /** How often the share consumer looks for partitions added to its topics. */
    public static final String PARTITION_CHECK_INTERVAL_MS_CONFIG = "gapless.share.partition.check.interval.ms";
    private static final String PARTITION_CHECK_INTERVAL_MS_DOC = "How often the share consumer looks for partitions added to "
            + "its topics, to choose their start offset (new-partitions emulation only).";

    /** Share groups have no {@code none}: a partition always starts somewhere. */
    private static final ResetPolicyValidator NO_NONE = ResetPolicyValidator.withoutNone(
            "share groups do not support none: use earliest, latest or by_duration:<ISO-8601 duration>");

    private static final ConfigDef CONFIG = ShareTransactionConfigs.addTo(new ConfigDef())
            .define(ACKNOWLEDGEMENT_MODE_CONFIG, Type.STRING, AcknowledgementMode.IMPLICIT.toString(),
                    ConfigDef.CaseInsensitiveValidString.in(Utils.enumOptions(AcknowledgementMode.class)), Importance.MEDIUM,
                    ACKNOWLEDGEMENT_MODE_DOC)
            .define(AUTO_OFFSET_RESET_CONFIG, Type.STRING, ResetPolicy.LATEST.toString(), NO_NONE, Importance.MEDIUM,
                    AUTO_OFFSET_RESET_DOC)
            .define(AUTO_OFFSET_RESET_NEW_PARTITIONS_CONFIG, Type.STRING, null, NO_NONE, Importance.HIGH,
                    AUTO_OFFSET_RESET_NEW_PARTITIONS_DOC)
            .define(GaplessConsumerConfig.BASELINE_TOPIC_PREFIX_CONFIG, Type.STRING, GaplessConsumerConfig.BASELINE_TOPIC_PREFIX_DEFAULT,
                    BaselineTopic.prefixValidator(), Importance.LOW, "Prefix of the compacted topic holding one share group's"
                            + " baseline (prefix plus group id, as for GaplessConsumer): grant each principal Read, Write,"
                            + " DescribeConfigs and Create on exactly its groups' topics.")
            .define(GaplessConsumerConfig.BASELINE_TOPIC_CONFIG, Type.STRING, null, BaselineTopic.sharedTopicValidator(),
                    Importance.LOW, "A compacted topic shared by the baselines of every group instead of one per group; gives"
                            + " up tenant isolation (any principal that may write it can forge another group's baseline).")
            .define(GaplessConsumerConfig.BASELINE_TIMEOUT_MS_CONFIG, Type.LONG, 30_000L, ConfigDef.Range.atLeast(1),
                    Importance.LOW, "Upper bound for one baseline read or write, or one share-group admin call.")
            .define(GaplessConsumerConfig.NEW_PARTITIONS_MODE_CONFIG, Type.STRING, NewPartitionsMode.AUTO.configValue(),
                    ConfigDef.CaseInsensitiveValidString.in(Arrays.stream(NewPartitionsMode.values())
                            .map(NewPartitionsMode::configValue).toArray(String[]::new)), Importance.LOW,
                    "auto: native where the broker knows share.auto.offset.reset.new.partitions, emulated otherwise; "
                            + "native: fail at construction without it; emulate.")
            .define(PARTITION_CHECK_INTERVAL_MS_CONFIG, Type.LONG, 1000L, ConfigDef.Range.atLeast(10), Importance.LOW,
                    PARTITION_CHECK_INTERVAL_MS_DOC);

    /** The values of {@value #ACKNOWLEDGEMENT_MODE_CONFIG}. */
    public enum AcknowledgementMode {
        IMPLICIT, EXPLICIT, TRANSACTIONAL;

        @Override
        public String toString() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private final String clientId;

    /**
     * Parses and validates the SDK's keys of a share-consumer config; Kafka's own keys are kept for
     * the Kafka consumer.
     *
     * @throws ConfigException naming the key and value on bad input
     */
    public GaplessShareConfig(Map<?, ?> clientConfig) {
        super(CONFIG, clientConfig, false);
        BaselineTopic.checkNotBoth(clientConfig, GaplessConsumerConfig.BASELINE_TOPIC_CONFIG, GaplessConsumerConfig.BASELINE_TOPIC_PREFIX_CONFIG);
        // Kafka's own client id (the configured one, or consumer-<group>-<n>), pinned on the Kafka
        // consumer: its metrics, the SDK's and the helper clients' ids agree.
        this.clientId = ClientIds.consumer(originals());
    }

    /** Cross-key rules, and the rewrite of {@code transactional} to the {@code explicit} mode the Kafka consumer runs in. */
    @Override
    protected Map<String, Object> postProcessParsedConfig(Map<String, Object> parsedValues) {
        Object group = originals().get(ConsumerConfig.GROUP_ID_CONFIG);
        boolean transactional = ACKNOWLEDGEMENT_MODE_TRANSACTIONAL.equalsIgnoreCase((String) parsedValues.get(ACKNOWLEDGEMENT_MODE_CONFIG));
        if (transactional && group == null) {
            throw new ConfigException(ConsumerConfig.GROUP_ID_CONFIG, null, "a transactional share consumer needs a group.id");
        }
        String newPolicy = (String) parsedValues.get(AUTO_OFFSET_RESET_NEW_PARTITIONS_CONFIG);
        if (newPolicy != null && !newPolicy.isBlank() && (group == null || group.toString().isBlank())) {
            throw new ConfigException(AUTO_OFFSET_RESET_NEW_PARTITIONS_CONFIG, ResetPolicy.parse(newPolicy).toString(), "requires group.id");
        }
        return transactional ? Map.of(ACKNOWLEDGEMENT_MODE_CONFIG, AcknowledgementMode.EXPLICIT.toString()) : Map.of();
    }

    /** The definition of every SDK setting of the share consumer (for documentation tools). */
    public static ConfigDef configDef() {
        return new ConfigDef(CONFIG);
    }

    /** A copy of {@code clientConfig} without the SDK's keys. */
    public static Map<String, Object> withoutSdkKeys(Map<?, ?> clientConfig) {
        return TransactionalShareProducerConfig.withoutSdkKeys(clientConfig);
    }

    /** Whether {@code share.acknowledgement.mode=transactional} was asked for. */
    public boolean transactional() {
        Object mode = originals().get(ACKNOWLEDGEMENT_MODE_CONFIG);
        return mode != null && ACKNOWLEDGEMENT_MODE_TRANSACTIONAL.equalsIgnoreCase(mode.toString().trim());
    }

    /** The configured fallback: {@value #FALLBACK_EMULATE}, {@value #FALLBACK_AT_LEAST_ONCE} or {@value #FALLBACK_FAIL}. */
    public String fallback() {
        return getString(FALLBACK_CONFIG);
    }

    /** The ledger topic of this consumer's group: {@code <prefix><group>}, or the shared one when configured; null without a group. */
    public String ledgerTopic() {
        String group = groupId();
        return group == null ? getString(LEDGER_TOPIC_CONFIG) : ledger().topicFor(group);
    }

    /** Replication factor of the ledger topic when created by the SDK. */
    public short ledgerReplicationFactor() {
        return getShort(LEDGER_REPLICATION_FACTOR_CONFIG);
    }

    /** Ledger bytes between snapshots. */
    public long maxBytesBetweenSnapshots() {
        return getLong(LEDGER_MAX_BYTES_BETWEEN_SNAPSHOTS_CONFIG);
    }

    ModeDecision.Fallback transactionalFallback() {
        return ShareTransactionConfigs.fallback(this);
    }

    String modeTopicPrefix() {
        return ShareTransactionConfigs.modeTopicPrefix(this);
    }

    LedgerSettings ledger() {
        return ShareTransactionConfigs.ledgerSettings(this);
    }

    /** The KIP-1327 settings, or empty when {@value #AUTO_OFFSET_RESET_NEW_PARTITIONS_CONFIG} is not set. */
    Optional<ShareResetOptions> newPartitionsReset() {
        String newPolicy = getString(AUTO_OFFSET_RESET_NEW_PARTITIONS_CONFIG);
        if (newPolicy == null || newPolicy.isBlank()) {
            return Optional.empty();
        }
        return Optional.of(new ShareResetOptions(ResetPolicy.parse(getString(AUTO_OFFSET_RESET_CONFIG)), ResetPolicy.parse(newPolicy),
                NewPartitionsMode.valueOf(getString(GaplessConsumerConfig.NEW_PARTITIONS_MODE_CONFIG).toUpperCase(Locale.ROOT)),
                BaselineTopic.of(getString(GaplessConsumerConfig.BASELINE_TOPIC_CONFIG),
                        getString(GaplessConsumerConfig.BASELINE_TOPIC_PREFIX_CONFIG), groupId()),
                Duration.ofMillis(getLong(GaplessConsumerConfig.BASELINE_TIMEOUT_MS_CONFIG)), getLong(PARTITION_CHECK_INTERVAL_MS_CONFIG)));
    }

    /** {@code group.id}, or null. */
    String groupId() {
        Object group = originals().get(ConsumerConfig.GROUP_ID_CONFIG);
        return group == null ? null : group.toString();
    }

    /** {@code client.id}, or the id Kafka's consumer would have given itself. */
    String clientId() {
        return clientId;
    }

    /** The Kafka consumer's settings: no SDK or KIP-1327 keys, and the acknowledgement mode it runs in. */
    Map<String, Object> kafkaConsumerConfigs() {
        Map<String, Object> kafka = withoutSdkKeys(originals());
        kafka.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        kafka.remove(AUTO_OFFSET_RESET_CONFIG);
        kafka.remove(AUTO_OFFSET_RESET_NEW_PARTITIONS_CONFIG);
        if (transactional()) {
            kafka.put(ACKNOWLEDGEMENT_MODE_CONFIG, getString(ACKNOWLEDGEMENT_MODE_CONFIG));
        }
        return kafka;
    }

    /**
     * Whether {@code share.acknowledgement.mode=explicit} was asked for: KIP-1289 as Kafka ships it,
     * where the application's acknowledgements can be taken for a transaction with
     * {@code acknowledgementsForTransaction()}.
     */
    boolean explicitMode() {
        return explicitAcknowledgement() && !transactional();
    }

    /** Whether the Kafka consumer underneath acknowledges explicitly. */
    boolean explicitAcknowledgement() {
        return AcknowledgementMode.EXPLICIT.toString().equalsIgnoreCase(getString(ACKNOWLEDGEMENT_MODE_CONFIG));
    }
}
