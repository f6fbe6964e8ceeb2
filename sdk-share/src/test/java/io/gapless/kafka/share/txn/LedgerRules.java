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

import io.gapless.kafka.share.ledger.LedgerConfirmation;
import io.gapless.kafka.share.ledger.LedgerIndex;
import io.gapless.kafka.share.ledger.LedgerRange;
import io.gapless.kafka.share.ledger.ShareKey;
import io.gapless.kafka.share.txn.LedgerCommitProtocol.Verdict;
import org.apache.kafka.common.TopicIdPartition;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The decisions of the ack-ledger commit check, as the model checker drives them: {@link #CURRENT}
 * calls the SDK's own {@link LedgerCommitProtocol}; {@link OldLedgerRules} keeps the rules before
 * issue 22 so the checker can show it finds their duplicates.
 */
interface LedgerRules {
    LedgerRules CURRENT = new LedgerRules() {
        @Override
        public List<LedgerRange> staleHolder(LedgerIndex all, Map<ShareKey, List<LedgerRange>> ours, long own, Verdict verdict) {
            return LedgerCommitProtocol.staleHolder(all, ours, own, verdict);
        }

        @Override
        public void committedElsewhere(LedgerIndex committed, Map<ShareKey, List<LedgerRange>> ours, long own, Verdict verdict) {
            LedgerCommitProtocol.committedElsewhere(committed, ours, own, verdict);
        }

        @Override
        public List<LedgerConfirmation> confirmations(Map<ShareAckParticipant, Map<TopicIdPartition, List<LedgerRange>>> staged,
                                                      Map<ShareAckParticipant, Set<TopicIdPartition>> landed, long entryOffset) {
            return LedgerCommitProtocol.confirmations(staged, landed, entryOffset);
        }

        @Override
        public String toString() {
            return "current rules";
        }
    };

    /** Step 2, the read-back of the "all" view: refusals of a stale holder; returns the overlapping entries below ours. */
    List<LedgerRange> staleHolder(LedgerIndex all, Map<ShareKey, List<LedgerRange>> ours, long own, Verdict verdict);

    /** Step 4, over the committed entries below ours once every fate is known. */
    void committedElsewhere(LedgerIndex committed, Map<ShareKey, List<LedgerRange>> ours, long own, Verdict verdict);

    /** The confirmations an entry earned once its acknowledgements were sent. */
    List<LedgerConfirmation> confirmations(Map<ShareAckParticipant, Map<TopicIdPartition, List<LedgerRange>>> staged,
                                           Map<ShareAckParticipant, Set<TopicIdPartition>> landed, long entryOffset);
}
