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

/**
 * The committed ledger state of one ledger partition below {@code coversBelow} (every transaction
 * there was resolved when it was taken): the share-partition start offsets it read as
 * {@code watermarks}, the committed ranges above them as they were written, the committed ranges
 * wholly below them compacted ({@link LedgerRange#COMPACTED}: evidence that those offsets' output
 * was committed), and the confirmed entries of the ranges it keeps. A reader that applies it may
 * forget every record below {@code coversBelow}.
 *
 * <p>{@code claimedBelow}: per share-partition, offsets below it count as handled without
 * evidence. Only snapshots written before compaction (issue 22: they dropped the ranges below
 * their watermark) make such claims, their watermark being the claim; a snapshot carries the
 * claims it read forward. A record below a watermark and above any claim is handled only if a
 * (compacted) range holds it: a watermark alone says nothing of processing (a group initialized
 * at {@code latest} starts above records nobody processed).
 */
record LedgerSnapshot(long coversBelow, Map<ShareKey, Watermark> watermarks, Map<ShareKey, List<LedgerRange>> ranges,
                      Map<ShareKey, Set<Long>> confirmed, Map<ShareKey, Long> claimedBelow) {

    LedgerSnapshot(long coversBelow, Map<ShareKey, Watermark> watermarks, Map<ShareKey, List<LedgerRange>> ranges) {
        this(coversBelow, watermarks, ranges, Map.of(), Map.of());
    }
}
