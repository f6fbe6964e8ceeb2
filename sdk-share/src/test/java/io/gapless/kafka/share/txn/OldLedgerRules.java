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
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.common.TopicIdPartition;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The commit check's rules before issue 22, kept only so that the model checker can show it finds
 * their duplicates (the checker must be able to fail): a confirmed committed range freed a delivery
 * with a higher count ("a later incarnation"), the watermark freed a count above the pruned
 * maximum, and one landed participant confirmed its whole share-partition.
 */
final class OldLedgerRules implements LedgerRules {
    @Override
    public List<LedgerRange> staleHolder(LedgerIndex seen, Map<ShareKey, List<LedgerRange>> ours, long own, Verdict verdict) {
        List<LedgerRange> earlier = new ArrayList<>();
        for (Map.Entry<ShareKey, List<LedgerRange>> e : ours.entrySet()) {
            for (LedgerRange mine : e.getValue()) {
                belowStart(seen, e.getKey(), mine, verdict);
                for (LedgerRange other : seen.overlapping(e.getKey(), mine.first(), mine.last(), own)) {
                    if (other.deliveryCount() > mine.deliveryCount()) {
                        verdict.release(e.getKey(), overlap(mine, other), "redelivered");
                    }
                    earlier.add(other);
                }
            }
        }
        return earlier;
    }

    @Override
    public void committedElsewhere(LedgerIndex done, Map<ShareKey, List<LedgerRange>> ours, long own, Verdict verdict) {
        for (Map.Entry<ShareKey, List<LedgerRange>> e : ours.entrySet()) {
            ShareKey key = e.getKey();
            for (LedgerRange mine : e.getValue()) {
                belowStart(done, key, mine, verdict);
                for (LedgerRange other : done.overlapping(key, mine.first(), mine.last(), own)) {
                    if (!done.confirmed(key, other.ledgerOffset())) {
                        verdict.recorded(key, overlap(mine, other), AcknowledgeType.forId(other.ackType()), "committed");
                    } else if (mine.deliveryCount() <= other.deliveryCount()) {
                        verdict.release(key, overlap(mine, other), "acknowledged, not newer");
                    }
                    // Otherwise the old rule took a higher count for a later incarnation.
                }
            }
        }
    }

    @Override
    public List<LedgerConfirmation> confirmations(Map<ShareAckParticipant, Map<TopicIdPartition, List<LedgerRange>>> staged,
                                                  Map<ShareAckParticipant, Set<TopicIdPartition>> landed, long entryOffset) {
        List<LedgerConfirmation> out = new ArrayList<>();
        landed.forEach((participant, tips) -> tips.forEach(tip ->
                out.add(new LedgerConfirmation(ShareKey.of(participant.metadata().groupId(), tip), entryOffset))));
        return out.stream().distinct().toList();
    }

    private static void belowStart(LedgerIndex index, ShareKey key, LedgerRange mine, Verdict verdict) {
        long watermark = index.watermark(key);
        if (mine.first() < watermark && mine.deliveryCount() <= index.watermarkDelivery(key)) {
            verdict.release(key, new long[]{mine.first(), Math.min(mine.last(), watermark - 1)}, "below the start offset");
        }
    }

    private static long[] overlap(LedgerRange mine, LedgerRange other) {
        return new long[]{Math.max(mine.first(), other.first()), Math.min(mine.last(), other.last())};
    }

    @Override
    public String toString() {
        return "rules before issue 22";
    }
}
