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

/**
 * What one transaction acknowledges on one ledger partition. It is written inside the producer's
 * transaction, so it is committed exactly when the output is; each range carries the entry's
 * ledger offset once the entry has been read back (-1 before). It also carries the writer's
 * {@link LedgerConfirmation}s of earlier entries whose acknowledgements landed.
 *
 * @since 0.1.0
 */
public record LedgerEntry(String transactionalId, Map<ShareKey, List<LedgerRange>> ranges, List<LedgerConfirmation> confirmations) {

    /** An entry without confirmations. */
    public LedgerEntry(String transactionalId, Map<ShareKey, List<LedgerRange>> ranges) {
        this(transactionalId, ranges, List.of());
    }
}
