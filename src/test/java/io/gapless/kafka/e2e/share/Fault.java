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
package io.gapless.kafka.e2e.share;

/** The faults of KIP-1289 section 6, plus lock expiry and member churn. */
enum Fault {
    /** Case 1: killed after poll, before beginTransaction(). */
    CRASH_BEFORE_BEGIN("halt=before-begin"),
    /** Case 2: killed after sending the output, before staging the acknowledgements. */
    CRASH_AFTER_SEND("halt=after-send"),
    /** Case 3: killed after sendShareAcknowledgementsToTransaction(), before commitTransaction(). */
    CRASH_AFTER_STAGE("halt=after-stage"),
    /** Case 3 inside the SDK: killed with the ledger entry written in the open transaction. */
    CRASH_LEDGER_WRITTEN("halt=ledger-written"),
    /** Case 4: killed after the commit, before the acknowledgements reach the broker. */
    CRASH_AFTER_COMMIT("halt=committed"),
    /** Case 5: a stalled holder is fenced by a successor with the same transactional.id. */
    FENCED_ZOMBIE("stall=stdin"),
    /** Case 6: explicit abortTransaction(). */
    EXPLICIT_ABORT("abort=true"),
    /** Case 7: one send of the transaction fails; the transaction aborts. */
    PARTIAL_PRODUCE_FAILURE("partial=true"),
    /** A holder paused past its lock (in-process stall and SIGSTOP) while another member takes over. */
    LOCK_EXPIRY("stall=2500", "stallAgain=true"),
    /** Members killed with SIGKILL at random times and replaced. */
    MEMBER_CHURN();

    final String[] workerArgs;

    Fault(String... workerArgs) {
        this.workerArgs = workerArgs;
    }

    boolean halts() {
        return workerArgs.length > 0 && workerArgs[0].startsWith("halt=");
    }
}
