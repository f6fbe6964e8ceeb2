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
 * Receives a share group's ledger records one at a time, in log order, as
 * {@link LedgerInspection#inspect(java.util.Map, LedgerSettings, String, java.time.Duration, LedgerVisitor)}
 * reads them: nothing of the ledger is held for it, so a visitor that prints or counts inspects a
 * ledger of any size in bounded memory.
 *
 * @since 0.1.0
 */
public interface LedgerVisitor {
    /** One of the group's entries (with only the group's ranges). */
    void entry(LedgerReport.Entry entry);

    /** A snapshot (with only the group's watermarks and ranges); snapshots that say nothing of the group come too. */
    void snapshot(LedgerReport.Snapshot snapshot);
}
