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
import io.gapless.kafka.share.ledger.LedgerConfirmation;
import io.gapless.kafka.share.ledger.LedgerIndex;
import io.gapless.kafka.share.ledger.LedgerRange;
import io.gapless.kafka.share.ledger.ShareKey;
import io.gapless.kafka.share.txn.LedgerCommitProtocol.Verdict;
import org.apache.kafka.clients.consumer.MockShareConsumer;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Runs {@link ShareLedgerModelChecker} over the SDK's commit-check rules (no violation) and over the
 * rules before issue 22 (it must find their duplicates). Bounds in the default build: 2 consumers
 * and 2 producers (one transaction may take both consumers), 2 records, delivery limit 2, 2 ledger
 * entries, a snapshot (with or without the ledger truncated below it) possible after every commit,
 * one crash anywhere (128 thousand states, about 5 s). deleteRecords on the input with an offset reset
 * (5.7 million states), 3 records and more entries run under -Dgapless.soak=true. A partition
 * initialized at latest and reset to 0 (the backlog of issue 22) runs with 1 consumer and 3
 * entries by default (26 thousand states, about 10 s), with 2 consumers and a crash under soak.
 */
class ShareLedgerModelCheckerTest {
    private static final Logger log = LoggerFactory.getLogger(ShareLedgerModelCheckerTest.class);

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
        return run(bounds, rules, 0);
    }

    private Result run(Bounds bounds, LedgerRules rules, int latestStart) {
        Result r = new ShareLedgerModelChecker(bounds, rules, participants(bounds.consumers())).latestStart(latestStart).run();
        log.info("Model checker, {}, {}, latest start {}: {} states ({} quiet) in {} ms{}", rules, bounds, latestStart, r.states(),
                r.quietStates(), r.millis(), r.ok() ? "" : ": " + r.violation() + "\n  " + String.join("\n  ", r.trace()));
        return r;
    }

    private static void assertHolds(Result r) {
        assertTrue(r.ok(), () -> r.violation() + "\n  " + String.join("\n  ", r.trace()));
        assertTrue(r.quietStates() > 0, "the bounds let the system reach quiet states");
    }

    @Test
    void theCurrentRulesCommitEveryInputAtMostOnceAndOnceQuietExactlyOnceOrArchived() {
        assertHolds(run(new Bounds(2, 2, 2, 2, 1, true, false, false), LedgerRules.CURRENT));
    }

    @Test
    @EnabledIfSystemProperty(named = "gapless.soak", matches = "true")
    void withDeleteRecordsOnTheInputAndAnOffsetReset() {
        // 5.7 million states, about 105 s on the shared build machine.
        assertHolds(run(new Bounds(2, 2, 2, 2, 0, true, true, true), LedgerRules.CURRENT));
    }

    @Test
    void theRulesBeforeIssue22CommitAnInputTwice() {
        Result r = run(new Bounds(2, 2, 2, 2, 1, true, false, false), new OldLedgerRules());
        assertFalse(r.ok(), "the checker finds the duplicates of the old rules");
        assertTrue(r.violation().contains("committed 2 times"), r.violation());
    }

    @Test
    void aPartitionInitializedAtLatestAndResetToTheBeginningGetsItsBacklogProcessed() {
        // Issue 22, the backlog after a reset: record 0 lies below the start the group was initialized at.
        assertHolds(run(new Bounds(1, 2, 2, 3, 0, true, true, false), LedgerRules.CURRENT, 1));
        Result before = run(new Bounds(1, 2, 2, 3, 0, true, true, false), WATERMARK_CLAIMS, 1);
        assertFalse(before.ok(), "the checker finds the loss of the watermark rule");
        assertTrue(before.violation().contains("archived without output"), before.violation());
        if (Boolean.getBoolean("gapless.soak")) {
            // Two consumers and producers, one crash.
            assertHolds(run(new Bounds(2, 2, 2, 3, 1, true, true, false), LedgerRules.CURRENT, 1));
        }
    }

    /** The rule before the backlog fix, on top of the current ones: everything below a snapshot's start offset counts as handled. */
    private static final LedgerRules WATERMARK_CLAIMS = new LedgerRules() {
        @Override
        public List<LedgerRange> staleHolder(LedgerIndex all, Map<ShareKey, List<LedgerRange>> ours, long own, Verdict verdict) {
            releaseBelowWatermark(all, ours, verdict);
            return LedgerRules.CURRENT.staleHolder(all, ours, own, verdict);
        }

        @Override
        public void committedElsewhere(LedgerIndex committed, Map<ShareKey, List<LedgerRange>> ours, long own, Verdict verdict) {
            releaseBelowWatermark(committed, ours, verdict);
            LedgerRules.CURRENT.committedElsewhere(committed, ours, own, verdict);
        }

        @Override
        public List<LedgerConfirmation> confirmations(Map<ShareAckParticipant, Map<TopicIdPartition, List<LedgerRange>>> staged,
                                                      Map<ShareAckParticipant, Set<TopicIdPartition>> landed, long entryOffset) {
            return LedgerRules.CURRENT.confirmations(staged, landed, entryOffset);
        }

        private void releaseBelowWatermark(LedgerIndex index, Map<ShareKey, List<LedgerRange>> ours, Verdict verdict) {
            ours.forEach((key, list) -> list.forEach(mine -> {
                if (mine.first() < index.watermark(key)) {
                    verdict.release(key, new long[]{mine.first(), Math.min(mine.last(), index.watermark(key) - 1)}, "below the start offset");
                }
            }));
        }

        @Override
        public String toString() {
            return "watermark claims (before the backlog fix)";
        }
    };

    @Test
    @EnabledIfSystemProperty(named = "gapless.soak", matches = "true")
    void deeperBounds() {
        assertHolds(run(new Bounds(2, 3, 2, 3, 1, true, false, false), LedgerRules.CURRENT));
        assertHolds(run(new Bounds(2, 2, 2, 3, 1, true, true, true), LedgerRules.CURRENT));
    }
}
