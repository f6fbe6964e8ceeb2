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
 * rules before issue 22 (it must find their duplicates). Bounds in the default build: 2 consumers
 * and 2 producers (one transaction may take both consumers), 2 records, delivery limit 2, 2 ledger
 * entries, a snapshot (with or without the ledger truncated below it) possible after every commit,
 * one crash anywhere (128 thousand states, about 5 s). deleteRecords on the input with an offset reset
 * (5.7 million states), 3 records and more entries run under -Dgapless.soak=true.
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
    @EnabledIfSystemProperty(named = "gapless.soak", matches = "true")
    void deeperBounds() {
        assertHolds(run(new Bounds(2, 3, 2, 3, 1, true, false, false), LedgerRules.CURRENT));
        assertHolds(run(new Bounds(2, 2, 2, 3, 1, true, true, true), LedgerRules.CURRENT));
    }
}
