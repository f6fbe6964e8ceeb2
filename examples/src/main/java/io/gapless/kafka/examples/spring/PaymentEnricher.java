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
package io.gapless.kafka.examples.spring;

import io.gapless.kafka.share.GaplessShareConsumer;
import io.gapless.kafka.share.txn.ShareAcknowledgements;
import io.gapless.kafka.share.txn.TransactionalShareProducer;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ShareConsumer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.springframework.kafka.annotation.KafkaListener;

/**
 * KIP-1289's consume-transform-produce loop on Spring's share listener container. The container
 * polls and hands the listener one record at a time, so each record is one transaction: its
 * output and its acknowledgement commit together, or neither. On a failure the transaction is
 * aborted and the exception goes back to the container; the record is released and comes back.
 */
public class PaymentEnricher {
    public static final String INPUT = "spring-payments";
    public static final String OUTPUT = "spring-payments-enriched";
    public static final String GROUP = "spring-payments-enricher";

    private final TransactionalProducers producers;

    public PaymentEnricher(TransactionalProducers producers) {
        this.producers = producers;
    }

    // tag::spring-share-listener[]
    @KafkaListener(id = "enricher", topics = INPUT, groupId = GROUP, concurrency = "2",
            containerFactory = "transactionalShareContainerFactory")
    public void enrich(ConsumerRecord<String, String> payment, ShareConsumer<String, String> consumer) {
        GaplessShareConsumer<String, String> gapless = (GaplessShareConsumer<String, String>) consumer;
        TransactionalShareProducer<String, String> producer = producers.producerFor(consumer);
        producer.beginTransaction();
        try {
            producer.send(new ProducerRecord<>(OUTPUT, payment.key(), payment.value() + " enriched"));
            producer.sendShareAcknowledgementsToTransaction(
                    new ShareAcknowledgements().add(payment, AcknowledgeType.ACCEPT), gapless.shareGroupMetadata());
            producer.commitTransaction();
        } catch (ProducerFencedException fenced) {
            producers.discard(consumer);        // a newer instance owns the transactional.id
            throw fenced;
        } catch (KafkaException e) {
            producer.abortTransaction();        // the record is released and delivered again
            throw e;
        }
    }
    // end::spring-share-listener[]
}
