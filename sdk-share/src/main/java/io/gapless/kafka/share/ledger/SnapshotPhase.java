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
 * Named points of a ledger snapshot, observable for fault-injection tests (see the producer's TransactionPhase).
 *
 * @since 0.1.0
 */
public enum SnapshotPhase {
    /** The snapshot record is written; nothing below it is deleted yet. */
    WRITTEN,
    /** The deleteRecords request below the snapshot's coverage is issued; its answer has not arrived. */
    DELETE_ISSUED
}
