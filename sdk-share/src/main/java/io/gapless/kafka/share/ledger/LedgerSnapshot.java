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
 * there was resolved when it was taken), pruned below the share-partition start offsets recorded
 * as {@code watermarks}, with the confirmed entries of the ranges it keeps. A reader that applies
 * it may forget every record below {@code coversBelow}.
 */
record LedgerSnapshot(long coversBelow, Map<ShareKey, Watermark> watermarks, Map<ShareKey, List<LedgerRange>> ranges,
                      Map<ShareKey, Set<Long>> confirmed) {

    LedgerSnapshot(long coversBelow, Map<ShareKey, Watermark> watermarks, Map<ShareKey, List<LedgerRange>> ranges) {
        this(coversBelow, watermarks, ranges, Map.of());
    }
}
