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
package io.gapless.kafka.examples.streams;

import io.gapless.kafka.testkit.EmbeddedKafka;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * One Kafka Streams app of the demo (a map from an input to an output topic), with what it was
 * given and what came out: per input partition, records produced, seen and lost.
 */
public final class StreamsAppRun implements AutoCloseable {
    private static final Duration WAIT = Duration.ofSeconds(20);

    private final String label;
    private final EmbeddedKafka kafka;
    private final String input;
    private final BiFunction<Properties, String[], KafkaStreams> app;
    private final Properties props;
    private final String[] topics;
    private KafkaStreams streams;
    private final KafkaProducer<String, String> producer;
    private final KafkaConsumer<String, String> output;
    private final Set<String> seen = new HashSet<>();
    private final Map<Integer, Integer> produced = new HashMap<>();
    private final Map<Integer, Integer> seenPerPartition = new HashMap<>();
    private int markers;
    private int batches;
    private int rounds;

    /**
     * @param app builds the {@code KafkaStreams} from the settings and the input and output topics
     */
    public StreamsAppRun(String label, EmbeddedKafka kafka, String name, int partitions,
                         BiFunction<Properties, String[], KafkaStreams> app) {
        this.label = label;
        this.kafka = kafka;
        this.input = name + "-in";
        String out = name + "-out";
        kafka.createTopic(input, partitions);
        kafka.createTopic(out, 1);
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, name);
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 1);
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
        p.put(StreamsConfig.METADATA_MAX_AGE_CONFIG, 1000);
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.METADATA_MAX_AGE_CONFIG), 1000);
        p.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        p.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        p.put("processing.exception.handler.global.enabled", true);
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
        try {
            p.put(StreamsConfig.STATE_DIR_CONFIG, Files.createTempDirectory("gapless-demo-").toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.app = app;
        this.props = p;
        this.topics = new String[]{input, out};
        Map<String, Object> pc = new HashMap<>();
        pc.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        pc.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        this.producer = new KafkaProducer<>(pc, new StringSerializer(), new StringSerializer());
        Map<String, Object> cc = new HashMap<>();
        cc.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        cc.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        this.output = new KafkaConsumer<>(cc, new StringDeserializer(), new StringDeserializer());
        TopicPartition tp = new TopicPartition(out, 0);
        output.assign(List.of(tp));
        output.seekToBeginning(List.of(tp));
    }

    public String input() {
        return input;
    }

    /** Creates and starts the app and waits until it reads the partitions {@code 0..partitions-1}. */
    public void start(int partitions) {
        streams = app.apply(props, topics);
        streams.start();
        awaitReading(0, partitions);
    }

    /** Stops the app (it leaves the group; its committed offsets stay). */
    public void stop() {
        if (streams != null) {
            streams.close(CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
                    .withTimeout(Duration.ofSeconds(10)));
            streams = null;
        }
    }

    /** Starts the app again without waiting for partitions to be read (the caller waits on markers). */
    public void restart() {
        streams = app.apply(props, topics);
        streams.start();
    }

    /** Writes {@code perPartition} records to each of the partitions {@code from..to-1}. */
    public void produce(int from, int to, int perPartition) {
        for (int p = from; p < to; p++) {
            for (int i = 0; i < perPartition; i++) {
                String v = "rec-p" + p + "-" + batches + "-" + i;
                producer.send(new ProducerRecord<>(input, p, v, v));
                produced.merge(p, 1, Integer::sum);
            }
        }
        producer.flush();
        batches++;
    }

    /**
     * Waits until the app reads partitions {@code from..to-1}: writes a marker to each until it
     * comes out (markers are not counted). Returns false when the deadline passed first.
     */
    public boolean awaitReading(int from, int to) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        for (int p = from; p < to; p++) {
            String prefix = "marker-" + rounds++ + "-p" + p + "-";
            while (seen.stream().noneMatch(v -> v.startsWith(prefix))) {
                if (System.nanoTime() > deadline) {
                    return false;
                }
                producer.send(new ProducerRecord<>(input, p, prefix + markers, prefix + markers++));
                producer.flush();
                poll(Duration.ofMillis(300));
            }
        }
        return true;
    }

    /** Polls the output until every record written to partitions {@code from..to-1} came out, or the deadline passed. */
    public void awaitComplete(int from, int to) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!complete(from, to) && System.nanoTime() < deadline) {
            poll(Duration.ofMillis(100));
        }
    }

    private boolean complete(int from, int to) {
        for (int p = from; p < to; p++) {
            if (seenPerPartition.getOrDefault(p, 0) < produced.getOrDefault(p, 0)) {
                return false;
            }
        }
        return true;
    }

    private void poll(Duration d) {
        for (ConsumerRecord<String, String> r : output.poll(d)) {
            String v = r.value();
            if (seen.add(v) && v.startsWith("rec-p")) {
                int p = Integer.parseInt(v.substring(5, v.indexOf('-', 5)));
                seenPerPartition.merge(p, 1, Integer::sum);
            }
        }
    }

    public int lost() {
        return produced.entrySet().stream().mapToInt(e -> e.getValue() - seenPerPartition.getOrDefault(e.getKey(), 0)).sum();
    }

    /** Prints a line per partition: produced, seen, lost; then the totals. {@code when[p]} says when partition p appeared. */
    public void print(PrintStream out, String[] when) {
        out.printf("%-58s %9s %6s %6s%n", label, "produced", "seen", "lost");
        int tp = 0;
        int ts = 0;
        for (int p : produced.keySet().stream().sorted().toList()) {
            int n = produced.get(p);
            int s = seenPerPartition.getOrDefault(p, 0);
            tp += n;
            ts += s;
            out.printf("  partition %d %-44s %9d %6d %6d%n", p, "(" + when[p] + ")", n, s, n - s);
        }
        out.printf("  %-56s %9d %6d %6d%n%n", "total", tp, ts, tp - ts);
    }

    @Override
    public void close() {
        stop();
        producer.close(Duration.ofSeconds(5));
        output.close(Duration.ofSeconds(5));
    }
}
