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

import io.gapless.kafka.share.ledger.AckLedger;
import io.gapless.kafka.share.ledger.LedgerIndex;
import io.gapless.kafka.share.ledger.LedgerRange;
import io.gapless.kafka.share.ledger.ShareKey;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.ShareConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Drops redelivered records ({@code deliveryCount() > 1}) whose acknowledgement a committed
 * ledger entry already holds, acknowledging them as recorded: the crash between a commit and its
 * acknowledgement. Every committed entry counts, confirmed or not (a delivery count never tells a
 * later incarnation of the group: issue 22), but only under the topic's current id (looked up
 * afresh before anything is dropped). First deliveries
 * pass untouched and cost nothing. A lookup that cannot be completed lets the record through: the
 * producer's commit check still refuses to commit it twice.
 */
final class LedgerDedupFilter<K, V> {
    private static final Logger log = LoggerFactory.getLogger(LedgerDedupFilter.class);
    private static final long LOOKUP_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(5);

    private final String group;
    private final Supplier<AckLedger> ledger;
    private final TopicIdResolver topicIds;
    private final boolean strict;

    LedgerDedupFilter(String group, Supplier<AckLedger> ledger, TopicIdResolver topicIds) {
        this(group, ledger, topicIds, false);
    }

    /**
     * @param strict for a native consumer, where no commit check follows: a lookup that cannot
     *               complete releases the redelivered records (they come back) instead of handing them out
     */
    LedgerDedupFilter(String group, Supplier<AckLedger> ledger, TopicIdResolver topicIds, boolean strict) {
        this.group = group;
        this.ledger = ledger;
        this.topicIds = topicIds;
        this.strict = strict;
    }

    ConsumerRecords<K, V> apply(ConsumerRecords<K, V> records, ShareConsumer<K, V> delegate) {
        boolean redelivered = false;
        for (ConsumerRecord<K, V> r : records) {
            if (r.deliveryCount().orElse((short) 1) > 1) {
                redelivered = true;
                break;
            }
        }
        if (!redelivered) {
            return records;
        }
        LedgerIndex index;
        try {
            AckLedger l = ledger.get();
            if (!l.exists(group)) {
                return records;
            }
            TopicPartition p = l.partitionOf(group);
            l.committed().catchUpToEnd(p, System.nanoTime() + LOOKUP_TIMEOUT_NANOS);
            index = l.committed().index(p);
        } catch (KafkaException e) {
            if (strict) {
                log.warn("Ack-ledger lookup failed ({}); redelivered records are released and come back later", e.toString());
                return releaseRedelivered(records, delegate);
            }
            log.warn("Ack-ledger lookup failed ({}); redelivered records are handed out and checked at commit", e.toString());
            return records;
        }
        // Every topic id first: a lookup that fails (it throws) must do so before anything is acknowledged.
        Map<TopicPartition, Uuid> ids = new LinkedHashMap<>();
        for (TopicPartition tp : records.partitions()) {
            for (ConsumerRecord<K, V> r : records.records(tp)) {
                if (r.deliveryCount().orElse((short) 1) > 1) {
                    ids.put(tp, topicIds.topicId(tp.topic()));
                    break;
                }
            }
        }
        Map<TopicPartition, List<ConsumerRecord<K, V>>> kept = new LinkedHashMap<>();
        int dropped = 0;
        for (TopicPartition tp : records.partitions()) {
            List<ConsumerRecord<K, V>> list = new ArrayList<>();
            Uuid id = ids.get(tp);
            Boolean idCurrent = null;
            for (ConsumerRecord<K, V> r : records.records(tp)) {
                if (r.deliveryCount().orElse((short) 1) > 1) {
                    LedgerRange done = committed(index, new ShareKey(group, id, tp.topic(), tp.partition()), r.offset());
                    if (done != null && idCurrent == null) {
                        idCurrent = id.equals(fresh(tp.topic()));
                    }
                    if (done != null && idCurrent) {
                        AcknowledgeType type = AcknowledgeType.forId(done.ackType());
                        delegate.acknowledge(r, type);
                        dropped++;
                        log.info("{}@{} (delivery {}) was committed by {}; acknowledged as {} without handing it out",
                                tp, r.offset(), r.deliveryCount().orElse((short) 0),
                                done.compacted() ? "entries a snapshot compacted" : "transactional.id " + done.transactionalId(), type);
                        continue;
                    }
                }
                list.add(r);
            }
            if (!list.isEmpty()) {
                kept.put(tp, list);
            }
        }
        return dropped == 0 ? records : new ConsumerRecords<>(kept);
    }

    private static LedgerRange committed(LedgerIndex index, ShareKey key, long offset) {
        List<LedgerRange> covering = index.covering(key, offset, Long.MAX_VALUE);
        return covering.isEmpty() ? null : covering.get(0);
    }

    // Before acknowledging without output: is the cached id still the topic's? (Cached again by the lookup.)
    private Uuid fresh(String topic) {
        try {
            return topicIds.refresh(topic);
        } catch (KafkaException e) {
            return null;
        }
    }

    private static <K, V> ConsumerRecords<K, V> releaseRedelivered(ConsumerRecords<K, V> records, ShareConsumer<K, V> delegate) {
        Map<TopicPartition, List<ConsumerRecord<K, V>>> kept = new LinkedHashMap<>();
        for (TopicPartition tp : records.partitions()) {
            List<ConsumerRecord<K, V>> list = new ArrayList<>();
            for (ConsumerRecord<K, V> r : records.records(tp)) {
                if (r.deliveryCount().orElse((short) 1) > 1) {
                    delegate.acknowledge(r, AcknowledgeType.RELEASE);
                } else {
                    list.add(r);
                }
            }
            if (!list.isEmpty()) {
                kept.put(tp, list);
            }
        }
        return new ConsumerRecords<>(kept);
    }
}
