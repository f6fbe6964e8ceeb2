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
import io.gapless.kafka.testkit.EmbeddedKafkaTest;
import io.gapless.kafka.testkit.TestClients;
import io.gapless.kafka.testkit.TestTopics;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * "Drop-in" checked by exploration: random sequences of {@link Consumer} calls and cluster events
 * applied in lock-step to a plain {@link KafkaConsumer} and a {@link GaplessConsumer}, each in its
 * own group with the same settings. The topic exists before either group starts, so every
 * partition is pre-existing and KIP-1327 lets the SDK differ nowhere: after each step both must
 * have delivered the same records (same partitions, offsets and repeats), report the same
 * positions and throw the same exceptions.
 *
 * <p>Calls: {@code seek} (also past the end and below the log start), {@code seekToBeginning},
 * {@code seekToEnd} (alone, or followed by {@code position} as Spring's seek callbacks do),
 * {@code pause}/{@code resume}, {@code position}, {@code commitSync}, and
 * polling until each consumer has read up to the log end of its unpaused partitions (the moment
 * they are compared). Cluster events: records written, {@code deleteRecords}.
 *
 * <p>A few sequences run in {@code mvn verify}; {@code -Dgapless.soak=true} runs many more,
 * {@code -Dgapless.diff.seed=N} replays one. A failure names its seed and the steps so far.
 * Consumers poll only while they are compared, with a short {@code fetch.max.wait.ms}, so that
 * no fetch is in flight while a step writes or deletes records.
 */
@EmbeddedKafkaTest
class DifferentialConsumerIT {
    private static final Logger log = LoggerFactory.getLogger(DifferentialConsumerIT.class);
    private static final int PARTITIONS = 2;
    private static final int STEPS = 24;
    private static final Duration SETTLE = Duration.ofSeconds(15);

    private final EmbeddedKafka kafka;

    DifferentialConsumerIT(EmbeddedKafka kafka) {
        this.kafka = kafka;
    }

    @Test
    void randomSequencesBehaveAsPlainKafka() throws Exception {
        String fixed = System.getProperty("gapless.diff.seed");
        if (fixed != null) {
            run(Long.parseLong(fixed));
            return;
        }
        int sequences = Boolean.getBoolean("gapless.soak") ? 40 : 2;
        long base = System.nanoTime();
        for (int i = 0; i < sequences; i++) {
            run(base + i * 7919L);
        }
    }

    private void run(long seed) throws Exception {
        Random random = new Random(seed);
        String topic = TestTopics.unique("diff");
        kafka.createTopic(topic, PARTITIONS);
        String base = random.nextBoolean() ? "earliest" : "latest";
        String other = base.equals("earliest") ? "latest" : "earliest";
        List<TopicPartition> partitions = new ArrayList<>();
        for (int p = 0; p < PARTITIONS; p++) {
            partitions.add(new TopicPartition(topic, p));
        }
        List<String> steps = new ArrayList<>();
        String context = "seed " + seed + " (replay with -Dgapless.diff.seed=" + seed + "), auto.offset.reset=" + base;
        log.info("Differential run: {}", context);
        try (KafkaProducer<String, String> producer = TestClients.producer(kafka)) {
            for (TopicPartition tp : partitions) {
                TestClients.produce(producer, topic, tp.partition(), "history", 1 + random.nextInt(20));
            }
            Side plain = new Side(props(TestTopics.unique("g"), protocol(random), base, null), KafkaConsumer::new);
            Properties sdkProps = props(TestTopics.unique("g"), plain.protocol(), base, other);
            try (Side sdk = new Side(sdkProps, GaplessConsumer::new); plain) {
                plain.consumer.assign(partitions);
                sdk.consumer.assign(partitions);
                Set<TopicPartition> paused = new HashSet<>();
                compare(plain, sdk, partitions, paused, steps, context, "assign");
                for (int i = 0; i < STEPS; i++) {
                    TopicPartition tp = partitions.get(random.nextInt(PARTITIONS));
                    Map<TopicPartition, long[]> range = range(partitions);
                    long start = range.get(tp)[0];
                    long end = range.get(tp)[1];
                    String step;
                    switch (random.nextInt(11)) {
                        case 0 -> {
                            int n = 1 + random.nextInt(15);
                            TestClients.produce(producer, topic, tp.partition(), "s" + i, n);
                            step = "produce " + n + " to " + tp;
                        }
                        case 1 -> {
                            long offset = random.nextInt((int) end + 6);
                            step = "seek " + tp + " to " + offset + " (log " + start + ".." + end + ")";
                            both(plain, sdk, c -> c.seek(tp, offset));
                        }
                        case 2 -> {
                            step = "seekToBeginning " + tp;
                            both(plain, sdk, c -> c.seekToBeginning(List.of(tp)));
                        }
                        case 3 -> {
                            step = "seekToEnd " + tp;
                            both(plain, sdk, c -> c.seekToEnd(List.of(tp)));
                        }
                        case 4 -> {
                            boolean pause = !paused.contains(tp);
                            step = (pause ? "pause " : "resume ") + tp;
                            both(plain, sdk, c -> {
                                if (pause) {
                                    c.pause(List.of(tp));
                                } else {
                                    c.resume(List.of(tp));
                                }
                            });
                            if (pause) {
                                paused.add(tp);
                            } else {
                                paused.remove(tp);
                            }
                        }
                        case 5 -> {
                            long before = start + (end > start ? random.nextInt((int) (end - start) + 1) : 0);
                            kafka.admin().deleteRecords(Map.of(tp, RecordsToDelete.beforeOffset(before))).all().get(30, TimeUnit.SECONDS);
                            step = "deleteRecords " + tp + " before " + before;
                        }
                        case 6 -> {
                            step = "position " + tp;
                            steps.add(step);
                            assertEquals(plain.position(tp), sdk.position(tp), "position differs at " + context + "; steps " + steps);
                            continue;
                        }
                        case 7 -> {
                            step = "commitSync";
                            both(plain, sdk, Consumer::commitSync);
                        }
                        case 8 -> {
                            // As Spring's seek callbacks do: seek, then ask where the partition is.
                            boolean beginning = random.nextBoolean();
                            step = (beginning ? "seekToBeginning " : "seekToEnd ") + tp + " and position";
                            both(plain, sdk, c -> {
                                if (beginning) {
                                    c.seekToBeginning(List.of(tp));
                                } else {
                                    c.seekToEnd(List.of(tp));
                                }
                            });
                            steps.add(step);
                            assertEquals(plain.position(tp), sdk.position(tp), "position differs at " + context + "; steps " + steps);
                            continue;
                        }
                        default -> step = "poll until read to the end";
                    }
                    steps.add(step);
                    if (step.startsWith("poll") || random.nextInt(3) == 0) {
                        compare(plain, sdk, partitions, paused, steps, context, step);
                    }
                }
                compare(plain, sdk, partitions, paused, steps, context, "end");
            }
        }
    }

    /**
     * Settings for one side. A short {@code fetch.max.wait.ms}: a fetch still in flight when a
     * step writes or deletes records would hand one side records the other never sees, a
     * difference of timing, not of behaviour.
     */
    private Properties props(String group, String protocol, String base, String newPolicy) {
        Properties p = ConsumerITSupport.props(kafka, group, protocol, base, newPolicy);
        p.put("fetch.max.wait.ms", "5");
        return p;
    }

    private static String protocol(Random random) {
        return random.nextBoolean() ? "classic" : "consumer";
    }

    private static void both(Side plain, Side sdk, java.util.function.Consumer<Consumer<String, String>> call) {
        plain.call(call);
        sdk.call(call);
    }

    /** Both poll until each has read up to the log end of its unpaused partitions; then what each delivered and threw must agree. */
    private void compare(Side plain, Side sdk, List<TopicPartition> partitions, Set<TopicPartition> paused, List<String> steps,
                         String context, String at) throws Exception {
        Map<TopicPartition, long[]> range = range(partitions);
        plain.settle(range, paused);
        sdk.settle(range, paused);
        String where = "after '" + at + "' at " + context + "; steps " + steps;
        assertEquals(plain.failures, sdk.failures, "exceptions differ " + where);
        assertEquals(plain.delivered, sdk.delivered, "delivered records (partition@offset, in order per partition) differ " + where);
    }

    private Map<TopicPartition, long[]> range(List<TopicPartition> partitions) throws Exception {
        Map<TopicPartition, OffsetSpec> earliest = new HashMap<>();
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        partitions.forEach(tp -> {
            earliest.put(tp, OffsetSpec.earliest());
            latest.put(tp, OffsetSpec.latest());
        });
        var starts = kafka.admin().listOffsets(earliest).all().get(30, TimeUnit.SECONDS);
        var ends = kafka.admin().listOffsets(latest).all().get(30, TimeUnit.SECONDS);
        Map<TopicPartition, long[]> out = new HashMap<>();
        partitions.forEach(tp -> out.put(tp, new long[] {starts.get(tp).offset(), ends.get(tp).offset()}));
        return out;
    }

    /** One consumer of the pair and what it delivered and threw so far. */
    private static final class Side implements AutoCloseable {
        final Properties props;
        final Consumer<String, String> consumer;
        final Map<Integer, List<Long>> delivered = new java.util.TreeMap<>();
        final List<String> failures = new ArrayList<>();

        Side(Properties props, Function<Properties, Consumer<String, String>> factory) {
            this.props = props;
            this.consumer = factory.apply(props);
        }

        String protocol() {
            return props.getProperty("group.protocol");
        }

        void call(java.util.function.Consumer<Consumer<String, String>> call) {
            try {
                call.accept(consumer);
            } catch (RuntimeException e) {
                failures.add(e.getClass().getSimpleName());
            }
        }

        Object position(TopicPartition tp) {
            try {
                return consumer.position(tp, Duration.ofSeconds(15));
            } catch (RuntimeException e) {
                return e.getClass().getSimpleName();
            }
        }

        void settle(Map<TopicPartition, long[]> range, Set<TopicPartition> paused) {
            long deadline = System.nanoTime() + SETTLE.toNanos();
            while (System.nanoTime() < deadline) {
                try {
                    for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(100))) {
                        delivered.computeIfAbsent(r.partition(), k -> new ArrayList<>()).add(r.offset());
                    }
                } catch (RuntimeException e) {
                    failures.add(e.getClass().getSimpleName());
                }
                if (readToTheEnd(range, paused)) {
                    return;
                }
            }
        }

        private boolean readToTheEnd(Map<TopicPartition, long[]> range, Set<TopicPartition> paused) {
            for (Map.Entry<TopicPartition, long[]> e : range.entrySet()) {
                if (paused.contains(e.getKey())) {
                    continue;
                }
                try {
                    // Past the end is not read to the end: an out-of-range reset is still to come.
                    if (consumer.position(e.getKey(), Duration.ZERO) != e.getValue()[1]) {
                        return false;
                    }
                } catch (org.apache.kafka.common.errors.TimeoutException notYet) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public void close() {
            consumer.close();
        }
    }
}
