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
package io.gapless.kafka.benchmarks;

import io.gapless.kafka.testkit.EmbeddedKafka;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The runs of the expansion benchmark, each with a fresh topic and group. The topic starts with 2
 * partitions holding history: {@value #HISTORY_PER_PARTITION} records per partition with
 * producer timestamps spread evenly over the {@link #HISTORY_SPAN} before the group starts (one
 * every 12 s), which is what {@code by_duration} looks up.
 *
 * <ul>
 *   <li>{@link #running}: the group joins, a producer writes continuously (500 records/s), the
 *   topic grows to 4 partitions, the producer stops, and the run counts what the consumer delivered
 *   once every partition it holds is positioned at its end offset (or {@link #CATCH_UP_TIMEOUT} has
 *   passed): a record delivered late is not lost.</li>
 *   <li>{@link #stopped}: the group runs and commits, stops, the topic grows to 4 partitions and
 *   every partition receives records written during the stop, then the group starts again. The
 *   stop is twice the {@code by_duration} Kafka documents for the protocol (12 minutes classic, 10
 *   seconds consumer protocol) and is not waited out: the records carry the timestamps they would
 *   have had, spread evenly over it. {@code by_duration} resolves offsets by record timestamp
 *   (ListOffsets by time), so it positions exactly as after a real stop of that length.</li>
 * </ul>
 */
public final class ExpansionRun {
    static final int INITIAL_PARTITIONS = 2;
    static final int FINAL_PARTITIONS = 4;
    static final int HISTORY_PER_PARTITION = 60;
    static final Duration HISTORY_SPAN = Duration.ofMinutes(12);
    /** Records each partition receives while the group is stopped. */
    static final int STOPPED_PER_PARTITION = 100;
    private static final long TRICKLE_INTERVAL_NANOS = 2_000_000;
    private static final Duration POLL = Duration.ofMillis(20);
    private static final Duration PHASE_TIMEOUT = Duration.ofSeconds(40);
    /**
     * How long a run waits for the consumer to deliver what was written before counting the rest as
     * lost: longer than the default {@code request.timeout.ms} (30 s), the time Kafka 4.4 waits before
     * it repeats an offset reset whose ListOffsets-by-timestamp found no record (see {@link #catchUp}).
     */
    private static final Duration CATCH_UP_TIMEOUT = Duration.ofSeconds(45);
    private static final byte[] HISTORY_KEY = {'h'};

    private final Duration settle;
    private final Duration quiet;
    private final boolean smoke;
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

    /** The stop the {@link #stopped} scenario simulates: twice the documented {@code by_duration}. */
    static Duration simulatedStop(String groupProtocol) {
        return ExpansionClient.documentedDuration(groupProtocol).multipliedBy(2);
    }

    /**
     * Partitions added while the group runs. {@code round} picks the phase of the expansion in the
     * metadata/heartbeat cycle: the same for every client of a round.
     */
    public ExpansionOutcome running(String groupProtocol, ExpansionClient client, int round, int run) {
        String topic = ctx.unique("expansion-" + groupProtocol + "-" + run);
        String group = topic + "-group";
        TopicLoader.create(kafka, topic, INITIAL_PARTITIONS);
        writeHistory(topic);
        DeliveredRecords delivered = new DeliveredRecords(INITIAL_PARTITIONS);
        long constructing = System.nanoTime();
        try (Consumer<byte[], byte[]> consumer = client.create(props(group, groupProtocol), groupProtocol)) {
            long subscribed = System.nanoTime();
            double constructMs = (subscribed - constructing) / 1e6;
            consumer.subscribe(List.of(topic), new CommitOnRevoke(consumer));
            awaitPositioned(consumer, INITIAL_PARTITIONS, delivered, subscribed);
            double firstPollMs = (System.nanoTime() - subscribed) / 1e6;
            try (TrickleProducer trickle = new TrickleProducer(kafka, topic, INITIAL_PARTITIONS, FINAL_PARTITIONS, TRICKLE_INTERVAL_NANOS)) {
                // Classic consumers find added partitions on their metadata refresh (1 s here), consumer-protocol
                // members on a heartbeat: expand at a random phase of that cycle, the same phase for every client
                // of a round, so none is favoured by when its first poll happened to end.
                pollFor(consumer, delivered, Duration.ofMillis(200 + (smoke ? 0 : new Random(round).nextInt(1000))));
                long expandedAt = System.nanoTime();
                kafka.addPartitions(topic, FINAL_PARTITIONS);
                trickle.partitions(FINAL_PARTITIONS);
                double assignedMs = awaitAssignedThenSettle(consumer, delivered, expandedAt);
                trickle.stop();
                catchUp(consumer, delivered);
                long[] produced = new long[FINAL_PARTITIONS];
                for (int p = 0; p < FINAL_PARTITIONS; p++) {
                    produced[p] = trickle.produced(p);
                }
                Loss loss = Loss.of(produced, delivered);
                double firstNewMs = delivered.firstNewAt() < 0 ? Double.NaN : (delivered.firstNewAt() - expandedAt) / 1e6;
                return new ExpansionOutcome(constructMs, firstPollMs, loss.producedNew(), loss.lostNew(), loss.lostOld(),
                        delivered.duplicates(), delivered.history(), assignedMs, firstNewMs, slowestNewPartition(delivered, expandedAt));
            }
        } finally {
            cleanUp(topic, group);
        }
    }

    /** Partitions added while the group is stopped for twice the documented {@code by_duration} (see the class comment). */
    public ExpansionOutcome stopped(String groupProtocol, ExpansionClient client, int run) {
        String topic = ctx.unique("expansion-stopped-" + groupProtocol + "-" + run);
        String group = topic + "-group";
        TopicLoader.create(kafka, topic, INITIAL_PARTITIONS);
        writeHistory(topic);
        DeliveredRecords delivered = new DeliveredRecords(INITIAL_PARTITIONS);
        long[] produced = new long[FINAL_PARTITIONS];
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(oneInFlight())) {
            long seq = 0;
            double firstPollMs;
            try (Consumer<byte[], byte[]> consumer = client.create(props(group, groupProtocol), groupProtocol)) {
                long subscribed = System.nanoTime();
                consumer.subscribe(List.of(topic), new CommitOnRevoke(consumer));
                awaitPositioned(consumer, INITIAL_PARTITIONS, delivered, subscribed);
                firstPollMs = (System.nanoTime() - subscribed) / 1e6;
                // The group makes progress before it stops: records written now are delivered and committed.
                for (int p = 0; p < INITIAL_PARTITIONS; p++) {
                    for (int i = 0; i < 10; i++) {
                        producer.send(new ProducerRecord<>(topic, p, null, sequence(seq++)));
                        produced[p]++;
                    }
                }
                producer.flush();
                drain(consumer, delivered);
                consumer.commitSync();
            }
            kafka.addPartitions(topic, FINAL_PARTITIONS);
            long stop = simulatedStop(groupProtocol).toMillis();
            long now = System.currentTimeMillis();
            for (int i = 0; i < STOPPED_PER_PARTITION; i++) {
                long timestamp = now - stop + i * stop / STOPPED_PER_PARTITION;
                for (int p = 0; p < FINAL_PARTITIONS; p++) {
                    producer.send(new ProducerRecord<>(topic, p, timestamp, null, sequence(seq++)));
                    produced[p]++;
                }
            }
            producer.flush();
            try (Consumer<byte[], byte[]> consumer = client.create(props(group, groupProtocol), groupProtocol)) {
                consumer.subscribe(List.of(topic), new CommitOnRevoke(consumer));
                awaitPositioned(consumer, FINAL_PARTITIONS, delivered, System.nanoTime());
                catchUp(consumer, delivered);
            }
            Loss loss = Loss.of(produced, delivered);
            return new ExpansionOutcome(Double.NaN, firstPollMs, loss.producedNew(), loss.lostNew(), loss.lostOld(),
                    delivered.duplicates(), delivered.history(), Double.NaN, Double.NaN, Double.NaN);
        } finally {
            cleanUp(topic, group);
        }
    }

    /** What a run produced on the added partitions and lost there and on the original ones. */
    private record Loss(long producedNew, long lostNew, long lostOld) {
        static Loss of(long[] produced, DeliveredRecords delivered) {
            long producedNew = 0;
            long lostNew = 0;
            long lostOld = 0;
            for (int p = 0; p < FINAL_PARTITIONS; p++) {
                long lost = Math.max(0, produced[p] - delivered.distinct(p));
                if (p >= INITIAL_PARTITIONS) {
                    producedNew += produced[p];
                    lostNew += lost;
                } else {
                    lostOld += lost;
                }
            }
            return new Loss(producedNew, lostNew, lostOld);
        }
    }

    private Map<String, Object> props(String group, String groupProtocol) {
        Map<String, Object> props = ClientSettings.consumer(kafka, group, groupProtocol, "latest");
        // Find added partitions quickly (as the facts measured), so the run shows loss rather than a slow refresh.
        props.put(ConsumerConfig.METADATA_MAX_AGE_CONFIG, smoke ? 300 : 1000);
        return props;
    }

    private void cleanUp(String topic, String group) {
        kafka.deleteTopics(topic);
        BaselineTopics.deleteFor(ctx, group);
    }

    private static byte[] sequence(long seq) {
        return ByteBuffer.allocate(Long.BYTES).putLong(seq).array();
    }

    private Map<String, Object> oneInFlight() {
        Map<String, Object> settings = ClientSettings.producer(kafka);
        // See TrickleProducer: a partition created a moment ago must not see pipelined batches.
        settings.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1);
        return settings;
    }

    /** History with timestamps spread evenly over {@link #HISTORY_SPAN}, the newest one {@code span / n} old. */
    private void writeHistory(String topic) {
        long now = System.currentTimeMillis();
        long span = HISTORY_SPAN.toMillis();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(ClientSettings.producer(kafka))) {
            for (int p = 0; p < INITIAL_PARTITIONS; p++) {
                for (int i = 0; i < HISTORY_PER_PARTITION; i++) {
                    long timestamp = now - span + i * span / HISTORY_PER_PARTITION;
                    producer.send(new ProducerRecord<>(topic, p, timestamp, HISTORY_KEY, new byte[8]));
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

    /**
     * Polls until every assigned partition is positioned at or past its end offset, so that what the
     * run counts as lost is what the consumer skipped, not what it delivers late. A partition whose
     * {@code by_duration} reset found no record at or after {@code now - d} (a partition added a
     * moment ago and still empty) stays unpositioned: Kafka 4.4 drops the ListOffsets answer
     * {@code -1} without a retry and asks again only when the {@code request.timeout.ms} it set as
     * the next allowed retry has passed.
     */
    static void catchUp(Consumer<byte[], byte[]> consumer, DeliveredRecords delivered) {
        long deadline = System.nanoTime() + CATCH_UP_TIMEOUT.toNanos();
        Map<TopicPartition, Long> ends = consumer.endOffsets(consumer.assignment());
        while (System.nanoTime() < deadline && !caughtUp(consumer, ends)) {
            delivered.add(pollAndCommit(consumer));
        }
    }

    private static boolean caughtUp(Consumer<byte[], byte[]> consumer, Map<TopicPartition, Long> ends) {
        for (Map.Entry<TopicPartition, Long> end : ends.entrySet()) {
            try {
                if (!consumer.assignment().contains(end.getKey()) || consumer.position(end.getKey(), Duration.ZERO) < end.getValue()) {
                    return false;
                }
            } catch (TimeoutException notPositionedYet) {
                return false;
            }
        }
        return true;
    }

    /** From {@code createPartitions} to the first record of the added partition that delivered last (NaN: one delivered nothing). */
    private static double slowestNewPartition(DeliveredRecords delivered, long expandedAt) {
        long last = expandedAt;
        for (int p = INITIAL_PARTITIONS; p < FINAL_PARTITIONS; p++) {
            long first = delivered.firstAt(p);
            if (first < 0) {
                return Double.NaN;
            }
            last = Math.max(last, first);
        }
        return (last - expandedAt) / 1e6;
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
