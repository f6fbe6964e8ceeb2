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
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.OutOfOrderSequenceException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.springframework.kafka.annotation.KafkaListener;

/**
 * KIP-1289's consume-transform-produce loop on Spring's share listener container. The container
 * polls and hands the listener one record at a time, so each record is one transaction: its
 * output and its acknowledgement commit together, or neither. On any failure, a business exception
 * of {@link Enrichment} as much as Kafka's, the transaction is aborted and the exception goes back
 * to the container; the record is released and comes back (up to the share group's delivery count
 * limit), and the container's thread goes on with the next records.
 */
public class PaymentEnricher {
    public static final String INPUT = "spring-payments";
    public static final String OUTPUT = "spring-payments-enriched";
    public static final String GROUP = "spring-payments-enricher";

    private final TransactionalProducers producers;
    private final Enrichment enrichment;
    private final String output;

    public PaymentEnricher(TransactionalProducers producers, Enrichment enrichment, String output) {
        this.producers = producers;
        this.enrichment = enrichment;
        this.output = output;
    }

    // tag::spring-share-listener[]
    @KafkaListener(id = "${payments.listener-id:enricher}", topics = "${payments.input:" + INPUT + "}",
            groupId = "${payments.group:" + GROUP + "}", concurrency = "${payments.concurrency:2}",
            containerFactory = "transactionalShareContainerFactory")
    public void enrich(ConsumerRecord<String, String> payment, ShareConsumer<String, String> consumer) {
        GaplessShareConsumer<String, String> gapless = (GaplessShareConsumer<String, String>) consumer;
        TransactionalShareProducer<String, String> producer = producers.producerFor(consumer);
        producer.beginTransaction();
        try {
            producer.send(new ProducerRecord<>(output, payment.key(), enrichment.enrich(payment.value())));
            producer.sendShareAcknowledgementsToTransaction(
                    new ShareAcknowledgements().add(payment, AcknowledgeType.ACCEPT), gapless.shareGroupMetadata());
            producer.commitTransaction();
        } catch (ProducerFencedException | OutOfOrderSequenceException | AuthorizationException | UnsupportedVersionException fatal) {
            producers.discard(consumer);        // Kafka's fatal errors: this producer cannot go on; the next record gets a new one
            throw fatal;
        } catch (RuntimeException e) {
            // Any failure, a business one too: a transaction left open would make the next poll throw and end
            // the container's thread. Aborting releases the record, which is delivered again.
            try {
                producer.abortTransaction();
            } catch (RuntimeException abortFailed) {
                e.addSuppressed(abortFailed);
                producers.discard(consumer);    // the producer is in an error state it cannot leave
            }
            throw e;
        }
    }
    // end::spring-share-listener[]
}
