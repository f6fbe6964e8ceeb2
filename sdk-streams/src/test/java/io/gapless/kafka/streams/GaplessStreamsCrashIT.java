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
import io.gapless.kafka.testkit.TestTopics;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An {@code exactly_once_v2} application with state stores ({@link CrashCountApp}) in a child JVM,
 * killed with SIGKILL several times while its source topics are written to and grow: partitions
 * added while it is down (no committed offset when it comes back), partitions added while it runs,
 * and a new partition that has no committed offset when its task, revived after the crash (stores
 * left open, so Kafka Streams treats the task as corrupted), re-positions it. Afterwards every
 * record produced is counted exactly once (read_committed), and no stream thread ever died.
 * {@code -Dgapless.streams.soak=true} runs twelve kills instead of three.
 */
class GaplessStreamsCrashIT {
    private static final Logger log = LoggerFactory.getLogger(GaplessStreamsCrashIT.class);
    private static final boolean SOAK = Boolean.getBoolean("gapless.streams.soak");
    private static final int KILLS = SOAK ? 12 : 3;
    private static final Path LOGS = Path.of("target", "crash-it").toAbsolutePath();

    @ParameterizedTest(name = "group.protocol={0}")
    @ValueSource(strings = {"classic", "streams"})
    void sigkillWhileSourcesGrowLosesNothingAndCountsNothingTwice(String protocol) throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.builder()
                // A SIGKILLed member must leave the group within seconds, not the default 45 s.
                .brokerProperty("group.streams.session.timeout.ms", 6000)
                .brokerProperty("group.streams.min.session.timeout.ms", 6000)
                .start();
             StreamsHarness h = new StreamsHarness(kafka)) {
            String a = TestTopics.unique("crash-a");
            String b = TestTopics.unique("crash-b");
            String c = TestTopics.unique("crash-c");
            String out = TestTopics.unique("crash-out");
            String app = TestTopics.unique("crash-app");
            kafka.createTopic(a, 2);
            kafka.createTopic(b, 2);
            kafka.createTopic(c, 2);
            kafka.createTopic(out, 1);
            Path stateDir = Files.createTempDirectory("gapless-crash-");
            Files.createDirectories(LOGS);
            Path logFile = LOGS.resolve(app + ".log");
            List<String> args = List.of(kafka.bootstrapServers(), app, protocol, stateDir.toString(), a, b, c, out);

            try (StreamsHarness.Output<Long> output = h.output(out, new LongDeserializer());
                 Writer writer = new Writer(kafka, a, b, c)) {
                Child child = Child.start(args, logFile);
                // Every partition that exists now is positioned and has a committed offset before the load starts.
                h.awaitReadingKeys(a, List.of(0, 1), output);
                h.awaitReadingKeys(b, List.of(0, 1), output);
                h.awaitReadingKeys(c, List.of(0, 1), output);
                writer.start();
                int kills = 0;
                for (int round = 1; round <= KILLS; round++) {
                    Thread.sleep(ThreadLocalRandom.current().nextLong(1000, 3000)); // when to kill: the fault, not a wait for correctness
                    child.kill();
                    kills++;
                    child.assertNoDeath();
                    writer.goingDown(kafka.partitionCount(c));
                    if (round % 2 == 1) {
                        // a and c grow together (one task per partition pair) while the application is down; the
                        // count's changelog must grow with them (Kafka Streams requires it).
                        int n = kafka.partitionCount(a) + 1;
                        kafka.addPartitions(a, n);
                        kafka.addPartitions(c, n);
                        kafka.addPartitions(app + "-direct-changelog", n);
                        writer.grew(a, n);
                        writer.grew(c, n);
                    }
                    Thread.sleep(300); // records land on the partitions while the application is down
                    writer.comingUp();
                    child = Child.start(args, logFile);
                    if (round % 2 == 0) {
                        int n = kafka.partitionCount(b) + 1;
                        kafka.addPartitions(b, n);
                        writer.grew(b, n);
                    }
                    child.awaitReading(h, a, all(kafka, a), output);
                    child.awaitReading(h, b, all(kafka, b), output);
                    child.assertNoDeath();
                }
                writer.stopAndAwait();
                Set<String> sent = writer.sent();
                output.awaitUntil(r -> keys(r).containsAll(sent));
                output.drain(Duration.ofSeconds(1));
                child.assertNoDeath();
                child.kill();

                List<ConsumerRecord<String, Long>> records = output.records();
                Map<String, Long> updates = records.stream().collect(Collectors.groupingBy(ConsumerRecord::key, Collectors.counting()));
                Map<String, Long> maxCount = new HashMap<>();
                records.forEach(r -> maxCount.merge(r.key(), r.value(), Math::max));
                List<String> lost = sent.stream().filter(v -> !updates.containsKey(v)).sorted().toList();
                Map<String, Long> twice = maxCount.entrySet().stream().filter(e -> e.getValue() != 1L || updates.get(e.getKey()) != 1L)
                        .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
                log.info("[{}] {} SIGKILLs; {} records produced to {} ({}), {} ({}) and {} ({}) partitions; {} counted; lost {}; counted twice {}",
                        protocol, kills, sent.size(), a, kafka.partitionCount(a), b, kafka.partitionCount(b), c, kafka.partitionCount(c),
                        updates.size(), lost.size(), twice.size());
                assertEquals(List.of(), lost, "every record produced is counted");
                assertEquals(Map.of(), twice, "no record counted twice");
                String childLog = Files.readString(logFile);
                long corrupted = childLog.lines().filter(l -> l.contains("Detected the states of tasks")).count();
                long revived = childLog.lines().filter(l -> l.contains("Kafka Streams asks to reset")).count();
                log.info("[{}] the child's Kafka Streams treated tasks as corrupted {} times; re-positioned source partitions of revived tasks"
                        + " through the SDK {} times", protocol, corrupted, revived);
                assertTrue(corrupted > 0, "the crashes left stores Kafka Streams treated as corrupted (see " + logFile + ")");
            }
        }
    }

    private static List<Integer> all(EmbeddedKafka kafka, String topic) {
        return IntStream.range(0, kafka.partitionCount(topic)).boxed().toList();
    }

    private static Set<String> keys(List<ConsumerRecord<String, Long>> records) {
        return records.stream().map(ConsumerRecord::key).collect(Collectors.toSet());
    }

    /**
     * Writes unique values (key = value) to every partition of a, b and c, a little at a time. A
     * partition of c added during the run is written to only while the application is down, and
     * not in the downtime that created it: its task (which has state from a) then holds no
     * committed offset for it at the next crash, when records wait on it.
     */
    private static final class Writer implements AutoCloseable {
        private final AtomicBoolean down = new AtomicBoolean();
        private volatile int cWritableWhileDown;
        private final KafkaProducer<String, String> producer;
        private final Map<String, Integer> partitions = new ConcurrentHashMap<>();
        private final String c;
        private final int cInitial;
        private final Set<String> acked = ConcurrentHashMap.newKeySet();
        private final AtomicReference<Exception> failure = new AtomicReference<>();
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final Thread thread;

        Writer(EmbeddedKafka kafka, String a, String b, String c) {
            Map<String, Object> p = new HashMap<>();
            p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
            p.put(ProducerConfig.ACKS_CONFIG, "all");
            p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
            p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
            p.put(ProducerConfig.METADATA_MAX_AGE_CONFIG, 500);
            this.producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer());
            for (String t : List.of(a, b, c)) {
                partitions.put(t, kafka.partitionCount(t));
            }
            this.c = c;
            this.cInitial = partitions.get(c);
            this.thread = new Thread(this::run, "crash-it-writer");
            thread.setDaemon(true);
        }

        void start() {
            thread.start();
        }

        /** The application was killed; c's partitions below {@code cPartitions} (those that existed while it ran) get records now. */
        void goingDown(int cPartitions) {
            cWritableWhileDown = cPartitions;
            down.set(true);
        }

        void comingUp() {
            down.set(false);
        }

        void grew(String topic, int count) {
            partitions.put(topic, count);
        }

        private void run() {
            long seq = 0;
            while (running.get()) {
                for (Map.Entry<String, Integer> t : partitions.entrySet()) {
                    for (int p = 0; p < t.getValue(); p++) {
                        if (t.getKey().equals(c) && p >= cInitial && (!down.get() || p >= cWritableWhileDown)) {
                            continue;
                        }
                        String v = t.getKey() + "-p" + p + "-" + seq;
                        producer.send(new ProducerRecord<>(t.getKey(), p, v, v), (md, e) -> {
                            if (e == null) {
                                acked.add(v);
                            } else {
                                failure.compareAndSet(null, e);
                            }
                        });
                    }
                }
                seq++;
                try {
                    Thread.sleep(40);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }

        void stopAndAwait() throws InterruptedException {
            running.set(false);
            thread.join(10_000);
            producer.flush();
            assertNull(failure.get(), "every write was acknowledged");
        }

        Set<String> sent() {
            return Set.copyOf(acked);
        }

        @Override
        public void close() throws InterruptedException {
            running.set(false);
            thread.join(10_000);
            producer.close(Duration.ofSeconds(5));
        }
    }

    /** One run of {@link CrashCountApp} in a child JVM; its stdout goes to the test's log file, its EVENT lines are kept. */
    private static final class Child {
        private final Process process;
        private final Queue<String> events = new ConcurrentLinkedQueue<>();

        private Child(Process process, Path logFile) {
            this.process = process;
            Thread pump = new Thread(() -> pump(logFile), "crash-it-child-" + process.pid());
            pump.setDaemon(true);
            pump.start();
        }

        static Child start(List<String> args, Path logFile) throws IOException {
            List<String> cmd = new ArrayList<>();
            cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            cmd.add("-cp");
            cmd.add(System.getProperty("java.class.path"));
            cmd.add("-Xmx256m");
            cmd.add("-XX:+UseSerialGC");
            cmd.add("-XX:TieredStopAtLevel=1");
            cmd.add(CrashCountApp.class.getName());
            cmd.addAll(args);
            Files.writeString(logFile, "=== start " + args + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            return new Child(new ProcessBuilder(cmd).redirectErrorStream(true).start(), logFile);
        }

        private void pump(Path logFile) {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    if (line.startsWith("EVENT ")) {
                        events.add(line.substring(6));
                    }
                    Files.writeString(logFile, line + "\n", StandardOpenOption.APPEND);
                }
            } catch (IOException e) {
                // The process died: its output ends here.
            }
        }

        /** SIGKILL (Process.destroyForcibly), and wait until the process is gone. */
        void kill() throws InterruptedException {
            process.destroyForcibly();
            await().atMost(Duration.ofSeconds(30)).until(() -> !process.isAlive());
            process.waitFor(5, TimeUnit.SECONDS);
        }

        /** Waits until the application reads {@code partitions}; a stream thread that died meanwhile is reported as such. */
        void awaitReading(StreamsHarness h, String topic, List<Integer> partitions, StreamsHarness.Output<Long> output) {
            try {
                h.awaitReadingKeys(topic, partitions, output);
            } catch (org.awaitility.core.ConditionTimeoutException e) {
                assertNoDeath();
                throw e;
            }
        }

        void assertNoDeath() {
            List<String> deaths = events.stream().filter(e -> e.startsWith("DEATH") || e.equals("STATE ERROR")).toList();
            assertEquals(List.of(), deaths, "no stream thread died in the child");
        }
    }
}
