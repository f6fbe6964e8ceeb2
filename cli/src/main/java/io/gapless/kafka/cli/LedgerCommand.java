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

import io.gapless.kafka.share.GaplessShareConfig;
import io.gapless.kafka.share.ledger.LedgerInspection;
import io.gapless.kafka.share.ledger.LedgerRange;
import io.gapless.kafka.share.ledger.LedgerReport;
import io.gapless.kafka.share.ledger.LedgerSettings;
import io.gapless.kafka.share.ledger.ShareKey;
import io.gapless.kafka.share.txn.TransactionalShareProducerConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** {@code gapless ledger status|dump <group>}: a share group's ack ledger (KIP-1289 emulation), through {@link LedgerInspection}. */
@Command(name = "ledger", description = "The ack ledger: the transactional share acknowledgements of a share group (KIP-1289 emulation).",
        subcommands = {LedgerCommand.Status.class, LedgerCommand.Dump.class})
final class LedgerCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "Missing required subcommand: status or dump");
    }

    /** Reads the group's ledger with the ledger settings of the command config; fails when the ledger knows nothing of the group. */
    static LedgerReport inspect(ConnectionOptions connection, String group) {
        Map<String, Object> config = connection.clientConfig();
        LedgerSettings settings = new TransactionalShareProducerConfig(config).ledger();
        LedgerReport report = LedgerInspection.inspect(config, settings, group, connection.timeout());
        String settingsKeys = GaplessShareConfig.LEDGER_TOPIC_PREFIX_CONFIG + " or " + GaplessShareConfig.LEDGER_TOPIC_CONFIG;
        if (!report.topicExists()) {
            throw new CommandFailure("Share group '" + group + "' has no ack ledger: its ledger topic " + report.topic()
                    + " does not exist (the group never committed transactional share acknowledgements on this cluster, or "
                    + settingsKeys + " differs from the group's clients)");
        }
        if (!report.groupSeen()) {
            throw new CommandFailure("Share group '" + group + "' has no records in ack ledger " + report.topic() + "-" + report.partition()
                    + " (offsets " + report.logStartOffset() + " to " + report.highWatermark() + "): it never committed transactional"
                    + " share acknowledgements, or " + settingsKeys + " differs from the group's clients");
        }
        return report;
    }

    @Command(name = "status", description = "Offsets, entries by fate, open transactions, snapshots and bytes since the last snapshot.")
    static final class Status extends ClusterCommand {
        @Parameters(paramLabel = "<group>", description = "The share group.")
        String group;

        @Override
        public Integer call() {
            LedgerReport r = inspect(connection, group);
            long snapshotBytes = new TransactionalShareProducerConfig(connection.clientConfig()).ledger().maxBytesBetweenSnapshots();
            PrintWriter out = out();
            out.printf("Share group '%s': ack ledger %s, partition %d%n", r.groupId(), r.topic(), r.partition());
            row(out, "offsets", "log start " + r.logStartOffset() + ", last stable " + r.lastStableOffset() + ", high watermark " + r.highWatermark());
            row(out, "entries", r.entries().size() + " (" + r.count(LedgerReport.Fate.COMMITTED) + " committed, of them "
                    + r.entries().stream().filter(LedgerReport.Entry::confirmed).count() + " confirmed; "
                    + r.count(LedgerReport.Fate.ABORTED) + " aborted, " + r.count(LedgerReport.Fate.OPEN) + " open)");
            row(out, "open transactions", r.openTransactions().isEmpty() ? "none" : r.entries().stream()
                    .filter(e -> e.fate() == LedgerReport.Fate.OPEN)
                    .map(e -> e.transactionalId() + " (entry at offset " + e.offset() + ")").collect(Collectors.joining(", ")));
            if (r.snapshots().isEmpty()) {
                row(out, "snapshots", "none");
            } else {
                LedgerReport.Snapshot last = r.snapshots().get(r.snapshots().size() - 1);
                row(out, "snapshots", r.snapshots().size() + ", latest at offset " + last.offset() + " covering offsets below " + last.coversBelow());
                row(out, "watermarks", last.watermarks().isEmpty() ? "none" : last.watermarks().entrySet().stream()
                        .map(w -> name(w.getKey()) + (w.getValue() == Long.MAX_VALUE ? " (topic deleted)" : " below " + w.getValue()))
                        .collect(Collectors.joining(", ")));
            }
            row(out, "bytes since snapshot", r.bytesSinceSnapshot() + " (a snapshot is written at " + snapshotBytes + ", "
                    + GaplessShareConfig.LEDGER_MAX_BYTES_BETWEEN_SNAPSHOTS_CONFIG + ")");
            return 0;
        }
    }

    @Command(name = "dump", description = "Every ledger record of the group in log order: entries with their ranges and fates, and snapshots.")
    static final class Dump extends ClusterCommand {
        @Parameters(paramLabel = "<group>", description = "The share group.")
        String group;

        @Override
        public Integer call() {
            LedgerReport r = inspect(connection, group);
            PrintWriter out = out();
            out.printf("Share group '%s': ack ledger %s, partition %d, offsets %d to %d (last stable %d)%n", r.groupId(), r.topic(),
                    r.partition(), r.logStartOffset(), r.highWatermark(), r.lastStableOffset());
            String format = "%-8s %-9s %-10s %-24s %-28s %s%n";
            out.printf("(fate committed+: committed and confirmed, the group accepted its acknowledgements)%n");
            out.printf(format, "OFFSET", "RECORD", "FATE", "TRANSACTIONAL-ID", "SHARE-PARTITION", "CONTENT");
            Map<Long, Runnable> lines = new TreeMap<>();
            for (LedgerReport.Entry e : r.entries()) {
                String fate = e.fate().name().toLowerCase(java.util.Locale.ROOT) + (e.confirmed() ? "+" : "");
                lines.put(e.offset(), () -> e.ranges().forEach((key, ranges) -> out.printf(format, e.offset(), "entry",
                        fate, e.transactionalId(), name(key), ranges(ranges, false))));
            }
            for (LedgerReport.Snapshot s : r.snapshots()) {
                lines.put(s.offset(), () -> {
                    out.printf(format, s.offset(), "snapshot", "-", "-", "-", "covers offsets below " + s.coversBelow());
                    s.watermarks().forEach((key, wm) -> out.printf(format, "", "", "", "", name(key),
                            wm == Long.MAX_VALUE ? "topic deleted" : "pruned below " + wm));
                    s.ranges().forEach((key, ranges) -> out.printf(format, "", "", "", "", name(key), ranges(ranges, true)));
                });
            }
            lines.values().forEach(Runnable::run);
            return 0;
        }
    }

    private static String name(ShareKey key) {
        return key.topic() + "-" + key.partition();
    }

    private static String ranges(List<LedgerRange> ranges, boolean withEntry) {
        return ranges.stream().map(r -> r.first() + "-" + r.last() + " " + r.acknowledgeType() + " (delivery " + r.deliveryCount()
                + (withEntry ? ", entry " + r.ledgerOffset() + " of " + r.transactionalId() : "") + ")").collect(Collectors.joining(", "));
    }

    private static void row(PrintWriter out, String label, String value) {
        out.printf("  %-21s %s%n", label, value);
    }
}
