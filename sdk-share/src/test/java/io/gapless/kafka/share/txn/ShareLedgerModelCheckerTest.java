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
 * take both consumers; 3 records, the last one REJECTed; delivery limit 2; 2 ledger entries; a
 * snapshot, with or without the ledger truncated below it, possible after every commit; one crash
 * anywhere) and, at 2 records, the Kafka behaviours that bound leaves out: two share-partitions, the
 * input topic deleted and re-created; deleteRecords on the input with an offset reset or the group
 * deleted and re-created runs under soak (5.8 million states). Figures in sdk-share/RATIONALE.md ("The model checker"). Deeper bounds
 * run under -Dgapless.soak=true.
 */
class ShareLedgerModelCheckerTest {
    private static final Logger log = LoggerFactory.getLogger(ShareLedgerModelCheckerTest.class);

    /** The bound of issue 22, the application rejecting the last record. */
    static final Bounds DEFAULT = new Bounds(2, 3, 2, 2, 1, true, false, false).withRejectLast();
    /** An offset reset or the group re-created, with deleteRecords on the input. */
    static final Bounds RESET = new Bounds(2, 2, 2, 2, 0, true, true, true);
    /** A latest-initialized group (record 0 below its start) reset backwards; 3 entries: the refusals take two. */
    static final Bounds LATEST_RESET = new Bounds(2, 2, 2, 3, 0, true, true, false).withLatestBacklog(1);

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
        assertHolds(run(new Bounds(2, 2, 2, 2, 1, true, false, false).withPartitions(2).withRejectLast(), LedgerRules.CURRENT));
    }

    @Test
    void theInputTopicDeletedAndReCreated() {
        assertHolds(run(new Bounds(2, 2, 2, 2, 1, true, false, false).withRecreatedTopic(1), LedgerRules.CURRENT));
    }

    /**
     * An offset reset or the group deleted and re-created, with deleteRecords on the input, under
     * issue 22's invariant: an input archived by the check's own release at the delivery limit is
     * counted and logged at WARN (what the SDK promises today after a reset: RATIONALE, "Incarnations").
     */
    @Test
    @EnabledIfSystemProperty(named = "gapless.soak", matches = "true")
    void anOffsetResetOrTheGroupReCreatedWithDeleteRecordsOnTheInput() {
        // 5.8 million states, about 6 minutes on the shared build machine: soak only.
        assertHolds(run(RESET.withVerdictArchivesWarned(), LedgerRules.CURRENT));
    }

    /**
     * The same bound with the stricter invariant (no input archived by the check's own release while
     * never output): today's rules lose an input that the delivery limit archived before the reset,
     * for the reason of {@link #aLatestInitializedGroupResetBackwardsOutputsItsBacklogOnce}: the
     * watermark outlives the reset. The trace on today's rules (587 thousand states):
     * <pre>
     * input 1 lost: never output, archived because the ack-ledger check released its last delivery
     *   c0 polls [0, 1]
     *   c0 polls [0]
     *   deleteRecords on the input below 1
     *   p0.0 stages c0:{0@2 } and writes entry 0; shortcut, commits
     *   p0 acknowledges entry 0 (landed for [c01])
     *   c1 polls [1]
     *   c1 polls nothing, releases what it held
     *   snapshot below 2 (SPSO in-0=2), deleteRecords on the ledger below it
     *   offsets reset to 0, or the group deleted and re-created at earliest (group empty)
     *   c1 polls [1]
     *   c1 polls [1]
     *   p1.0 stages c1:{1@2 } and writes entry 3; refused on the read-back [in-0 offsets 1..1 (delivery 2) lies below the
     *        share-partition start offset 2 (already acknowledged)]
     * </pre>
     */
    @Test
    @Disabled("finds the loss after a reset in today's rules (trace above), as TransactionalShareBacklogAfterResetIT; enable after eos22reset")
    void anOffsetResetOutputsEveryInputNeverOutputBefore() {
        assertHolds(run(RESET, LedgerRules.CURRENT));
    }

    /**
     * TransactionalShareBacklogAfterResetIT as a model: a group initialized at latest (record 0 is the
     * backlog below its start), reset backwards to 0 later. Today's rules lose the backlog record: a
     * snapshot kept the start offset as a watermark, and after the reset every delivery of the never
     * processed record lies below it and is released as "already acknowledged" until the delivery
     * limit archives it. Enabled once the ledger learns incarnations from the group (branch eos22reset).
     * The trace on today's rules (187 thousand states):
     * <pre>
     * input 0 lost: never output, archived because the ack-ledger check released its last delivery
     *   c0 polls [1]
     *   p0.0 stages c0:{1@1 } and writes entry 0; shortcut, commits
     *   snapshot below 1 (SPSO in-0=1), deleteRecords on the ledger below it
     *   p0 acknowledges entry 0 (landed for [c01])
     *   offsets reset to 0, or the group deleted and re-created at earliest (group empty)
     *   c1 polls [0, 1]
     *   p1.0 stages c1:{0@1 1@1 } and writes entry 3; refused on the read-back [in-0 offsets 0..0 (delivery 1) lies below the
     *        share-partition start offset 1 (already acknowledged)]
     *   c1 polls [0, 1]
     *   p1.0 stages c1:{0@2 1@2 } and writes entry 4; refused on the read-back [in-0 offsets 0..0 (delivery 2) lies below the
     *        share-partition start offset 1 (already acknowledged)]
     * </pre>
     */
    @Test
    @Disabled("finds the loss of TransactionalShareBacklogAfterResetIT in today's rules (trace above); enable after eos22reset")
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
        assertHolds(run(new Bounds(2, 2, 2, 3, 1, true, true, true).withVerdictArchivesWarned(), LedgerRules.CURRENT));
        assertHolds(run(new Bounds(2, 3, 2, 2, 1, true, false, false), LedgerRules.CURRENT));
        assertHolds(run(new Bounds(2, 3, 2, 2, 0, true, false, false).withPartitions(2).withRejectLast(), LedgerRules.CURRENT));
        assertHolds(run(new Bounds(2, 3, 2, 2, 1, true, true, true).withRecreatedTopic(1).withVerdictArchivesWarned(), LedgerRules.CURRENT));
    }
}
