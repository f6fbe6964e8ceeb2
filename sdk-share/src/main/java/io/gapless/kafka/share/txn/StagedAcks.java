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

import io.gapless.kafka.share.ledger.LedgerRange;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.common.TopicIdPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The acknowledgements staged in one producer transaction, per consumer, as ledger ranges; and
 * settling them on their consumers when the transaction's fate is known.
 */
final class StagedAcks {
    private static final Logger log = LoggerFactory.getLogger(StagedAcks.class);

    private final Map<ShareAckParticipant, Map<TopicIdPartition, List<LedgerRange>>> staged = new LinkedHashMap<>();

    /**
     * Offsets of {@code ranges} that another consumer of the same share group already staged in
     * this transaction (one of the two holds an expired delivery; one entry would commit the record
     * twice), described for an error message; empty when there are none.
     */
    List<String> heldByOthers(ShareAckParticipant participant, Map<TopicIdPartition, List<LedgerRange>> ranges) {
        List<String> clashes = new ArrayList<>();
        String group = participant.metadata().groupId();
        staged.forEach((other, theirs) -> {
            if (other == participant || !other.metadata().groupId().equals(group)) {
                return;
            }
            ranges.forEach((tip, mine) -> {
                for (LedgerRange a : theirs.getOrDefault(tip, List.of())) {
                    for (LedgerRange b : mine) {
                        long from = Math.max(a.first(), b.first());
                        long to = Math.min(a.last(), b.last());
                        if (from <= to) {
                            clashes.add(tip.topicPartition() + "@" + from + (to > from ? ".." + to : "") + " (delivery " + b.deliveryCount()
                                    + ") is already staged in this transaction by " + other.metadata() + " (delivery " + a.deliveryCount() + ")");
                        }
                    }
                }
            });
        });
        return clashes;
    }

    void add(ShareAckParticipant participant, Map<TopicIdPartition, List<LedgerRange>> ranges) {
        Map<TopicIdPartition, List<LedgerRange>> mine = staged.computeIfAbsent(participant, p -> new LinkedHashMap<>());
        ranges.forEach((tip, list) -> mine.computeIfAbsent(tip, t -> new ArrayList<>()).addAll(list));
    }

    boolean isEmpty() {
        return staged.isEmpty();
    }

    /** The share groups whose records are staged. */
    Set<String> groups() {
        Set<String> groups = new LinkedHashSet<>();
        staged.keySet().forEach(p -> groups.add(p.metadata().groupId()));
        return groups;
    }

    /** What is staged, for the ledger check. */
    Map<ShareAckParticipant, Map<TopicIdPartition, List<LedgerRange>>> view() {
        return Collections.unmodifiableMap(staged);
    }

    /**
     * The transaction committed: every record is acknowledged with its staged type.
     *
     * @return per consumer, the partitions whose acknowledgements the share group accepted
     */
    Map<ShareAckParticipant, Set<TopicIdPartition>> settleCommitted() {
        Map<ShareAckParticipant, Set<TopicIdPartition>> landed = new LinkedHashMap<>();
        staged.forEach((participant, ranges) -> landed.put(participant, participant.settle(outcome(ranges))));
        staged.clear();
        return landed;
    }

    /** The ledger check refused the transaction: each consumer settles its records as the check says. */
    void settleRefused(Map<ShareAckParticipant, Map<TopicIdPartition, Map<Long, AcknowledgeType>>> onAbort) {
        onAbort.forEach(ShareAckParticipant::settle);
        staged.clear();
    }

    /**
     * The transaction aborted (or cannot commit): every record stays with its consumer, its lock
     * renewed (KIP-1289: aborted records return to their holder; a release would cost a delivery).
     */
    void renewAll() {
        staged.forEach((participant, ranges) -> {
            Map<TopicIdPartition, Map<Long, AcknowledgeType>> renew = outcome(ranges);
            renew.values().forEach(m -> m.replaceAll((o, t) -> AcknowledgeType.RENEW));
            try {
                participant.settle(renew);
            } catch (RuntimeException e) {
                log.warn("Could not renew the staged records of {}: {}", participant.metadata(), e.toString());
            }
        });
        staged.clear();
    }

    private static Map<TopicIdPartition, Map<Long, AcknowledgeType>> outcome(Map<TopicIdPartition, List<LedgerRange>> ranges) {
        Map<TopicIdPartition, Map<Long, AcknowledgeType>> result = new LinkedHashMap<>();
        ranges.forEach((tip, list) -> {
            Map<Long, AcknowledgeType> byOffset = new LinkedHashMap<>();
            for (LedgerRange r : list) {
                for (long o = r.first(); o <= r.last(); o++) {
                    byOffset.put(o, AcknowledgeType.forId(r.ackType()));
                }
            }
            result.put(tip, byOffset);
        });
        return result;
    }
}
