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

import io.gapless.kafka.share.txn.lookalike.Kip1289Consumer;
import io.gapless.kafka.share.txn.lookalike.Kip1289Producer;
import io.gapless.kafka.share.txn.lookalike.MapReturningConsumer;
import io.gapless.kafka.share.txn.lookalike.SeedShapeProducer;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ShareConsumer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The native adapter finds KIP-1289's API only with Kafka's exact signatures and translates the
 * SDK's types to Kafka's and back, checked against look-alike classes with Kafka's shape
 * (kafka-clients 4.4 has none of it).
 */
class Kip1289ApiTest {
    private static final String LOOKALIKE = "io.gapless.kafka.share.txn.lookalike";
    private static final TopicIdPartition TIP = new TopicIdPartition(Uuid.randomUuid(), 3, "orders");
    private static final ShareAcknowledgements ACKS = new ShareAcknowledgements(Map.of(TIP, List.of(
            new ShareAcknowledgementBatch(0, 2, List.of(AcknowledgeType.ACCEPT.id, AcknowledgeType.REJECT.id, AcknowledgeType.ACCEPT.id)),
            new ShareAcknowledgementBatch(7, 9, List.of(AcknowledgeType.ACCEPT.id)))));

    private static Kip1289Api lookalike() {
        return Kip1289Api.find(Kip1289ApiTest.class.getClassLoader(), LOOKALIKE, Kip1289Consumer.class, Kip1289Producer.class).orElseThrow();
    }

    /** Kafka's consumer, as far as KIP-1289 goes. */
    private static final class UpstreamConsumer implements Kip1289Consumer {
        Object toTake;

        @Override
        public io.gapless.kafka.share.txn.lookalike.ShareAcknowledgements acknowledgementsForTransaction() {
            return (io.gapless.kafka.share.txn.lookalike.ShareAcknowledgements) toTake;
        }

        @Override
        public io.gapless.kafka.share.txn.lookalike.ShareGroupMetadata shareGroupMetadata() {
            return new io.gapless.kafka.share.txn.lookalike.ShareGroupMetadata("orders-workers", "m-1", 4);
        }
    }

    /** Kafka's producer, as far as KIP-1289 goes. */
    private static final class UpstreamProducer implements Kip1289Producer {
        final List<Object[]> calls = new ArrayList<>();
        RuntimeException failure;

        @Override
        public void sendShareAcknowledgementsToTransaction(io.gapless.kafka.share.txn.lookalike.ShareAcknowledgements acknowledgements,
                                                           io.gapless.kafka.share.txn.lookalike.ShareGroupMetadata metadata) {
            if (failure != null) {
                throw failure;
            }
            calls.add(new Object[]{acknowledgements, metadata});
        }
    }

    @Test
    void kafkaClients44HasNoKip1289() {
        assertFalse(Kip1289Api.kafka().isPresent(), "kafka-clients 4.4 has no KIP-1289 API; a release that has it changes this test");
        assertFalse(NativeShareTransactions.reflective(Map.of("bootstrap.servers", "localhost:1")).clientSupports());
    }

    @Test
    void onlyKafkasExactShapeIsTakenForKip1289() {
        ClassLoader loader = getClass().getClassLoader();
        assertTrue(Kip1289Api.find(loader, LOOKALIKE, Kip1289Consumer.class, Kip1289Producer.class).isPresent());
        assertFalse(Kip1289Api.find(loader, LOOKALIKE, Kip1289Consumer.class, SeedShapeProducer.class).isPresent(),
                "a producer method taking a map of batches is not Kafka's");
        assertFalse(Kip1289Api.find(loader, LOOKALIKE, MapReturningConsumer.class, Kip1289Producer.class).isPresent(),
                "acknowledgementsForTransaction() must return Kafka's ShareAcknowledgements");
        assertFalse(Kip1289Api.find(loader, "io.gapless.kafka.share.txn.wrongshape", Kip1289Consumer.class, Kip1289Producer.class).isPresent(),
                "a batch of one type byte is not Kafka's ShareAcknowledgementBatch");
        assertFalse(Kip1289Api.find(loader, LOOKALIKE, ShareConsumer.class, Producer.class).isPresent(),
                "Kafka 4.4's interfaces lack the methods");
        assertFalse(Kip1289Api.find(loader, "no.such.package", Kip1289Consumer.class, Kip1289Producer.class).isPresent());
    }

    @Test
    void theSdksTypesTranslateToKafkasAndBack() {
        Kip1289Api api = lookalike();
        Object kafkaAcks = api.toKafka(ACKS);
        assertEquals(io.gapless.kafka.share.txn.lookalike.ShareAcknowledgements.class, kafkaAcks.getClass());
        assertEquals(ACKS, api.fromKafka(kafkaAcks));
        assertEquals(ShareAcknowledgements.empty(), api.fromKafka(api.toKafka(ShareAcknowledgements.empty())));

        UpstreamConsumer consumer = new UpstreamConsumer();
        consumer.toTake = kafkaAcks;
        assertEquals(ACKS, api.acknowledgementsForTransaction(consumer));
        ShareGroupMetadata metadata = api.shareGroupMetadata(consumer);
        assertEquals(new ShareGroupMetadata("orders-workers", "m-1", 4), metadata);

        UpstreamProducer producer = new UpstreamProducer();
        api.sendShareAcknowledgementsToTransaction(producer, ACKS, metadata);
        assertEquals(1, producer.calls.size());
        assertEquals(ACKS, api.fromKafka(producer.calls.get(0)[0]));
        io.gapless.kafka.share.txn.lookalike.ShareGroupMetadata sent = (io.gapless.kafka.share.txn.lookalike.ShareGroupMetadata) producer.calls.get(0)[1];
        assertEquals(List.of("orders-workers", "m-1", 4), List.of(sent.groupId(), sent.memberId(), sent.memberEpoch()));
    }

    @Test
    void kafkasExceptionsReachTheCallerUnchanged() {
        UpstreamProducer producer = new UpstreamProducer();
        producer.failure = new ProducerFencedException("fenced by a newer instance");
        ProducerFencedException e = assertThrows(ProducerFencedException.class,
                () -> lookalike().sendShareAcknowledgementsToTransaction(producer, ACKS, new ShareGroupMetadata("g", "m", 1)));
        assertSame(producer.failure, e);
    }
}
