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
package io.gapless.kafka.examples.docs;

import io.gapless.kafka.core.ResetPolicy;
import io.gapless.kafka.share.GaplessShareConsumer;
import io.gapless.kafka.share.admin.ShareGroupConfigSnapshot;
import io.gapless.kafka.share.admin.ShareGroupSettings;
import io.gapless.kafka.share.txn.ShareAcknowledgements;
import io.gapless.kafka.share.txn.TransactionalShareProducer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.TimeoutException;

import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.function.BooleanSupplier;

/** Share groups in README.md and docs/share-groups.md. */
final class ShareSnippets {
    private ShareSnippets() {
    }

    static void transactionalLoop(Properties consumerProps, Properties producerProps, BooleanSupplier running) {
        // tag::share-transactional-loop[]
        consumerProps.put("share.acknowledgement.mode", "transactional");   // KIP-1289, section 7
        GaplessShareConsumer<String, String> consumer = new GaplessShareConsumer<>(consumerProps);
        TransactionalShareProducer<String, String> producer = new TransactionalShareProducer<>(producerProps); // transactional.id set
        producer.initTransactions();
        consumer.subscribe(List.of("orders"));
        while (running.getAsBoolean()) {
            ConsumerRecords<String, String> records = consumer.poll(Duration.ofSeconds(1));
            if (records.isEmpty()) continue;
            producer.beginTransaction();
            try {
                for (ConsumerRecord<String, String> r : records) producer.send(enrich(r));
                producer.sendShareAcknowledgementsToTransaction(
                        ShareAcknowledgements.fromRecords(records, AcknowledgeType.ACCEPT), consumer.shareGroupMetadata());
                producer.commitTransaction();
            } catch (ProducerFencedException | TimeoutException e) {     // Kafka refuses abort after a timed-out commit
                producer.close();                                              // staged records are renewed; the ledger decides
                producer = new TransactionalShareProducer<>(producerProps);   // same transactional.id
                producer.initTransactions();
            } catch (KafkaException e) {
                producer.abortTransaction();                                   // the records come back
            }
        }
        // end::share-transactional-loop[]
        producer.close();
        consumer.close();
    }

    static void frontPageTransaction(GaplessShareConsumer<String, String> consumer,
                                     TransactionalShareProducer<String, String> producer,
                                     ConsumerRecords<String, String> records) {
        // tag::readme-share-transaction[]
        producer.beginTransaction();
        for (ConsumerRecord<String, String> r : records) producer.send(enrich(r));
        producer.sendShareAcknowledgementsToTransaction(                       // the input is acknowledged
                ShareAcknowledgements.fromRecords(records, AcknowledgeType.ACCEPT), consumer.shareGroupMetadata());
        producer.commitTransaction();                                          // with the output, or not at all
        // end::readme-share-transaction[]
    }

    static GaplessShareConsumer<String, String> newPartitions(Properties consumerProps) {
        // tag::share-new-partitions[]
        consumerProps.put("share.auto.offset.reset", "latest");                   // the group's base policy
        consumerProps.put("share.auto.offset.reset.new.partitions", "earliest");  // partitions added later
        GaplessShareConsumer<String, String> consumer = new GaplessShareConsumer<>(consumerProps);
        // end::share-new-partitions[]
        return consumer;
    }

    static ShareGroupConfigSnapshot settings(Admin admin) {
        // tag::share-group-settings[]
        ShareGroupSettings settings = ShareGroupSettings.forGroup(admin, "orders-workers");
        settings.update()
                .autoOffsetReset(ResetPolicy.EARLIEST)
                .recordLockDuration(Duration.ofSeconds(45))
                .deliveryCountLimit(3)
                .isolationLevel(IsolationLevel.READ_COMMITTED)
                .apply();
        ShareGroupConfigSnapshot now = settings.describe();
        // end::share-group-settings[]
        return now;
    }

    static void frontPageShare(Properties consumerProps, Admin admin) {
        // tag::readme-share-new-partitions[]
        consumerProps.put("share.auto.offset.reset.new.partitions", "earliest");  // partitions added later
        GaplessShareConsumer<String, String> consumer = new GaplessShareConsumer<>(consumerProps);   // was: new KafkaShareConsumer<>(...)
        // end::readme-share-new-partitions[]
        consumer.close();
        // tag::readme-share-settings[]
        ShareGroupSettings.forGroup(admin, "orders-workers").update()
                .deliveryCountLimit(3)
                .recordLockDuration(Duration.ofSeconds(45))
                .apply();                      // checked completely first: all or nothing
        // end::readme-share-settings[]
    }

    private static ProducerRecord<String, String> enrich(ConsumerRecord<String, String> order) {
        return new ProducerRecord<>("orders-enriched", order.key(), order.value() + " enriched");
    }
}
