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

/**
 * Where a share group's ledger partition stands, as a streaming inspection
 * ({@link LedgerInspection#inspect(java.util.Map, LedgerSettings, String, java.time.Duration, LedgerVisitor)})
 * found it; its records went to the visitor.
 *
 * @param groupId            the share group
 * @param topic              the ledger topic
 * @param topicExists        whether the ledger topic exists (inspecting never creates it); everything else is -1 or 0 when not
 * @param partition          the ledger partition holding the group's entries; -1 when the topic does not exist
 * @param logStartOffset     the partition's log start offset
 * @param lastStableOffset   the partition's last stable offset: every entry below it has a final fate
 * @param highWatermark      the partition's high watermark
 * @param bytesSinceSnapshot committed entry bytes (all groups of the partition) read since the last snapshot
 * @since 0.1.0
 */
public record LedgerOffsets(String groupId, String topic, boolean topicExists, int partition, long logStartOffset,
                            long lastStableOffset, long highWatermark, long bytesSinceSnapshot) {
}
