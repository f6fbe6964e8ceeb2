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
import io.gapless.kafka.share.ledger.LedgerOffsets;
import io.gapless.kafka.share.ledger.LedgerRange;
import io.gapless.kafka.share.ledger.LedgerReport;
import io.gapless.kafka.share.ledger.LedgerVisitor;
import io.gapless.kafka.share.ledger.LedgerSettings;
import io.gapless.kafka.share.ledger.ShareKey;
import io.gapless.kafka.share.txn.LedgerLoss;
import io.gapless.kafka.share.txn.TransactionalShareGroups;
import io.gapless.kafka.share.txn.TransactionalShareProducerConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/** {@code gapless ledger status|dump|accept-loss <group>}: a share group's ack ledger (KIP-1289 emulation), through {@link LedgerInspection}. */
@Command(name = "ledger", description = "The ack ledger: the transactional share acknowledgements of a share group (KIP-1289 emulation).",
        subcommands = {LedgerCommand.Status.class, LedgerCommand.Dump.class, LedgerCommand.AcceptLoss.class})
final class LedgerCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "Missing required subcommand: status, dump or accept-loss");
    }

    /**
     * Streams the group's ledger to {@code visitor} with the ledger settings of the command config;
     * fails when the ledger topic does not exist, or (after the read) when it knows nothing of the group.
     */
    static LedgerOffsets inspect(ConnectionOptions connection, String group, GroupVisitor visitor) {
        Map<String, Object> config = connection.clientConfig();
        LedgerSettings settings = new TransactionalShareProducerConfig(config).ledger();
        LedgerOffsets offsets = LedgerInspection.inspect(config, settings, group, connection.timeout(), visitor);
        String settingsKeys = GaplessShareConfig.LEDGER_TOPIC_PREFIX_CONFIG + " or " + GaplessShareConfig.LEDGER_TOPIC_CONFIG;
        if (!offsets.topicExists()) {
            throw new CommandFailure("Share group '" + group + "' has no ack ledger: its ledger topic " + offsets.topic()
                    + " does not exist (the group never committed transactional share acknowledgements on this cluster, or "
                    + settingsKeys + " differs from the group's clients)");
        }
        if (!visitor.seen) {
            throw new CommandFailure("Share group '" + group + "' has no records in ack ledger " + offsets.topic() + "-" + offsets.partition()
                    + " (offsets " + offsets.logStartOffset() + " to " + offsets.highWatermark() + "): it never committed transactional"
                    + " share acknowledgements, or " + settingsKeys + " differs from the group's clients");
        }
        return offsets;
    }

    /**
     * A visitor that starts on the first record that mentions the group: snapshots before it that
     * say nothing of the group wait (there are few, one per snapshot interval), so that a ledger
     * without the group prints nothing before its error.
     */
    abstract static class GroupVisitor implements LedgerVisitor {
        private final List<LedgerReport.Snapshot> waiting = new ArrayList<>();
        boolean seen;

        abstract void onEntry(LedgerReport.Entry entry);

        abstract void onSnapshot(LedgerReport.Snapshot snapshot);

        @Override
        public final void entry(LedgerReport.Entry entry) {
            see();
            onEntry(entry);
        }

        @Override
        public final void snapshot(LedgerReport.Snapshot snapshot) {
            if (!seen && snapshot.watermarks().isEmpty() && snapshot.ranges().isEmpty()) {
                waiting.add(snapshot);
                return;
            }
            see();
            onSnapshot(snapshot);
        }

        private void see() {
            if (!seen) {
                seen = true;
                waiting.forEach(this::onSnapshot);
                waiting.clear();
            }
        }
    }

    /** What {@code status} prints, counted as the records go by. */
    static final class Tally extends GroupVisitor {
        final Map<LedgerReport.Fate, Long> byFate = new EnumMap<>(LedgerReport.Fate.class);
        long entries;
        long confirmed;
        final List<String> open = new ArrayList<>();
        long snapshots;
        LedgerReport.Snapshot last;

        @Override
        void onEntry(LedgerReport.Entry e) {
            entries++;
            byFate.merge(e.fate(), 1L, Long::sum);
            if (e.confirmed()) {
                confirmed++;
            }
            if (e.fate() == LedgerReport.Fate.OPEN) {
                open.add(e.transactionalId() + " (entry at offset " + e.offset() + ")");
            }
        }

        @Override
        void onSnapshot(LedgerReport.Snapshot snapshot) {
            snapshots++;
            last = snapshot;
        }

        long count(LedgerReport.Fate fate) {
            return byFate.getOrDefault(fate, 0L);
        }
    }

    @Command(name = "status", description = "Offsets, entries by fate, open transactions, snapshots and bytes since the last snapshot.")
    static final class Status extends ClusterCommand {
        @Parameters(paramLabel = "<group>", description = "The share group.")
        String group;

        @Override
        public Integer call() {
            Tally t = new Tally();
            LedgerOffsets r = inspect(connection, group, t);
            long snapshotBytes = new TransactionalShareProducerConfig(connection.clientConfig()).ledger().maxBytesBetweenSnapshots();
            PrintWriter out = out();
            out.printf("Share group '%s': ack ledger %s, partition %d%n", r.groupId(), r.topic(), r.partition());
            row(out, "offsets", "log start " + r.logStartOffset() + ", last stable " + r.lastStableOffset() + ", high watermark " + r.highWatermark());
            row(out, "entries", t.entries + " (" + t.count(LedgerReport.Fate.COMMITTED) + " committed, of them " + t.confirmed + " confirmed; "
                    + t.count(LedgerReport.Fate.ABORTED) + " aborted, " + t.count(LedgerReport.Fate.OPEN) + " open)");
            row(out, "open transactions", t.open.isEmpty() ? "none" : String.join(", ", t.open));
            if (t.last == null) {
                row(out, "snapshots", "none");
            } else {
                row(out, "snapshots", t.snapshots + ", latest at offset " + t.last.offset() + " covering offsets below " + t.last.coversBelow());
                row(out, "watermarks", t.last.watermarks().isEmpty() ? "none" : t.last.watermarks().entrySet().stream()
                        .map(w -> name(w.getKey()) + (w.getValue() == Long.MAX_VALUE ? " (topic deleted)" : " below " + w.getValue()))
                        .collect(Collectors.joining(", ")));
            }
            row(out, "bytes since snapshot", r.bytesSinceSnapshot() + " (a snapshot is written at " + snapshotBytes + ", "
                    + GaplessShareConfig.LEDGER_MAX_BYTES_BETWEEN_SNAPSHOTS_CONFIG + ")");
            return 0;
        }
    }

    @Command(name = "dump", description = "Every ledger record of the group in log order: entries with their ranges and fates, and snapshots."
            + " Streamed: the lines come as the ledger is read; the offsets are the ledger's when the dump started.")
    static final class Dump extends ClusterCommand {
        private static final String FORMAT = "%-8s %-9s %-10s %-24s %-28s %s%n";

        @Parameters(paramLabel = "<group>", description = "The share group.")
        String group;

        @Override
        public Integer call() {
            PrintWriter out = out();
            LedgerOffsets r = inspect(connection, group, new GroupVisitor() {
                private boolean header;

                @Override
                void onEntry(LedgerReport.Entry e) {
                    header();
                    String fate = e.fate().name().toLowerCase(Locale.ROOT) + (e.confirmed() ? "+" : "");
                    e.ranges().forEach((key, ranges) -> out.printf(FORMAT, e.offset(), "entry", fate, e.transactionalId(), name(key),
                            ranges(ranges, false)));
                }

                @Override
                void onSnapshot(LedgerReport.Snapshot s) {
                    header();
                    out.printf(FORMAT, s.offset(), "snapshot", "-", "-", "-", "covers offsets below " + s.coversBelow());
                    s.watermarks().forEach((key, wm) -> out.printf(FORMAT, "", "", "", "", name(key),
                            wm == Long.MAX_VALUE ? "topic deleted" : "pruned below " + wm));
                    s.ranges().forEach((key, ranges) -> out.printf(FORMAT, "", "", "", "", name(key), ranges(ranges, true)));
                }

                private void header() {
                    if (!header) {
                        header = true;
                        out.printf("Share group '%s': ack ledger, read from its log start to the high watermark%n", group);
                        out.printf("(fate committed+: committed and confirmed, the group accepted its acknowledgements)%n");
                        out.printf(FORMAT, "OFFSET", "RECORD", "FATE", "TRANSACTIONAL-ID", "SHARE-PARTITION", "CONTENT");
                    }
                }
            });
            out.printf("Ack ledger %s, partition %d, offsets %d to %d (last stable %d)%n", r.topic(), r.partition(), r.logStartOffset(),
                    r.highWatermark(), r.lastStableOffset());
            return 0;
        }
    }

    @Command(name = "accept-loss", description = "Accepts that the group's ack-ledger history is lost (its ledger topic deleted, re-created"
            + " or replaced) and binds the group to the ledger its clients are configured with; prints the offsets whose records may"
            + " be processed again. Until then the group's transactions fail with LedgerHistoryLostException.")
    static final class AcceptLoss extends ClusterCommand {
        @Parameters(paramLabel = "<group>", description = "The share group.")
        String group;

        @Override
        public Integer call() {
            LedgerLoss loss = TransactionalShareGroups.acceptLedgerLoss(connection.clientConfig(), group);
            PrintWriter out = out();
            out.printf("Share group '%s': bound to ack ledger %s (topic id %s); replaced %s%n", loss.group(), loss.ledgerTopic(),
                    loss.ledgerTopicId(), loss.replaced());
            row(out, "may be processed again", loss.inFlight().isEmpty() ? "none" : loss.inFlight().entrySet().stream()
                    .map(e -> e.getKey() + " offsets " + e.getValue()).collect(Collectors.joining(", ")));
            return 0;
        }
    }

    private static String name(ShareKey key) {
        return key.topic() + "-" + key.partition();
    }

    private static String ranges(List<LedgerRange> ranges, boolean withEntry) {
        return ranges.stream().map(r -> r.first() + "-" + r.last() + " " + r.acknowledgeType() + " (delivery " + r.deliveryCount()
                + (withEntry ? (r.compacted() ? ", compacted, entries up to " + r.ledgerOffset() : ", entry " + r.ledgerOffset() + " of "
                + r.transactionalId()) : "") + ")").collect(Collectors.joining(", "));
    }

    private static void row(PrintWriter out, String label, String value) {
        out.printf("  %-21s %s%n", label, value);
    }
}
