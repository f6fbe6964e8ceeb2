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

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What the ack ledger holds for one share group, as {@link LedgerInspection#inspect} read it: the
 * ledger partition, its offsets, the group's entries with their transactions' fates, the
 * snapshots, and the bytes the committed view has read since the last snapshot (the quantity
 * KIP-1349's rule compares with {@code gapless.ledger.max.record.bytes.between.snapshots}).
 *
 * @param groupId            the share group
 * @param topic              the ledger topic
 * @param topicExists        whether the ledger topic exists (inspecting never creates it); everything else is empty when not
 * @param partition          the ledger partition holding the group's entries; -1 when the topic does not exist
 * @param logStartOffset     the partition's log start offset (records below were deleted after a snapshot)
 * @param lastStableOffset   the partition's last stable offset: every entry below it has a final fate
 * @param highWatermark      the partition's high watermark
 * @param entries            the group's entries from the log start to the high watermark, in log order, with only the group's ranges
 * @param snapshots          the snapshots in that part of the log, with only the group's watermarks and ranges
 * @param bytesSinceSnapshot committed entry bytes (all groups of the partition) read since the last snapshot
 * @since 0.1.0
 */
public record LedgerReport(String groupId, String topic, boolean topicExists, int partition, long logStartOffset,
                           long lastStableOffset, long highWatermark, List<Entry> entries, List<Snapshot> snapshots,
                           long bytesSinceSnapshot) {

    public LedgerReport {
        entries = List.copyOf(entries);
        snapshots = List.copyOf(snapshots);
    }

    /** The fate of an entry's transaction. */
    public enum Fate {
        /** Below the last stable offset and read by the read_committed view. */
        COMMITTED,
        /** Below the last stable offset and not committed. */
        ABORTED,
        /** At or above the last stable offset: its transaction is still open (or its end not yet replicated). */
        OPEN
    }

    /**
     * One ledger entry: what one transaction acknowledged.
     *
     * @param offset          its ledger offset
     * @param transactionalId the writer's {@code transactional.id}
     * @param fate            its transaction's fate
     * @param ranges          the group's share-partitions and the ranges the entry acknowledges there
     * @param confirmed       committed, and confirmed for each of those share-partitions (the group accepted its acknowledgements)
     * @param bytes           the record's size (key and value)
     */
    public record Entry(long offset, String transactionalId, Fate fate, Map<ShareKey, List<LedgerRange>> ranges, boolean confirmed,
                        int bytes) {
        public Entry {
            ranges = Map.copyOf(ranges);
        }
    }

    /**
     * One snapshot record.
     *
     * @param offset      its ledger offset
     * @param coversBelow every entry below this offset is in it (and may be deleted)
     * @param watermarks  the group's share-partitions and the start offsets below which their ranges were pruned
     *                    ({@link Long#MAX_VALUE}: the share-partition's topic was deleted)
     * @param ranges      the group's committed ranges it keeps
     */
    public record Snapshot(long offset, long coversBelow, Map<ShareKey, Long> watermarks, Map<ShareKey, List<LedgerRange>> ranges) {
        public Snapshot {
            watermarks = Map.copyOf(watermarks);
            ranges = Map.copyOf(ranges);
        }
    }

    /** Whether the ledger mentions the group at all (an entry, or a snapshot's watermark or range). */
    public boolean groupSeen() {
        return !entries.isEmpty() || snapshots.stream().anyMatch(s -> !s.watermarks().isEmpty() || !s.ranges().isEmpty());
    }

    /** The {@code transactional.id}s of the group's entries whose transactions are open. */
    public Set<String> openTransactions() {
        Set<String> out = new TreeSet<>();
        entries.stream().filter(e -> e.fate() == Fate.OPEN).forEach(e -> out.add(e.transactionalId()));
        return out;
    }

    /** The group's entries with this fate. */
    public long count(Fate fate) {
        return entries.stream().filter(e -> e.fate() == fate).count();
    }
}
