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
import io.gapless.kafka.share.txn.ShareRecords.RecordingShareConsumer;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.InvalidRecordStateException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The consumer side of transactional acknowledgements on Kafka's MockShareConsumer: records the
 * share group archives by its delivery limit while this consumer holds them are counted
 * (issue 12, hole 5), and what landed is reported to the producer.
 */
class ConsumerTransactionSupportTest {
    private static final TopicPartition TP = new TopicPartition("in", 0);
    private static final TopicIdPartition TIP = new TopicIdPartition(Uuid.randomUuid(), TP);

    /** commitSync answers with {@code error} for TIP (null: success). */
    private static final class AnsweringConsumer extends RecordingShareConsumer {
        KafkaException error;

        @Override
        public synchronized Map<TopicIdPartition, Optional<KafkaException>> commitSync() {
            super.commitSync();
            return Map.of(TIP, Optional.ofNullable(error));
        }
    }

    private final AnsweringConsumer kafka = new AnsweringConsumer();
    private final ConsumerTransactionSupport<String, String> consumer = new ConsumerTransactionSupport<>(AckPath.LEDGER, false, kafka, "g", "c1",
            Map.of(), new LedgerSettings("l.", null, (short) -1, 1024), topic -> TIP.topicId(), group -> 3);

    @AfterEach
    void close() {
        consumer.close();
    }

    private void hold(int delivery, long... offsets) {
        List<ConsumerRecord<String, String>> list = new java.util.ArrayList<>();
        for (long o : offsets) {
            list.add(ShareRecords.record(TP, o, delivery));
        }
        consumer.hold(new ConsumerRecords<>(Map.of(TP, list), Map.of()));
    }

    private double archived() {
        for (Map.Entry<MetricName, ? extends Metric> m : consumer.metrics().entrySet()) {
            if (m.getKey().name().equals("records-archived-by-delivery-limit-total") && m.getKey().group().equals("gapless-share-transactions")
                    && "c1".equals(m.getKey().tags().get("client-id"))) {
                return (Double) m.getValue().metricValue();
            }
        }
        throw new AssertionError("no records-archived-by-delivery-limit-total in " + consumer.metrics().keySet());
    }

    @Test
    void recordsReleasedInTheirLastDeliveryAreCountedAsArchived() {
        hold(3, 0, 1);
        hold(2, 2);
        consumer.beforePoll(); // none staged: all three released
        assertEquals(List.of("0:RELEASE", "1:RELEASE", "2:RELEASE"), kafka.acks);
        assertEquals(2.0, archived(), "offsets 0 and 1 were in delivery 3 of 3");
    }

    @Test
    void aRenewThatFailsInTheLastDeliveryIsCountedAsArchived() {
        hold(3, 0);
        hold(1, 1);
        kafka.error = new InvalidRecordStateException("lock expired");
        Set<TopicIdPartition> landed = consumer.settle(Map.of(TIP, Map.of(0L, AcknowledgeType.RENEW, 1L, AcknowledgeType.RENEW)));
        assertEquals(Set.of(), landed);
        assertEquals(1.0, archived(), "offset 0 lost its lock in its last delivery");
    }

    @Test
    void acknowledgementsThatLandAreReported() {
        hold(1, 0, 1);
        assertEquals(Set.of(TIP), consumer.settle(Map.of(TIP, Map.of(0L, AcknowledgeType.ACCEPT, 1L, AcknowledgeType.REJECT))));
        assertEquals(0.0, archived());
    }

    @Test
    void anAcknowledgementOfAStagedRecordIsRefusedInTransactionalMode() {
        // Issue 22, finding 8: the transaction decides a staged record's acknowledgement; Kafka must not get another one first.
        List<ConsumerRecord<String, String>> list = List.of(ShareRecords.record(TP, 0, 1), ShareRecords.record(TP, 1, 1));
        consumer.hold(new ConsumerRecords<>(Map.of(TP, list), Map.of()));
        consumer.stage(Map.of(TIP, List.of(new AcknowledgementBatch(0, 0, AcknowledgeType.ACCEPT))), "t");
        IllegalStateException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                () -> consumer.acknowledge(list.get(0), AcknowledgeType.REJECT));
        org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("in-0@0 is staged in an open transaction"), e.getMessage());
        assertEquals(List.of(), kafka.acks, "nothing reached Kafka");
        consumer.acknowledge(list.get(1), AcknowledgeType.REJECT);
        assertEquals(List.of("1:REJECT"), kafka.acks, "a record no transaction staged is the application's to acknowledge");
    }

    @Test
    void aTopicIdLookupThatFailsAfterPollReleasesTheRecordsAndIsRetriable() {
        // Issue 22, finding 4: the records Kafka's poll returned were neither held nor acknowledged, and the consumer wedged.
        boolean[] failing = {true};
        ConsumerTransactionSupport<String, String> c = new ConsumerTransactionSupport<>(AckPath.LEDGER, false, kafka, "g", "c2", Map.of(),
                new LedgerSettings("l.", null, (short) -1, 1024), topic -> {
                    if (failing[0]) {
                        throw new KafkaException("Cannot resolve the topic id of " + topic, new java.util.concurrent.TimeoutException());
                    }
                    return TIP.topicId();
                }, group -> 3);
        try {
            ConsumerRecords<String, String> polled = new ConsumerRecords<>(Map.of(TP, List.of(ShareRecords.record(TP, 0, 1),
                    ShareRecords.record(TP, 1, 1))), Map.of());
            KafkaException e = org.junit.jupiter.api.Assertions.assertThrows(KafkaException.class, () -> c.hold(polled));
            org.junit.jupiter.api.Assertions.assertInstanceOf(org.apache.kafka.common.errors.RetriableException.class, e, e.toString());
            assertEquals(List.of("0:RELEASE", "1:RELEASE"), kafka.acks, "released for redelivery");
            failing[0] = false;
            c.beforePoll();
            c.hold(polled);
            c.stage(Map.of(TIP, List.of(new AcknowledgementBatch(0, 1, AcknowledgeType.ACCEPT))), "t");
        } finally {
            c.close();
        }
    }

    @Test
    void aRecordReleasedBelowTheShareStartOffsetIsNotCountedAsArchived() {
        // Offset 0 in its last delivery (3 of 3) lies below the share-partition start offset 1: Kafka finished it (another
        // holder's committed transaction acknowledged it, and a snapshot pruned that range) before the ledger check released
        // it here, and reports the release as success. Offset 1, in its last delivery too, is archived by this release.
        ConsumerTransactionSupport<String, String> c = new ConsumerTransactionSupport<>(AckPath.LEDGER, false, kafka, "g", "c3", Map.of(),
                new LedgerSettings("l.", null, (short) -1, 1024), topic -> TIP.topicId(), group -> 3, (group, partitions) -> Map.of(TP, 1L));
        try {
            c.hold(new ConsumerRecords<>(Map.of(TP, List.of(ShareRecords.record(TP, 0, 3), ShareRecords.record(TP, 1, 3))), Map.of()));
            c.settle(Map.of(TIP, Map.of(0L, AcknowledgeType.RELEASE, 1L, AcknowledgeType.RELEASE)));
            assertEquals(1.0, archived(c, "c3"), "only offset 1 was archived by this release; offset 0 was finished before");
        } finally {
            c.close();
        }
    }

    private static double archived(ConsumerTransactionSupport<String, String> c, String clientId) {
        for (Map.Entry<MetricName, ? extends Metric> m : c.metrics().entrySet()) {
            if (m.getKey().name().equals("records-archived-by-delivery-limit-total") && clientId.equals(m.getKey().tags().get("client-id"))) {
                return (Double) m.getValue().metricValue();
            }
        }
        throw new AssertionError("no records-archived-by-delivery-limit-total in " + c.metrics().keySet());
    }
}
