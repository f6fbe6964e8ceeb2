package io.gapless.kafka.share.ledger;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
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
 */
public final class LedgerView implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(LedgerView.class);

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final String topic;
    private final IsolationLevel isolation;
    private final Map<Integer, LedgerIndex> indexes = new HashMap<>();
    // Set after the reader (re)started above offset 0: records were deleted below the first snapshot,
    // so the index is incomplete until that snapshot has been read.
    private final Map<Integer, Boolean> awaitingSnapshot = new HashMap<>();
    private final RecordObserver observer;

    /** Sees every ledger record this view applies, in log order (the inspection tools list them). */
    @FunctionalInterface
    interface RecordObserver {
        RecordObserver NONE = (partition, offset, record, bytes) -> { };

        /** {@code record} is a {@link LedgerEntry} or a {@link LedgerSnapshot}; a re-read after truncation repeats offsets. */
        void applied(int partition, long offset, Object record, int bytes);
    }

    /** @param connection the helper consumer's connection settings, client id included */
    LedgerView(Map<String, Object> connection, String topic, IsolationLevel isolation) {
        this(connection, topic, isolation, RecordObserver.NONE);
    }

    LedgerView(Map<String, Object> connection, String topic, IsolationLevel isolation, RecordObserver observer) {
        this.topic = topic;
        this.isolation = isolation;
        this.observer = observer;
        Map<String, Object> config = new HashMap<>(connection);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation.toString().toLowerCase(Locale.ROOT));
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        this.consumer = new KafkaConsumer<>(config);
    }

    /** The index of ledger partition {@code partition}; call a catch-up method first. */
    public LedgerIndex index(int partition) {
        track(partition);
        return indexes.get(partition);
    }

    /** Position of the reader in {@code partition}: every record below it has been applied. */
    public long position(int partition) {
        track(partition);
        return consumer.position(new TopicPartition(topic, partition));
    }

    /**
     * Whether the index of {@code partition} holds everything below the position: false after the
     * reader (re)started above offset 0 and has not yet read the snapshot that covers the deleted part.
     */
    public boolean complete(int partition) {
        track(partition);
        return !awaitingSnapshot.get(partition);
    }

    /** Reads until the position is at least {@code target} and the index is complete, or throws at the deadline. */
    public void catchUpTo(int partition, long target, long deadlineNanos) {
        track(partition);
        while (position(partition) < target || awaitingSnapshot.get(partition)) {
            if (System.nanoTime() > deadlineNanos) {
                throw new TimeoutException("Timed out reading ack ledger " + topic + "-" + partition + " (" + isolation
                        + ") up to offset " + target + "; reached " + position(partition));
            }
            pollOnce(Duration.ofMillis(50));
        }
    }

    /**
     * Reads up to what is readable now: the high watermark (read_uncommitted) or the last stable
     * offset (read_committed). Does not wait for open transactions beyond that.
     */
    public void catchUpToEnd(int partition, long deadlineNanos) {
        track(partition);
        TopicPartition tp = new TopicPartition(topic, partition);
        long end = consumer.endOffsets(List.of(tp), Duration.ofNanos(Math.max(1, deadlineNanos - System.nanoTime()))).get(tp);
        catchUpTo(partition, end, deadlineNanos);
    }

    /** Reads whatever one fetch returns, to let a blocked last stable offset move. */
    public void pollOnce(Duration timeout) {
        ConsumerRecords<byte[], byte[]> records;
        try {
            records = consumer.poll(timeout);
        } catch (OffsetOutOfRangeException e) {
            for (TopicPartition tp : e.partitions()) {
                // Records below a snapshot were deleted under us: start again from the log start.
                log.info("Ack ledger {} was truncated below this reader's position; re-reading from its start", tp);
                indexes.get(tp.partition()).clear();
                restart(tp);
            }
            return;
        }
        for (ConsumerRecord<byte[], byte[]> record : records) {
            if (record.value() == null) {
                continue;
            }
            int p = record.partition();
            Object decoded = LedgerCodec.decode(record.value(), record.offset());
            LedgerIndex index = indexes.get(p);
            int bytes = record.serializedValueSize() + Math.max(0, record.serializedKeySize());
            if (decoded instanceof LedgerEntry entry) {
                index.addEntry(entry, bytes);
            } else if (decoded instanceof LedgerSnapshot snapshot) {
                index.applySnapshot(snapshot);
                awaitingSnapshot.put(p, false);
            }
            observer.applied(p, record.offset(), decoded, bytes);
        }
    }

    private void track(int partition) {
        if (indexes.containsKey(partition)) {
            return;
        }
        indexes.put(partition, new LedgerIndex());
        List<TopicPartition> assignment = new ArrayList<>(consumer.assignment());
        TopicPartition tp = new TopicPartition(topic, partition);
        assignment.add(tp);
        consumer.assign(assignment);
        restart(tp);
    }

    private void restart(TopicPartition tp) {
        long start = consumer.beginningOffsets(List.of(tp)).get(tp);
        consumer.seek(tp, start);
        awaitingSnapshot.put(tp.partition(), start > 0);
    }

    @Override
    public void close() {
        consumer.close(Duration.ofSeconds(5));
    }
}
