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
package io.gapless.kafka.share.ledger;

import io.gapless.kafka.core.spi.Authorization;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads ledger partitions with one isolation level into a {@link LedgerIndex} per partition, on
 * the caller's thread and only when asked (no background thread). A read_committed view's
 * position is the last stable offset it has passed: every entry below it has a known fate.
 *
 * <p>A reader that (re)starts above offset 0 lost what lies below its start: it answers only once
 * it has read a snapshot that covers everything below that start. Producers snapshot
 * concurrently, so the first snapshot it meets may be an older one that covers less (issue 12,
 * hole 1); the one that covers the start exists, at or above it, because records are deleted only
 * below the coverage of a snapshot already written.
 *
 * @since 0.1.0
 */
public final class LedgerView implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(LedgerView.class);

    private final Consumer<byte[], byte[]> consumer;
    private final IsolationLevel isolation;
    private final Map<TopicPartition, LedgerIndex> indexes = new HashMap<>();
    // Per partition read from above offset 0: the offset a snapshot must cover before the index is complete.
    private final Map<TopicPartition, Long> coverageNeeded = new HashMap<>();
    // Partitions whose log ended below this reader's position (the topic was deleted and re-created): why, per partition.
    private final Map<TopicPartition, String> lost = new HashMap<>();
    private final RecordObserver observer;
    // False for the inspection's passes that only list records: they keep nothing of what they read.
    private final boolean indexed;

    /** Sees every ledger record this view applies, in log order (the inspection tools list them). */
    @FunctionalInterface
    interface RecordObserver {
        RecordObserver NONE = (partition, offset, record, bytes) -> { };

        /**
         * {@code record} is a {@link LedgerEntry}, a {@link LedgerSnapshot} or a list of
         * {@link LedgerConfirmation}s; a re-read after truncation repeats offsets.
         */
        void applied(TopicPartition partition, long offset, Object record, int bytes);
    }

    /** @param connection the helper consumer's connection settings, client id included */
    LedgerView(Map<String, Object> connection, IsolationLevel isolation) {
        this(connection, isolation, RecordObserver.NONE);
    }

    LedgerView(Map<String, Object> connection, IsolationLevel isolation, RecordObserver observer) {
        this(connection, isolation, observer, true);
    }

    /** @param indexed whether to build the index; without it only {@link #readTo} and the observer are of use */
    LedgerView(Map<String, Object> connection, IsolationLevel isolation, RecordObserver observer, boolean indexed) {
        this.isolation = isolation;
        this.observer = observer;
        this.indexed = indexed;
        Map<String, Object> config = new HashMap<>(connection);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation.toString().toLowerCase(Locale.ROOT));
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        // A fetch parked at the end of the log for the default 500 ms holds the connection: the
        // commit path's ListOffsets (catchUpToEnd) would queue behind it, as the baseline reader's did.
        config.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 10);
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        this.consumer = new KafkaConsumer<>(config);
    }

    /** For tests: reads with {@code consumer} (e.g. Kafka's MockConsumer). */
    LedgerView(Consumer<byte[], byte[]> consumer, IsolationLevel isolation) {
        this.isolation = isolation;
        this.consumer = consumer;
        this.observer = RecordObserver.NONE;
        this.indexed = true;
    }

    /** The index of ledger partition {@code partition}; call a catch-up method first. */
    public LedgerIndex index(TopicPartition partition) {
        track(partition);
        return indexes.get(partition);
    }

    /** Position of the reader in {@code partition}: every record below it has been applied. */
    public long position(TopicPartition partition) {
        track(partition);
        try {
            return consumer.position(partition);
        } catch (AuthorizationException e) {
            throw refused(e);
        }
    }

    /**
     * Whether the index of {@code partition} holds everything below the position: false after the
     * reader (re)started above offset 0 and has not yet read a snapshot that covers the deleted part.
     */
    public boolean complete(TopicPartition partition) {
        track(partition);
        return !coverageNeeded.containsKey(partition);
    }

    /** Reads until the position is at least {@code target} and the index is complete, or throws at the deadline. */
    public void catchUpTo(TopicPartition partition, long target, long deadlineNanos) {
        track(partition);
        while (position(partition) < target || !complete(partition)) {
            if (System.nanoTime() > deadlineNanos) {
                throw new TimeoutException("Timed out reading ack ledger " + partition + " (" + isolation + ") up to offset " + target
                        + "; reached " + position(partition) + (complete(partition) ? ""
                        : ", waiting for a snapshot that covers offsets below " + coverageNeeded.get(partition)));
            }
            pollOnce(Duration.ofMillis(50));
        }
    }

    /**
     * Reads until the position is at least {@code target}, whether or not the index is complete
     * (for a view that only observes), or throws at the deadline.
     */
    void readTo(TopicPartition partition, long target, long deadlineNanos) {
        track(partition);
        while (position(partition) < target) {
            if (System.nanoTime() > deadlineNanos) {
                throw new TimeoutException("Timed out reading ack ledger " + partition + " (" + isolation + ") up to offset " + target
                        + "; reached " + position(partition));
            }
            pollOnce(Duration.ofMillis(50));
        }
    }

    /**
     * Reads up to what is readable now: the high watermark (read_uncommitted) or the last stable
     * offset (read_committed). Does not wait for open transactions beyond that.
     */
    public void catchUpToEnd(TopicPartition partition, long deadlineNanos) {
        track(partition);
        long end;
        try {
            end = consumer.endOffsets(List.of(partition), Duration.ofNanos(Math.max(1, deadlineNanos - System.nanoTime()))).get(partition);
        } catch (AuthorizationException e) {
            throw refused(e);
        }
        catchUpTo(partition, end, deadlineNanos);
    }

    /** Reads whatever one fetch returns, to let a blocked last stable offset move. */
    public void pollOnce(Duration timeout) {
        throwIfLost();
        ConsumerRecords<byte[], byte[]> records;
        try {
            records = consumer.poll(timeout);
        } catch (AuthorizationException e) {
            throw refused(e);
        } catch (OffsetOutOfRangeException e) {
            for (TopicPartition tp : e.partitions()) {
                long at = e.offsetOutOfRangePartitions().getOrDefault(tp, -1L);
                long start = beginningOffset(tp);
                if (at >= start) {
                    // Out of range yet not below the start: above the end. A truncation below a snapshot moves the start, never
                    // the end; a log shorter than what this reader already read lost committed entries (issue 22, finding 8).
                    lost.put(tp, "Ack-ledger partition " + tp + " now ends below offset " + at + " (log start " + start
                            + "), which this reader had already read: the ledger topic was deleted and re-created, and the"
                            + " history of the commits it checked is gone");
                    log.error(lost.get(tp));
                    continue;
                }
                // Records below a snapshot were deleted under us: start again from the log start.
                log.info("Ack ledger {} was truncated below this reader's position; re-reading from its start", tp);
                indexes.get(tp).clear();
                restart(tp);
            }
            throwIfLost();
            return;
        }
        for (ConsumerRecord<byte[], byte[]> record : records) {
            if (record.value() == null) {
                continue;
            }
            TopicPartition tp = new TopicPartition(record.topic(), record.partition());
            LedgerIndex index = indexes.get(tp);
            Object decoded;
            try {
                decoded = LedgerCodec.decode(record.value(), record.offset());
            } catch (KafkaException e) {
                // Stay at the record: a view past it would answer for entries it never applied (issue 22, finding 8).
                consumer.seek(tp, record.offset());
                throw e;
            }
            int bytes = record.serializedValueSize() + Math.max(0, record.serializedKeySize());
            if (!indexed) {
                observer.applied(tp, record.offset(), decoded, bytes);
                continue;
            }
            if (decoded instanceof LedgerEntry entry) {
                index.addEntry(entry, bytes);
            } else if (decoded instanceof LedgerSnapshot snapshot) {
                index.applySnapshot(snapshot);
                Long needed = coverageNeeded.get(tp);
                if (needed != null && snapshot.coversBelow() >= needed) {
                    coverageNeeded.remove(tp);
                }
            } else if (decoded instanceof List<?> confirmations) {
                @SuppressWarnings("unchecked")
                List<LedgerConfirmation> list = (List<LedgerConfirmation>) confirmations;
                index.addConfirmations(list);
            }
            observer.applied(tp, record.offset(), decoded, bytes);
        }
    }

    private void throwIfLost() {
        if (!lost.isEmpty()) {
            throw new LedgerHistoryLostException(lost.values().iterator().next());
        }
    }

    private void track(TopicPartition partition) {
        if (indexes.containsKey(partition)) {
            return;
        }
        List<TopicPartition> assignment = new ArrayList<>(consumer.assignment());
        assignment.add(partition);
        consumer.assign(assignment);
        restart(partition);
        indexes.put(partition, new LedgerIndex());
    }

    // The broker names the topic at best, never the operation: Read is the only one a view needs.
    private AuthorizationException refused(AuthorizationException e) {
        String topics = e instanceof TopicAuthorizationException t && !t.unauthorizedTopics().isEmpty()
                ? String.join(", ", t.unauthorizedTopics())
                : String.join(", ", consumer.assignment().stream().map(TopicPartition::topic).distinct().sorted().toList());
        return Authorization.explain(e, "Read on topic " + topics + " (the ack ledger)", ResourceType.TOPIC, topics);
    }

    private long beginningOffset(TopicPartition tp) {
        try {
            return consumer.beginningOffsets(List.of(tp)).get(tp);
        } catch (AuthorizationException e) {
            throw refused(e);
        }
    }

    private void restart(TopicPartition tp) {
        long start = beginningOffset(tp);
        consumer.seek(tp, start);
        if (start > 0) {
            coverageNeeded.put(tp, start);
        } else {
            coverageNeeded.remove(tp);
        }
    }

    @Override
    public void close() {
        consumer.close(Duration.ofSeconds(5));
    }
}
