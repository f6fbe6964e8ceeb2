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
package io.gapless.kafka.core;

import io.gapless.kafka.testkit.EmbeddedKafka;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * JMH: the cost {@link GaplessConsumer#poll} adds to its delegate's {@code poll}, with the broker
 * out of the figure. The delegate is Kafka's {@code MockConsumer} whose {@code poll} returns one
 * prepared batch (500 records of 100 bytes on 4 partitions), so {@link #kafkaConsumerStub} is the
 * floor and {@link #gaplessConsumer} is the same call through the SDK with emulation active
 * ({@code auto.offset.reset.new.partitions=earliest}, subscribed, partitions assigned through its
 * rebalance listener). In this package because that delegate is injected through the
 * package-private constructor the SDK's own tests use.
 *
 * <p>Each fork starts an embedded broker (both sides, so both run beside the same idle broker
 * threads), and the SDK's baseline clients use it: its registration of the assigned partitions
 * succeeds during set-up, and the poll path measured is the steady state of a consumer whose
 * partitions are registered. (Against an unreachable baseline the SDK retries in the background,
 * opening and closing its helper clients, and that churn, not the poll path, dominated the figure
 * on a loaded 2-core machine.)
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class PollOverheadJmh {
    /** Records in the prepared batch. */
    public static final int RECORDS = 500;
    static final int PARTITIONS = 4;
    private static final String TOPIC = "jmh-poll";
    private static final Duration TIMEOUT = Duration.ofMillis(100);
    // Long enough for the registration on the SDK's worker to finish before JMH's warm-up starts.
    private static final Duration SETTLE = Duration.ofSeconds(3);

    /** A delegate whose {@code poll} hands back the same prepared batch every time. */
    static final class PreparedBatchConsumer extends MockConsumer<byte[], byte[]> {
        private final ConsumerRecords<byte[], byte[]> batch;

        PreparedBatchConsumer(ConsumerRecords<byte[], byte[]> batch) {
            super("none");
            this.batch = batch;
        }

        @Override
        public ConsumerRecords<byte[], byte[]> poll(Duration timeout) {
            return batch;
        }
    }

    /** The bare delegate. */
    @State(Scope.Thread)
    public static class Bare {
        Consumer<byte[], byte[]> consumer;
        EmbeddedKafka kafka;

        @Setup(Level.Trial)
        public void setUp() {
            kafka = broker();
            PreparedBatchConsumer mock = new PreparedBatchConsumer(batch());
            mock.subscribe(List.of(TOPIC));
            mock.rebalance(partitions());
            consumer = mock;
        }

        /** One poll outside JMH (the CPU-time measurement of {@code PollOverheadBenchmark}). */
        public int poll() {
            return consumer.poll(TIMEOUT).count();
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            consumer.close();
            kafka.close();
        }
    }

    /** The same delegate inside {@link GaplessConsumer}, emulation active. */
    @State(Scope.Thread)
    public static class Sdk {
        GaplessConsumer<byte[], byte[]> consumer;
        EmbeddedKafka kafka;

        @Setup(Level.Trial)
        public void setUp() {
            kafka = broker();
            PreparedBatchConsumer mock = new PreparedBatchConsumer(batch());
            consumer = new GaplessConsumer<>(config(kafka.bootstrapServers()), cfg -> mock, BrokerCapabilities.clientOnly(), cfg -> {
                throw new IllegalStateException("the broker is not probed: the client cannot pass the setting on");
            });
            if (!"emulate".equals(consumer.newPartitionsMode())) {
                throw new IllegalStateException("emulation is not active: " + consumer.newPartitionsMode());
            }
            consumer.subscribe(List.of(TOPIC));
            mock.rebalance(partitions());
            long settled = System.nanoTime() + SETTLE.toNanos();
            while (System.nanoTime() < settled) {
                consumer.poll(TIMEOUT);
            }
        }

        /** One poll outside JMH (the CPU-time measurement of {@code PollOverheadBenchmark}). */
        public int poll() {
            return consumer.poll(TIMEOUT).count();
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            consumer.close(org.apache.kafka.clients.consumer.CloseOptions.timeout(Duration.ofSeconds(5)));
            kafka.close();
        }
    }

    @Benchmark
    public ConsumerRecords<byte[], byte[]> kafkaConsumerStub(Bare state) {
        return state.consumer.poll(TIMEOUT);
    }

    @Benchmark
    public ConsumerRecords<byte[], byte[]> gaplessConsumer(Sdk state) {
        return state.consumer.poll(TIMEOUT);
    }

    static List<TopicPartition> partitions() {
        List<TopicPartition> out = new ArrayList<>();
        for (int p = 0; p < PARTITIONS; p++) {
            out.add(new TopicPartition(TOPIC, p));
        }
        return out;
    }

    static ConsumerRecords<byte[], byte[]> batch() {
        Map<TopicPartition, List<ConsumerRecord<byte[], byte[]>>> records = new LinkedHashMap<>();
        Map<TopicPartition, OffsetAndMetadata> next = new HashMap<>();
        byte[] value = new byte[100];
        for (TopicPartition tp : partitions()) {
            List<ConsumerRecord<byte[], byte[]>> list = new ArrayList<>();
            for (int i = 0; i < RECORDS / PARTITIONS; i++) {
                list.add(new ConsumerRecord<>(TOPIC, tp.partition(), i, null, value));
            }
            records.put(tp, list);
            next.put(tp, new OffsetAndMetadata(RECORDS / PARTITIONS));
        }
        return new ConsumerRecords<>(records, next);
    }

    private static EmbeddedKafka broker() {
        EmbeddedKafka kafka = EmbeddedKafka.start();
        kafka.createTopic(TOPIC, PARTITIONS);
        return kafka;
    }

    private static Map<String, Object> config(String bootstrapServers) {
        Map<String, Object> c = new HashMap<>();
        c.put("bootstrap.servers", bootstrapServers);
        c.put("group.id", "jmh-poll-overhead");
        c.put("key.deserializer", "org.apache.kafka.common.serialization.ByteArrayDeserializer");
        c.put("value.deserializer", "org.apache.kafka.common.serialization.ByteArrayDeserializer");
        c.put("auto.offset.reset", "earliest");
        c.put(GaplessConsumerConfig.AUTO_OFFSET_RESET_NEW_PARTITIONS_CONFIG, "earliest");
        return c;
    }
}
