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

import io.gapless.kafka.share.ledger.LedgerSettings;
import io.gapless.kafka.share.txn.ShareLedgerModelChecker.Bounds;
import io.gapless.kafka.share.txn.ShareLedgerModelChecker.Result;
import org.apache.kafka.clients.consumer.MockShareConsumer;
import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Runs {@link ShareLedgerModelChecker} over the SDK's commit-check rules (no violation) and over the
 * rules before issue 22 (it must find their duplicates). Each run logs its state count and time.
 * The default build runs the bound of issue 22 (2 consumers and 2 producers, one transaction may
 * take both consumers; 3 records; delivery limit 2; a snapshot, with or without the ledger
 * truncated below it, possible after every commit; one crash anywhere) and, at smaller bounds, the
 * Kafka behaviours that bound leaves out: two share-partitions with a REJECTed record, the input
 * topic deleted and re-created, deleteRecords on the input, an offset reset or the group deleted and
 * re-created. Deeper bounds run under -Dgapless.soak=true.
 */
class ShareLedgerModelCheckerTest {
    private static final Logger log = LoggerFactory.getLogger(ShareLedgerModelCheckerTest.class);

    /** The bound of issue 22. */
    static final Bounds DEFAULT = new Bounds(2, 3, 2, 2, 1, true, false, false);
    /** A latest-initialized group (record 0 below its start) reset backwards: TRACE_LATEST_RESET. */
    static final Bounds LATEST_RESET = new Bounds(2, 2, 2, 2, 0, true, true, false).withLatestBacklog(1);

    private final List<ConsumerTransactionSupport<String, String>> consumers = new ArrayList<>();

    @AfterEach
    void close() {
        consumers.forEach(ConsumerTransactionSupport::close);
    }

    private List<ShareAckParticipant> participants(int n) {
        List<ShareAckParticipant> list = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ConsumerTransactionSupport<String, String> c = new ConsumerTransactionSupport<>(AckPath.LEDGER, new MockShareConsumer<>(), "g",
                    "c" + i, Map.of(), new LedgerSettings("l.", null, (short) -1, 1), t -> Uuid.ZERO_UUID);
            consumers.add(c);
            list.add(c);
        }
        return list;
    }

    private Result run(Bounds bounds, LedgerRules rules) {
        Result r = new ShareLedgerModelChecker(bounds, rules, participants(bounds.consumers())).run();
        log.info("Model checker, {}, {}: {} states ({} quiet) in {} ms{}", rules, bounds, r.states(), r.quietStates(), r.millis(),
                r.ok() ? "" : ": " + r.violation() + "\n  " + String.join("\n  ", r.trace()));
        return r;
    }

    private static void assertHolds(Result r) {
        assertTrue(r.ok(), () -> r.violation() + "\n  " + String.join("\n  ", r.trace()));
        assertTrue(r.quietStates() > 0, "the bounds let the system reach quiet states");
    }

    @Test
    void theCurrentRulesCommitEveryInputAtMostOnceAndOnceQuietExactlyOnceOrArchived() {
        assertHolds(run(DEFAULT, LedgerRules.CURRENT));
    }

    @Test
    void twoSharePartitionsWithARejectedRecord() {
        assertHolds(run(new Bounds(2, 3, 2, 2, 0, true, false, false).withPartitions(2).withRejectLast(), LedgerRules.CURRENT));
    }

    @Test
    void theInputTopicDeletedAndReCreated() {
        assertHolds(run(new Bounds(2, 2, 2, 2, 1, true, false, false).withRecreatedTopic(1), LedgerRules.CURRENT));
    }

    @Test
    void anOffsetResetOrTheGroupReCreatedWithDeleteRecordsOnTheInput() {
        assertHolds(run(new Bounds(2, 2, 2, 2, 0, true, true, true), LedgerRules.CURRENT));
    }

    /**
     * TransactionalShareBacklogAfterResetIT as a model: a group initialized at latest (record 0 is the
     * backlog below its start), reset backwards to 0 later. Today's rules lose the backlog record: a
     * snapshot kept the start offset as a watermark, and after the reset every delivery of the never
     * processed record lies below it and is released as "already acknowledged" until the delivery
     * limit archives it. Enabled once the ledger learns incarnations from the group (branch eos22reset).
     */
    @Test
    @Disabled("finds the loss of TransactionalShareBacklogAfterResetIT in today's rules; see the trace in the javadoc of LATEST_RESET")
    void aLatestInitializedGroupResetBackwardsOutputsItsBacklogOnce() {
        assertHolds(run(LATEST_RESET, LedgerRules.CURRENT));
    }

    @Test
    void theRulesBeforeIssue22CommitAnInputTwice() {
        Result r = run(new Bounds(2, 2, 2, 2, 1, true, false, false), new OldLedgerRules());
        assertFalse(r.ok(), "the checker finds the duplicates of the old rules");
        assertTrue(r.violation().contains("committed 2 times"), r.violation());
        r = run(DEFAULT, new OldLedgerRules());
        assertFalse(r.ok(), "the checker finds the duplicates of the old rules");
        assertTrue(r.violation().contains("committed 2 times"), r.violation());
    }

    @Test
    @EnabledIfSystemProperty(named = "gapless.soak", matches = "true")
    void deeperBounds() {
        assertHolds(run(new Bounds(2, 3, 2, 3, 1, true, false, false), LedgerRules.CURRENT));
        assertHolds(run(new Bounds(2, 2, 2, 3, 1, true, true, true), LedgerRules.CURRENT));
        assertHolds(run(new Bounds(2, 3, 2, 2, 1, true, false, false).withPartitions(2).withRejectLast(), LedgerRules.CURRENT));
        assertHolds(run(new Bounds(2, 3, 2, 2, 1, true, true, true).withRecreatedTopic(1), LedgerRules.CURRENT));
    }
}
