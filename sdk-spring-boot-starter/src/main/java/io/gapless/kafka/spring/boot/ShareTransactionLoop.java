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
package io.gapless.kafka.spring.boot;

import io.gapless.kafka.share.GaplessShareConsumer;
import io.gapless.kafka.share.txn.ShareAcknowledgements;
import io.gapless.kafka.share.txn.TransactionalShareProducer;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.core.KafkaResourceHolder;
import org.springframework.kafka.core.ProducerFactory;
import org.springframework.kafka.listener.BatchListenerFailedException;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * One consumer thread of a {@link TransactionalShareListenerContainer}: KIP-1289's loop with one
 * transaction per poll. The producer is bound to the thread as the transactional resource of the
 * {@code KafkaTemplate}'s producer factory (as Spring's {@code KafkaTransactionManager} binds one),
 * so the listener's {@code template.send(...)} joins the poll's transaction without a transaction
 * call of its own; after the listener returns the acknowledgements go into the same transaction
 * and it commits.
 *
 * <p>A listener exception aborts the transaction: the listener's output is discarded and the
 * records come back (they were not staged, so the consumer releases them at its next poll). A
 * record that failed {@code maxAttempts} times is rejected instead: the poll is processed again at
 * once without it, in a new transaction whose acknowledgements reject it, so a poison record never
 * commits output and never blocks the others (Spring's error-handler semantics: retry, then
 * recover).
 */
final class ShareTransactionLoop<K, V> implements Runnable {
    private static final Logger log = LoggerFactory.getLogger(ShareTransactionLoop.class);

    private final GaplessShareConsumer<K, V> consumer;
    private final Supplier<TransactionalShareProducer<K, V>> producers;
    private final ProducerFactory<?, ?> templateFactory;
    private final ListenerInvoker<K, V> listener;
    private final List<String> topics;
    private final Duration pollTimeout;
    private final int maxAttempts;
    private final DeliveryAttempts attempts;
    private volatile boolean running = true;
    private TransactionalShareProducer<K, V> producer;

    ShareTransactionLoop(GaplessShareConsumer<K, V> consumer, Supplier<TransactionalShareProducer<K, V>> producers,
                         ProducerFactory<?, ?> templateFactory, ListenerInvoker<K, V> listener, List<String> topics,
                         Duration pollTimeout, int maxAttempts, DeliveryAttempts attempts) {
        this.consumer = consumer;
        this.producers = producers;
        this.templateFactory = templateFactory;
        this.listener = listener;
        this.topics = topics;
        this.pollTimeout = pollTimeout;
        this.maxAttempts = maxAttempts;
        this.attempts = attempts;
    }

    @Override
    public void run() {
        try {
            producer = producers.get();
            consumer.subscribe(topics);
            while (running) {
                ConsumerRecords<K, V> records = consumer.poll(pollTimeout);
                if (!records.isEmpty()) {
                    List<ConsumerRecord<K, V>> batch = new ArrayList<>(records.count());
                    records.forEach(batch::add);
                    process(batch);
                }
            }
        } catch (RuntimeException e) {
            log.error("Transactional share listener loop on {} stopped", topics, e);
        } finally {
            closeQuietly();
        }
    }

    /**
     * Ends the loop after its current poll and transaction. No {@code wakeup()}: it would also
     * interrupt the consumer calls of a commit in progress (measured: the commit of the poll's
     * acknowledgements then fails with a WakeupException and the records come back), so a stop
     * waits up to one poll timeout.
     */
    void stop() {
        running = false;
    }

    /** One poll: one transaction, again without the records found poison. */
    private void process(List<ConsumerRecord<K, V>> batch) {
        Set<ConsumerRecord<K, V>> rejected = Collections.newSetFromMap(new IdentityHashMap<>());
        while (true) {
            Failure<K, V> failure;
            producer.beginTransaction();
            TransactionSynchronizationManager.bindResource(templateFactory, new KafkaResourceHolder<>(producer, Duration.ofSeconds(5)));
            try {
                failure = dispatch(batch, rejected);
                if (failure == null) {
                    commit(batch, rejected);
                    return;
                }
            } catch (ProducerFencedException fenced) {
                log.warn("Transactional share listener on {}: producer fenced, a new one takes over its transactional.id", topics, fenced);
                replaceProducer();
                return;
            } catch (KafkaException e) {
                // The commit was refused (lock expired, another holder) or failed: the records come back.
                log.warn("Transactional share listener on {}: transaction not committed, its records come back", topics, e);
                abortQuietly();
                return;
            } finally {
                TransactionSynchronizationManager.unbindResourceIfPossible(templateFactory);
            }
            abortQuietly();
            List<ConsumerRecord<K, V>> exhausted = failure.exhausted(attempts, maxAttempts);
            if (exhausted.isEmpty()) {
                log.info("Transactional share listener on {}: listener failed, transaction aborted, the poll's records come back",
                        topics, failure.cause);
                return;
            }
            log.warn("Transactional share listener on {}: rejecting {} record(s) after {} failed attempts ({})", topics,
                    exhausted.size(), maxAttempts, describe(exhausted), failure.cause);
            rejected.addAll(exhausted);
        }
    }

    private Failure<K, V> dispatch(List<ConsumerRecord<K, V>> batch, Set<ConsumerRecord<K, V>> rejected) {
        List<ConsumerRecord<K, V>> live = batch.stream().filter(r -> !rejected.contains(r)).toList();
        if (live.isEmpty()) {
            return null;
        }
        if (listener.batch()) {
            try {
                listener.onBatch(live);
                return null;
            } catch (RuntimeException e) {
                return new Failure<>(failedRecords(e, live), e);
            }
        }
        for (ConsumerRecord<K, V> record : live) {
            try {
                listener.onRecord(record);
            } catch (RuntimeException e) {
                return new Failure<>(List.of(record), e);
            }
        }
        return null;
    }

    /** Spring's rule for batch listeners: a BatchListenerFailedException names the record; otherwise the whole batch failed. */
    static <K, V> List<ConsumerRecord<K, V>> failedRecords(RuntimeException e, List<ConsumerRecord<K, V>> live) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof BatchListenerFailedException failed) {
                if (failed.getRecord() != null) {
                    for (ConsumerRecord<K, V> r : live) {
                        if (r.topic().equals(failed.getRecord().topic()) && r.partition() == failed.getRecord().partition()
                                && r.offset() == failed.getRecord().offset()) {
                            return List.of(r);
                        }
                    }
                } else if (failed.getIndex() >= 0 && failed.getIndex() < live.size()) {
                    return List.of(live.get(failed.getIndex()));
                }
            }
        }
        return live;
    }

    private void commit(List<ConsumerRecord<K, V>> batch, Set<ConsumerRecord<K, V>> rejected) {
        ShareAcknowledgements acks = new ShareAcknowledgements();
        for (ConsumerRecord<K, V> record : batch) {
            acks.add(record, rejected.contains(record) ? AcknowledgeType.REJECT : AcknowledgeType.ACCEPT);
        }
        producer.sendShareAcknowledgementsToTransaction(acks, consumer.shareGroupMetadata());
        producer.commitTransaction();
        batch.forEach(attempts::settled);
    }

    private void abortQuietly() {
        try {
            producer.abortTransaction();
        } catch (ProducerFencedException fenced) {
            replaceProducer();
        } catch (KafkaException | IllegalStateException e) {
            // A refused commit has already aborted (a following abort is a no-op or refused); anything else
            // leaves a producer that cannot go on.
            log.debug("Transactional share listener on {}: abort after a failed transaction", topics, e);
        }
    }

    private void replaceProducer() {
        try {
            producer.close(Duration.ZERO);
        } catch (RuntimeException e) {
            log.debug("Closing a fenced producer", e);
        }
        producer = producers.get();
    }

    private void closeQuietly() {
        try {
            if (producer != null) {
                producer.close(Duration.ofSeconds(5));
            }
        } catch (RuntimeException e) {
            log.debug("Closing the producer", e);
        }
        try {
            consumer.close();
        } catch (RuntimeException e) {
            log.debug("Closing the share consumer", e);
        }
    }

    private static String describe(List<? extends ConsumerRecord<?, ?>> records) {
        StringBuilder out = new StringBuilder();
        for (ConsumerRecord<?, ?> r : records) {
            if (out.length() > 200) {
                out.append(", ...");
                break;
            }
            out.append(out.length() == 0 ? "" : ", ").append(r.topic()).append('-').append(r.partition()).append('@').append(r.offset());
        }
        return out.toString();
    }

    /** The records a listener failed on in one attempt, and why. */
    private record Failure<K, V>(List<ConsumerRecord<K, V>> records, RuntimeException cause) {
        /** Counts this attempt; the records that have now failed {@code maxAttempts} times. */
        List<ConsumerRecord<K, V>> exhausted(DeliveryAttempts attempts, int maxAttempts) {
            List<ConsumerRecord<K, V>> out = new ArrayList<>();
            for (ConsumerRecord<K, V> record : records) {
                if (attempts.failed(record) >= maxAttempts) {
                    out.add(record);
                }
            }
            return out;
        }
    }
}
