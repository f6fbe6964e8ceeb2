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
package io.gapless.kafka.share.txn;

import java.util.Locale;

/**
 * Named points of an emulated transactional commit, observable per producer for fault-injection
 * tests (a test process halts itself at one to simulate a crash there). Not part of the API: a
 * test passes a {@link Listener} instance under {@link #LISTENER_CONFIG} in the producer's config.
 *
 * @since 0.1.0
 */
public enum TransactionPhase {
    /** The ledger entries are written in the open transaction; nothing is committed. */
    LEDGER_WRITTEN,
    /** The ledger check passed; the transaction is about to commit. */
    CHECKED,
    /** The transaction committed; the acknowledgements have not been sent. */
    COMMITTED,
    /** The acknowledgements were sent. */
    ACKNOWLEDGED,
    /** After a commit: a ledger snapshot is written, nothing below it deleted yet. */
    SNAPSHOT_WRITTEN,
    /** After a commit: the deleteRecords request below a snapshot is issued, its answer not yet in. */
    SNAPSHOT_DELETE_ISSUED;

    /** Producer config key (internal, for tests) whose value is a {@link Listener} instance. */
    public static final String LISTENER_CONFIG = "gapless.internal.transaction.phase.listener";

    /** Called on the producer's thread when a commit reaches a phase. */
    @FunctionalInterface
    public interface Listener {
        Listener NONE = phase -> { };

        void reached(TransactionPhase phase);
    }

    /** The phase's name in lower case with hyphens, for example {@code ledger-written}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
