package io.gapless.kafka.benchmarks;

import io.gapless.kafka.core.GaplessConsumer;
import io.gapless.kafka.testkit.EmbeddedKafka;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * One run of the expansion scenario: a new group with {@code auto.offset.reset=latest} joins a
 * 2-partition topic that already holds history, a producer writes continuously, the topic grows to
 * 4 partitions, and the run counts what the consumer delivered from the added partitions.
 */
public final class ExpansionRun {
    static final int INITIAL_PARTITIONS = 2;
    static final int FINAL_PARTITIONS = 4;
    private static final int HISTORY_PER_PARTITION = 50;
    private static final long TRICKLE_INTERVAL_NANOS = 2_000_000;
    private static final Duration POLL = Duration.ofMillis(20);
    private static final Duration PHASE_TIMEOUT = Duration.ofSeconds(40);
    private final Duration settle;
    private final Duration quiet;
    private final boolean smoke;
    private static final byte[] HISTORY_KEY = {'h'};

    private final EmbeddedKafka kafka;
    private final BenchmarkContext ctx;

    public ExpansionRun(BenchmarkContext ctx) {
        this.ctx = ctx;
        this.kafka = ctx.kafka();
        // Long enough to see records arrive after the assignment; the smoke mode only proves the code path.
        Duration wait = ctx.mode() == BenchmarkMode.SMOKE ? Duration.ofMillis(300) : Duration.ofSeconds(1);
        this.settle = wait;
        this.quiet = wait;
        this.smoke = ctx.mode() == BenchmarkMode.SMOKE;
    }

    /** Runs once with a fresh topic and group; {@code sdk} picks {@link GaplessConsumer} with new partitions at earliest. */
    public ExpansionOutcome execute(String groupProtocol, boolean sdk, int run) {
        String topic = ctx.unique("expansion-" + groupProtocol + "-" + run);
        TopicLoader.create(kafka, topic, INITIAL_PARTITIONS);
        writeHistory(topic);
        Map<String, Object> props = ClientSettings.consumer(kafka, topic + "-group", groupProtocol, "latest");
        // Find added partitions quickly (as the facts measured), so the run shows loss rather than a slow refresh.
        props.put(ConsumerConfig.METADATA_MAX_AGE_CONFIG, smoke ? 300 : 1000);
        DeliveredRecords delivered = new DeliveredRecords(INITIAL_PARTITIONS);
        long constructing = System.nanoTime();
        try (Consumer<byte[], byte[]> consumer = sdk
                ? new GaplessConsumer<>(ClientSettings.sdkConsumer(props, "earliest"))
                : new KafkaConsumer<>(props)) {
            long subscribed = System.nanoTime();
            double constructMs = (subscribed - constructing) / 1e6;
            consumer.subscribe(List.of(topic), new CommitOnRevoke(consumer));
            awaitPositioned(consumer, INITIAL_PARTITIONS, delivered, subscribed);
            double firstPollMs = (System.nanoTime() - subscribed) / 1e6;

            ExpansionOutcome outcome;
            try (TrickleProducer trickle = new TrickleProducer(kafka, topic, INITIAL_PARTITIONS, FINAL_PARTITIONS, TRICKLE_INTERVAL_NANOS)) {
                // Classic consumers find added partitions on their metadata refresh (1 s here), consumer-protocol
                // members on a heartbeat: expand at a random phase of that cycle, the same phase for both
                // variants of a pair, so neither is favoured by when its first poll happened to end.
                pollFor(consumer, delivered, Duration.ofMillis(200 + (smoke ? 0 : new Random(run / 2).nextInt(1000))));
                long expandedAt = System.nanoTime();
                kafka.addPartitions(topic, FINAL_PARTITIONS);
                trickle.partitions(FINAL_PARTITIONS);
                double assignedMs = awaitAssignedThenSettle(consumer, delivered, expandedAt);
                trickle.stop();
                drain(consumer, delivered);
                long producedNew = 0;
                long lostNew = 0;
                long lostOld = 0;
                for (int p = 0; p < FINAL_PARTITIONS; p++) {
                    long lost = Math.max(0, trickle.produced(p) - delivered.distinct(p));
                    if (p >= INITIAL_PARTITIONS) {
                        producedNew += trickle.produced(p);
                        lostNew += lost;
                    } else {
                        lostOld += lost;
                    }
                }
                double firstNewMs = delivered.firstNewAt() < 0 ? Double.NaN : (delivered.firstNewAt() - expandedAt) / 1e6;
                outcome = new ExpansionOutcome(constructMs, firstPollMs, producedNew, lostNew, lostOld, delivered.duplicates(),
                        delivered.history(), assignedMs, firstNewMs);
            }
            return outcome;
        } finally {
            kafka.deleteTopics(topic);
        }
    }

    private void writeHistory(String topic) {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(ClientSettings.producer(kafka))) {
            for (int p = 0; p < INITIAL_PARTITIONS; p++) {
                for (int i = 0; i < HISTORY_PER_PARTITION; i++) {
                    producer.send(new ProducerRecord<>(topic, p, HISTORY_KEY, new byte[8]));
                }
            }
            producer.flush();
        }
    }

    /** Polls until {@code count} partitions are assigned and each has a position (the SDK resets them on the way). */
    private static void awaitPositioned(Consumer<byte[], byte[]> consumer, int count, DeliveredRecords delivered, long since) {
        long deadline = since + PHASE_TIMEOUT.toNanos();
        while (consumer.assignment().size() < count) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("not assigned " + count + " partitions within " + PHASE_TIMEOUT);
            }
            delivered.add(pollAndCommit(consumer));
        }
        for (TopicPartition tp : consumer.assignment()) {
            consumer.position(tp, PHASE_TIMEOUT);
        }
    }

    /** Polls until every partition is assigned, then a little longer; returns the time to full assignment (NaN: never). */
    private double awaitAssignedThenSettle(Consumer<byte[], byte[]> consumer, DeliveredRecords delivered, long expandedAt) {
        long deadline = expandedAt + PHASE_TIMEOUT.toNanos();
        long assignedAt = -1;
        while (System.nanoTime() < deadline) {
            delivered.add(pollAndCommit(consumer));
            if (assignedAt < 0 && consumer.assignment().size() == FINAL_PARTITIONS) {
                assignedAt = System.nanoTime();
            }
            if (assignedAt > 0 && System.nanoTime() - assignedAt > settle.toNanos()) {
                break;
            }
        }
        return assignedAt < 0 ? Double.NaN : (assignedAt - expandedAt) / 1e6;
    }

    /** Polls once and commits what was delivered, as a real application would (commit-on-revoke covers rebalances). */
    private static ConsumerRecords<byte[], byte[]> pollAndCommit(Consumer<byte[], byte[]> consumer) {
        ConsumerRecords<byte[], byte[]> records = consumer.poll(POLL);
        if (!records.isEmpty()) {
            consumer.commitAsync();
        }
        return records;
    }

    /** Commits the positions of partitions about to be revoked, so a rebalance does not reset them. */
    private record CommitOnRevoke(Consumer<byte[], byte[]> consumer) implements ConsumerRebalanceListener {
        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            if (!partitions.isEmpty()) {
                consumer.commitSync();
            }
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
        }
    }

    private static void pollFor(Consumer<byte[], byte[]> consumer, DeliveredRecords delivered, Duration time) {
        long until = System.nanoTime() + time.toNanos();
        while (System.nanoTime() < until) {
            delivered.add(pollAndCommit(consumer));
        }
    }

    private void drain(Consumer<byte[], byte[]> consumer, DeliveredRecords delivered) {
        long quietUntil = System.nanoTime() + quiet.toNanos();
        long hardStop = System.nanoTime() + PHASE_TIMEOUT.toNanos();
        while (System.nanoTime() < quietUntil && System.nanoTime() < hardStop) {
            if (delivered.add(pollAndCommit(consumer)) > 0) {
                quietUntil = System.nanoTime() + quiet.toNanos();
            }
        }
    }
}
