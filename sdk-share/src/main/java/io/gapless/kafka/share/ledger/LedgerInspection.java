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
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
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
     * Reads the ledger of {@code groupId} up to its high watermark.
     *
     * @param connection the connection and security settings of the clients to read with
     * @param settings   the ledger settings the group's clients use (their {@code gapless.ledger.*} values)
     * @param timeout    upper bound of the whole inspection
     * @throws IllegalArgumentException when {@code groupId} is blank
     * @throws KafkaException           (Kafka's own subclasses, e.g. {@link TimeoutException}) when the ledger cannot be read in time
     */
    public static LedgerReport inspect(Map<String, Object> connection, LedgerSettings settings, String groupId, Duration timeout) {
        Objects.requireNonNull(connection, "connection");
        Objects.requireNonNull(settings, "settings");
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
                return new LedgerReport(groupId, tp.topic(), false, -1, -1, -1, -1, List.of(), List.of(), 0);
            }
            long logStart = offset(admin, tp, OffsetSpec.earliest(), IsolationLevel.READ_UNCOMMITTED, deadline);
            long stable = offset(admin, tp, OffsetSpec.latest(), IsolationLevel.READ_COMMITTED, deadline);
            long high = offset(admin, tp, OffsetSpec.latest(), IsolationLevel.READ_UNCOMMITTED, deadline);

            Map<Long, Object> all = new TreeMap<>();
            Map<Long, Integer> sizes = new TreeMap<>();
            Set<Long> committed = new HashSet<>();
            List<LedgerReport.Entry> entries = new ArrayList<>();
            List<LedgerReport.Snapshot> snapshots = new ArrayList<>();
            long bytesSinceSnapshot;
            try (LedgerView everything = new LedgerView(ConnectionConfigs.from(connection, "ledger-inspect-all"),
                    IsolationLevel.READ_UNCOMMITTED, (p, offset, record, bytes) -> {
                        all.put(offset, record);
                        sizes.put(offset, bytes);
                    });
                 LedgerView committedView = new LedgerView(ConnectionConfigs.from(connection, "ledger-inspect-committed"),
                         IsolationLevel.READ_COMMITTED, (p, offset, record, bytes) -> committed.add(offset))) {
                everything.catchUpTo(tp, high, deadline);
                committedView.catchUpTo(tp, stable, deadline);
                LedgerIndex index = committedView.index(tp);
                bytesSinceSnapshot = index.bytesSinceSnapshot();
                all.forEach((offset, record) -> {
                    if (record instanceof LedgerEntry entry) {
                        Map<ShareKey, List<LedgerRange>> mine = ofGroup(entry.ranges(), groupId);
                        if (!mine.isEmpty()) {
                            LedgerReport.Fate fate = offset >= stable ? LedgerReport.Fate.OPEN
                                    : committed.contains(offset) ? LedgerReport.Fate.COMMITTED : LedgerReport.Fate.ABORTED;
                            boolean confirmed = fate == LedgerReport.Fate.COMMITTED && mine.keySet().stream().allMatch(k -> index.confirmed(k, offset));
                            entries.add(new LedgerReport.Entry(offset, entry.transactionalId(), fate, mine, confirmed, sizes.get(offset)));
                        }
                    } else if (record instanceof LedgerSnapshot snapshot) {
                        Map<ShareKey, Long> watermarks = new LinkedHashMap<>();
                        snapshot.watermarks().forEach((k, w) -> {
                            if (k.group().equals(groupId)) {
                                watermarks.put(k, w.offset());
                            }
                        });
                        snapshots.add(new LedgerReport.Snapshot(offset, snapshot.coversBelow(), watermarks, ofGroup(snapshot.ranges(), groupId)));
                    }
                });
            }
            return new LedgerReport(groupId, tp.topic(), true, tp.partition(), logStart, stable, high, entries, snapshots, bytesSinceSnapshot);
        } finally {
            admin.close(Duration.ZERO);
        }
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
