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
package io.gapless.kafka.share.ledger;

import io.gapless.kafka.core.spi.ConnectionConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Read-only inspection of one share group's ack ledger, for operators and tools (the
 * {@code gapless ledger} commands). It reads the group's ledger partition with the same views and
 * record format as the producers (a read_uncommitted view for every entry, a read_committed view
 * for the fates and the bytes since the last snapshot), writes nothing, fences nobody and never
 * creates the ledger topic.
 *
 * @since 0.1.0
 */
public final class LedgerInspection {
    private LedgerInspection() {
    }

    /**
     * Reads the ledger of {@code groupId} up to its high watermark, holding every record in the
     * report: for a large ledger use the streaming form with a {@link LedgerVisitor}.
     *
     * @param connection the connection and security settings of the clients to read with
     * @param settings   the ledger settings the group's clients use (their {@code gapless.ledger.*} values)
     * @param timeout    upper bound of the whole inspection
     * @throws IllegalArgumentException when {@code groupId} is blank
     * @throws KafkaException           (Kafka's own subclasses, e.g. {@link TimeoutException}) when the ledger cannot be read in time
     */
    public static LedgerReport inspect(Map<String, Object> connection, LedgerSettings settings, String groupId, Duration timeout) {
        List<LedgerReport.Entry> entries = new ArrayList<>();
        List<LedgerReport.Snapshot> snapshots = new ArrayList<>();
        LedgerOffsets o = inspect(connection, settings, groupId, timeout, new LedgerVisitor() {
            @Override
            public void entry(LedgerReport.Entry entry) {
                entries.add(entry);
            }

            @Override
            public void snapshot(LedgerReport.Snapshot snapshot) {
                snapshots.add(snapshot);
            }
        });
        return new LedgerReport(o.groupId(), o.topic(), o.topicExists(), o.partition(), o.logStartOffset(), o.lastStableOffset(),
                o.highWatermark(), entries, snapshots, o.bytesSinceSnapshot());
    }

    /**
     * Reads the ledger of {@code groupId} up to its high watermark and hands each of the group's
     * entries and each snapshot to {@code visitor} as it is read, in log order. Memory stays
     * bounded by the ledger index the group's own producers hold (compact runs, pruned at each
     * snapshot), not by the number of records: a read_committed pass builds that index first (for
     * the bytes since the last snapshot and the confirmations), then a read_uncommitted pass lists
     * the records while a second read_committed reader, kept just ahead of it, tells each entry's
     * fate. Nothing is written, nobody is fenced, the ledger topic is never created.
     *
     * @param connection the connection and security settings of the clients to read with
     * @param settings   the ledger settings the group's clients use (their {@code gapless.ledger.*} values)
     * @param timeout    upper bound of the whole inspection, the visitor's time included
     * @param visitor    gets the records; it runs on the calling thread
     * @return the partition's offsets, read before the records
     * @throws IllegalArgumentException when {@code groupId} is blank
     * @throws KafkaException           (Kafka's own subclasses, e.g. {@link TimeoutException}) when the ledger cannot be read in
     *                                  time; the visitor may have had part of the records then
     * @since 0.1.0
     */
    public static LedgerOffsets inspect(Map<String, Object> connection, LedgerSettings settings, String groupId, Duration timeout,
                                        LedgerVisitor visitor) {
        Objects.requireNonNull(connection, "connection");
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(visitor, "visitor");
        if (groupId == null || groupId.isBlank()) {
            throw new IllegalArgumentException("groupId must not be blank, got '" + groupId + "'");
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        TopicPartition tp = AckLedger.partitionOf(settings, groupId);
        Map<String, Object> adminConfig = ConnectionConfigs.from(connection, "ledger-inspect-admin");
        // Calls the inspection gave up on must not keep close() waiting for Admin's own (longer) timeout.
        adminConfig.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) Math.min(Integer.MAX_VALUE, timeout.toMillis()));
        adminConfig.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) Math.min(30_000, timeout.toMillis()));
        Admin admin = Admin.create(adminConfig);
        try {
            if (!LedgerTopic.exists(admin, tp.topic())) {
                return new LedgerOffsets(groupId, tp.topic(), false, -1, -1, -1, -1, 0);
            }
            long logStart = offset(admin, tp, OffsetSpec.earliest(), IsolationLevel.READ_UNCOMMITTED, deadline);
            long stable = offset(admin, tp, OffsetSpec.latest(), IsolationLevel.READ_COMMITTED, deadline);
            long high = offset(admin, tp, OffsetSpec.latest(), IsolationLevel.READ_UNCOMMITTED, deadline);
            try (LedgerView committedView = new LedgerView(ConnectionConfigs.from(connection, "ledger-inspect-committed"),
                    IsolationLevel.READ_COMMITTED)) {
                committedView.catchUpTo(tp, stable, deadline);
                LedgerIndex index = committedView.index(tp);
                list(connection, tp, groupId, stable, high, index, visitor, deadline);
                return new LedgerOffsets(groupId, tp.topic(), true, tp.partition(), logStart, stable, high, index.bytesSinceSnapshot());
            }
        } finally {
            admin.close(Duration.ZERO);
        }
    }

    /** The listing pass: every record to the high watermark, each entry's fate from a read_committed reader just ahead. */
    private static void list(Map<String, Object> connection, TopicPartition tp, String groupId, long stable, long high, LedgerIndex index,
                             LedgerVisitor visitor, long deadline) {
        // Offsets below the last stable offset that the read_committed reader returned and the listing has not reached yet.
        ArrayDeque<Long> committedAhead = new ArrayDeque<>();
        long[] listed = {-1};
        try (LedgerView fates = new LedgerView(ConnectionConfigs.from(connection, "ledger-inspect-fates"), IsolationLevel.READ_COMMITTED,
                (p, offset, record, bytes) -> committedAhead.add(offset), false);
             LedgerView everything = new LedgerView(ConnectionConfigs.from(connection, "ledger-inspect-all"), IsolationLevel.READ_UNCOMMITTED,
                     (p, offset, record, bytes) -> {
                         if (offset <= listed[0]) {
                             return; // re-read after a truncation under us: listed already
                         }
                         listed[0] = offset;
                         if (record instanceof LedgerEntry entry) {
                             Map<ShareKey, List<LedgerRange>> mine = ofGroup(entry.ranges(), groupId);
                             if (!mine.isEmpty()) {
                                 if (offset < stable) {
                                     fates.readTo(tp, offset + 1, deadline);
                                 }
                                 LedgerReport.Fate fate = offset >= stable ? LedgerReport.Fate.OPEN
                                         : committedAhead(committedAhead, offset) ? LedgerReport.Fate.COMMITTED : LedgerReport.Fate.ABORTED;
                                 boolean confirmed = fate == LedgerReport.Fate.COMMITTED
                                         && mine.keySet().stream().allMatch(k -> index.confirmed(k, offset));
                                 visitor.entry(new LedgerReport.Entry(offset, entry.transactionalId(), fate, mine, confirmed, bytes));
                             }
                         } else if (record instanceof LedgerSnapshot snapshot) {
                             Map<ShareKey, Long> watermarks = new LinkedHashMap<>();
                             snapshot.watermarks().forEach((k, w) -> {
                                 if (k.group().equals(groupId)) {
                                     watermarks.put(k, w.offset());
                                 }
                             });
                             visitor.snapshot(new LedgerReport.Snapshot(offset, snapshot.coversBelow(), watermarks, ofGroup(snapshot.ranges(), groupId)));
                         }
                     }, false)) {
            everything.readTo(tp, high, deadline);
        }
    }

    private static boolean committedAhead(ArrayDeque<Long> committedAhead, long offset) {
        while (!committedAhead.isEmpty() && committedAhead.peekFirst() < offset) {
            committedAhead.pollFirst();
        }
        return !committedAhead.isEmpty() && committedAhead.peekFirst() == offset;
    }

    private static Map<ShareKey, List<LedgerRange>> ofGroup(Map<ShareKey, List<LedgerRange>> ranges, String groupId) {
        Map<ShareKey, List<LedgerRange>> out = new LinkedHashMap<>();
        ranges.forEach((k, v) -> {
            if (k.group().equals(groupId)) {
                out.put(k, v);
            }
        });
        return out;
    }

    private static long offset(Admin admin, TopicPartition tp, OffsetSpec spec, IsolationLevel isolation, long deadline) {
        return await(() -> admin.listOffsets(Map.of(tp, spec), new ListOffsetsOptions(isolation)).partitionResult(tp)
                .get(remainingMs(deadline), TimeUnit.MILLISECONDS).offset(), "list the offsets of ack ledger " + tp);
    }

    private interface Call<T> {
        T call() throws Exception;
    }

    private static <T> T await(Call<T> call, String what) {
        try {
            return call.call();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new org.apache.kafka.common.errors.InterruptException(e);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new TimeoutException("Timed out trying to " + what, e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof KafkaException k) {
                throw k;
            }
            throw new KafkaException("Cannot " + what + ": " + e.getCause(), e.getCause());
        } catch (KafkaException e) {
            throw e;
        } catch (Exception e) {
            throw new KafkaException("Cannot " + what + ": " + e, e);
        }
    }

    private static long remainingMs(long deadline) {
        return Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
    }
}
