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
package io.gapless.kafka.cli;

import io.gapless.kafka.core.BrokerCapabilities;
import io.gapless.kafka.core.GaplessConsumerConfig;
import io.gapless.kafka.core.NewPartitionsMode;
import io.gapless.kafka.core.ResetPolicy;
import io.gapless.kafka.core.spi.ModeDecision;
import io.gapless.kafka.share.GaplessShareConfig;
import io.gapless.kafka.share.admin.ShareGroupSetting;
import io.gapless.kafka.share.admin.ShareGroupSettings;
import io.gapless.kafka.share.admin.UnsupportedShareGroupSettingException;
import io.gapless.kafka.share.ledger.LedgerSettings;
import io.gapless.kafka.share.reset.ShareNewPartitionsReset;
import io.gapless.kafka.share.txn.AckPath;
import io.gapless.kafka.share.txn.NativeShareTransactions;
import io.gapless.kafka.share.txn.TransactionalShareProducerConfig;
import io.gapless.kafka.streams.GaplessStreams;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.apache.kafka.common.utils.internals.AppInfoParser;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * {@code gapless probe}: what each feature would run as against this cluster, and why, taken
 * from the same decisions the clients take at construction ({@code ModeDecision},
 * {@link GaplessStreams#decide}, {@link ShareNewPartitionsReset#decide}, {@link AckPath#decide})
 * with the settings of the command config ({@code gapless.new.partitions.mode},
 * {@code gapless.share.transactional.fallback}, ...). Nothing is changed or created.
 */
@Command(name = "probe", description = "What each feature would run as against this cluster (native, emulated or refused) and why."
        + " Reads gapless.* settings from the command config; changes nothing.")
final class ProbeCommand extends ClusterCommand {
    @Option(names = "--group", paramLabel = "<share group>", defaultValue = "gapless-probe",
            description = "Share group the group settings are checked against, validate-only (default: ${DEFAULT-VALUE}).")
    String group;

    private static final String FORMAT = "%-58s %-14s %s%n";

    @Override
    public Integer call() {
        Map<String, Object> config = connection.clientConfig();
        Map<String, Object> consumerConfig = new HashMap<>(config);
        consumerConfig.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        NewPartitionsMode mode = new GaplessConsumerConfig(consumerConfig).mode();
        TransactionalShareProducerConfig producerConfig = new TransactionalShareProducerConfig(config);
        LedgerSettings ledger = producerConfig.ledger();
        PrintWriter out = out();
        try (Admin admin = connection.admin()) {
            BrokerCapabilities caps = BrokerCapabilities.probe(admin, connection.timeout());
            ShareGroupSettings shareSettings = ShareGroupSettings.forGroup(admin, group).withTimeout(connection.timeout());
            out.printf("Cluster %s: finalized features %s%n", connection.bootstrapServer(), caps.finalizedLevels().entrySet().stream()
                    .map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(", ")));
            out.printf("kafka-clients %s; %s=%s, %s=%s%n%n", AppInfoParser.getVersion(), GaplessConsumerConfig.NEW_PARTITIONS_MODE_CONFIG,
                    mode.configValue(), GaplessShareConfig.FALLBACK_CONFIG, producerConfig.fallback());
            out.printf(FORMAT, "FEATURE", "RUNS AS", "WHY");
            Supplier<BrokerCapabilities> broker = () -> caps;
            row(out, "KIP-1327 GaplessConsumer, group.protocol=classic",
                    () -> ModeDecision.decide(true, mode, "classic", BrokerCapabilities.clientOnly(), broker));
            row(out, "KIP-1327 GaplessConsumer, group.protocol=consumer", () -> {
                require(caps.supportsConsumerProtocol(), "the broker does not run the consumer group protocol (KIP-848): group.version="
                        + caps.finalizedLevel("group.version"));
                return ModeDecision.decide(true, mode, "consumer", BrokerCapabilities.clientOnly(), broker);
            });
            row(out, "KIP-1327 Kafka Streams, group.protocol=classic", () -> GaplessStreams.decide(true, mode, "classic", broker));
            row(out, "KIP-1327 Kafka Streams, group.protocol=streams", () -> {
                require(caps.supportsStreamsProtocol(), "the broker does not run the streams group protocol (KIP-1071): streams.version="
                        + caps.finalizedLevel("streams.version"));
                return GaplessStreams.decide(true, mode, "streams", broker);
            });
            row(out, "KIP-1327 share groups, " + ShareGroupSetting.AUTO_OFFSET_RESET_NEW_PARTITIONS.key(), () -> {
                requireShareGroups(caps);
                return ShareNewPartitionsReset.decide(mode, shareSettings, ResetPolicy.EARLIEST);
            });
            row(out, "KIP-1289 transactional share acknowledgements", () -> {
                requireShareGroups(caps);
                ModeDecision d = AckPath.decide(NativeShareTransactions.reflective(config), producerConfig.fallback());
                return d.kind() == ModeDecision.Kind.EMULATE
                        ? new ModeDecision(d.kind(), d.reason() + " has no KIP-1289: the ack ledger " + ledger.describe() + " emulates it") : d;
            });
            row(out, "KIP-1349 " + ShareGroupSetting.MAX_RECORD_BYTES_BETWEEN_SNAPSHOTS.key() + " (group config)", () -> {
                requireShareGroups(caps);
                try {
                    shareSettings.update().maxRecordBytesBetweenSnapshots(1).validate();
                    return new ModeDecision(ModeDecision.Kind.NATIVE, "the broker knows the group config; share-settings set applies it");
                } catch (UnsupportedShareGroupSettingException e) {
                    throw new UnsupportedVersionException(e.getMessage() + "; share-settings set refuses it", e);
                }
            });
            row(out, "KIP-1349 bytes-based snapshots of the SDK's ack ledger", () -> new ModeDecision(ModeDecision.Kind.EMULATE,
                    "the producers snapshot the ledger every " + ledger.maxBytesBetweenSnapshots() + " bytes ("
                            + GaplessShareConfig.LEDGER_MAX_BYTES_BETWEEN_SNAPSHOTS_CONFIG + ")"));
        }
        return 0;
    }

    private static void require(boolean supported, String refusal) {
        if (!supported) {
            throw new UnsupportedVersionException(refusal);
        }
    }

    private static void requireShareGroups(BrokerCapabilities caps) {
        require(caps.supportsShareGroups(), "share groups are disabled on this cluster: share.version=" + caps.finalizedLevel("share.version"));
    }

    /** One feature: the decision's kind and reason; a decision that throws is refused (or, when the broker could not be asked, unknown). */
    private static void row(PrintWriter out, String feature, Supplier<ModeDecision> decision) {
        String runsAs;
        String why;
        try {
            ModeDecision d = decision.get();
            runsAs = switch (d.kind()) {
                case NATIVE -> "native";
                case EMULATE -> "emulated";
                case AT_LEAST_ONCE -> "at-least-once";
                case OFF -> "off";
            };
            why = d.reason();
        } catch (ConfigException | UnsupportedVersionException e) {
            runsAs = "refused";
            why = Failures.describe(e);
        } catch (KafkaException e) {
            runsAs = "unknown";
            why = "could not ask the cluster: " + Failures.describe(e);
        }
        out.printf(FORMAT, feature, runsAs, why);
    }
}
