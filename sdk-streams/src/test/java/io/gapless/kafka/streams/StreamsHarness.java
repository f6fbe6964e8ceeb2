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
package io.gapless.kafka.streams;

import io.gapless.kafka.testkit.EmbeddedKafka;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.function.Function;
import java.util.function.Predicate;

import static org.awaitility.Awaitility.await;

/** Test plumbing: Streams settings, a producer, an output reader and waits with deadlines. */
final class StreamsHarness implements AutoCloseable {
    static final Duration WAIT = Duration.ofSeconds(60);

    private final EmbeddedKafka kafka;
    private final KafkaProducer<String, String> producer;
    private final java.util.concurrent.atomic.AtomicInteger markerRound = new java.util.concurrent.atomic.AtomicInteger();

    StreamsHarness(EmbeddedKafka kafka) {
        this.kafka = kafka;
        Map<String, Object> p = new HashMap<>();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        p.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        this.producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer());
    }

    /** Streams settings for fast tests: one thread, short commit interval and metadata age, state under a temp dir. */
    Properties streamsProps(String applicationId, String protocol) {
        try {
            return fastProps(kafka.bootstrapServers(), applicationId, protocol, Files.createTempDirectory("gapless-streams-").toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** As {@link #streamsProps}, for an application in another JVM: base policy {@code latest}, String serdes, no cache. */
    static Properties fastProps(String bootstrap, String applicationId, String protocol, String stateDir) {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(StreamsConfig.GROUP_PROTOCOL_CONFIG, protocol);
        p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 1);
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
        p.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
        p.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        p.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        p.put(StreamsConfig.METADATA_MAX_AGE_CONFIG, 500);
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.METADATA_MAX_AGE_CONFIG), 500);
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG), 500);
        // kafka-streams before 4.2 leaves a classic group on close only with static membership: a restarted app
        // then waits for the old member's session to expire (45 s by default) when the compat module runs 4.1.
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), 10_000);
        p.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 1);
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir);
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
        p.put("processing.exception.handler.global.enabled", true);
        return p;
    }

    /** Sends {@code perPartition} records to each partition in {@code partitions}; values {@code <prefix>-p<partition>-<i>}. */
    List<String> produce(String topic, Collection<Integer> partitions, int perPartition, String prefix) {
        List<String> values = new ArrayList<>();
        List<Future<?>> sends = new ArrayList<>();
        for (int p : partitions) {
            for (int i = 0; i < perPartition; i++) {
                String v = prefix + "-p" + p + "-" + i;
                values.add(v);
                sends.add(producer.send(new ProducerRecord<>(topic, p, v, v)));
            }
        }
        producer.flush();
        for (Future<?> f : sends) {
            try {
                f.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            } catch (ExecutionException e) {
                throw new IllegalStateException(e.getCause());
            }
        }
        return values;
    }

    void start(KafkaStreams streams) {
        streams.start();
        await().atMost(WAIT).until(() -> streams.state() == KafkaStreams.State.RUNNING);
    }

    /**
     * Closes and leaves the group. In the pre-4.2 form (KafkaStreams.CloseOptions, deprecated since
     * 4.2 for streams.CloseOptions) so that the compat module can run these suites on kafka-streams 4.1.
     */
    @SuppressWarnings("deprecation")
    static void stop(KafkaStreams streams) {
        streams.close(new KafkaStreams.CloseOptions().leaveGroup(true).timeout(Duration.ofSeconds(30)));
    }

    /**
     * Waits until the application reads every listed partition: sends a marker (unique to this
     * call) to each partition again and again until one comes out. Proves the partitions are
     * positioned, and that everything written to them before was processed, without relying on timing.
     */
    void awaitReading(String topic, Collection<Integer> partitions, Output<?> output, Function<String, String> toInputValue) {
        for (int p : partitions) {
            String prefix = "marker-" + markerRound.incrementAndGet() + "-p" + p + "-";
            int[] n = {0};
            await().atMost(WAIT).pollInterval(Duration.ofMillis(300)).until(() -> {
                produce(topic, List.of(p), 1, prefix + n[0]++);
                output.poll();
                return output.inputValues(toInputValue).stream().anyMatch(v -> v.startsWith(prefix));
            });
        }
    }

    /** As {@link #awaitReading}, for apps that write each input value as output key. */
    void awaitReadingKeys(String topic, Collection<Integer> partitions, Output<?> output) {
        for (int p : partitions) {
            String prefix = "marker-" + markerRound.incrementAndGet() + "-p" + p + "-";
            int[] n = {0};
            await().atMost(WAIT).pollInterval(Duration.ofMillis(300)).until(() -> {
                produce(topic, List.of(p), 1, prefix + n[0]++);
                output.poll();
                return output.records().stream().anyMatch(r -> r.key() != null && r.key().startsWith(prefix));
            });
        }
    }

    Output<String> output(String topic) {
        return new Output<>(kafka, topic, new StringDeserializer());
    }

    <V> Output<V> output(String topic, Deserializer<V> valueDeserializer) {
        return new Output<>(kafka, topic, valueDeserializer);
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(5));
    }

    /** Everything written to an output topic, read with read_committed from the beginning. */
    static final class Output<V> implements AutoCloseable {
        private final KafkaConsumer<String, V> consumer;
        private final List<ConsumerRecord<String, V>> records = new ArrayList<>();

        Output(EmbeddedKafka kafka, String topic, Deserializer<V> valueDeserializer) {
            Map<String, Object> c = new HashMap<>();
            c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
            c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
            c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
            consumer = new KafkaConsumer<>(c, new StringDeserializer(), valueDeserializer);
            List<TopicPartition> tps = consumer.partitionsFor(topic, Duration.ofSeconds(10)).stream()
                    .map(i -> new TopicPartition(topic, i.partition())).toList();
            consumer.assign(tps);
            consumer.seekToBeginning(tps);
        }

        void poll() {
            consumer.poll(Duration.ofMillis(100)).forEach(records::add);
        }

        List<ConsumerRecord<String, V>> records() {
            return records;
        }

        List<String> inputValues(Function<String, String> toInputValue) {
            return records.stream().map(r -> toInputValue.apply(String.valueOf(r.value()))).toList();
        }

        /** Polls until {@code done} holds for what was read, or fails after {@link #WAIT}. */
        void awaitUntil(Predicate<List<ConsumerRecord<String, V>>> done) {
            await().atMost(WAIT).pollInterval(Duration.ofMillis(50)).until(() -> {
                poll();
                return done.test(records);
            });
        }

        /** Polls for a while longer to catch late records (duplicates); bounded, not needed for correctness. */
        void drain(Duration d) {
            long end = System.nanoTime() + d.toNanos();
            while (System.nanoTime() < end) {
                poll();
            }
        }

        @Override
        public void close() {
            consumer.close(org.apache.kafka.clients.consumer.CloseOptions.timeout(Duration.ofSeconds(5)));
        }
    }
}
