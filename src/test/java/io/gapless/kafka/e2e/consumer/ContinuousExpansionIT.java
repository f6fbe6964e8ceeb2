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
package io.gapless.kafka.e2e.consumer;

import io.gapless.kafka.core.GaplessConsumer;
import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.EmbeddedKafkaTest;
import io.gapless.kafka.testkit.TestClients;
import io.gapless.kafka.testkit.TestTopics;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A group of three GaplessConsumers while a producer writes without pause and the topic grows
 * three times; one member is restarted half-way. Every record written to an added partition must
 * be consumed (at least once: a restart may replay uncommitted work), and no record written
 * before the group existed may be consumed.
 */
@EmbeddedKafkaTest
class ContinuousExpansionIT {
    private static final Duration WAIT = Duration.ofSeconds(60);

    @ParameterizedTest(name = "group.protocol={0}")
    @ValueSource(strings = {"classic", "consumer"})
    void everyRecordOnAddedPartitionsIsConsumedAndNoHistoryIsReplayed(String protocol, EmbeddedKafka kafka) throws Exception {
        String topic = TestTopics.unique("continuous");
        String group = TestTopics.unique("g");
        kafka.createTopic(topic, 2);
        Set<String> history = new HashSet<>();
        try (KafkaProducer<String, String> producer = TestClients.producer(kafka)) {
            history.addAll(TestClients.produce(producer, topic, 0, "history0", 25));
            history.addAll(TestClients.produce(producer, topic, 1, "history1", 25));
        }
        Set<String> consumed = ConcurrentHashMap.newKeySet();
        List<Member> members = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            members.add(new Member(props(kafka, group, protocol), topic, consumed));
        }
        ProducerLoop producer = new ProducerLoop(kafka, topic);
        try {
            members.forEach(Member::start);
            await().atMost(WAIT).until(() -> members.stream().mapToInt(m -> m.assigned.get()).sum() == 2
                    && members.stream().allMatch(m -> m.assigned.get() == 0 || m.polledSinceAssignment.get()));
            producer.start();
            int[] growth = {4, 6, 8};
            for (int step = 0; step < growth.length; step++) {
                int before = producer.sent.get();
                await().atMost(WAIT).until(() -> producer.sent.get() > before + 100);
                kafka.addPartitions(topic, growth[step]);
                producer.partitions = growth[step];
                if (step == 1) {
                    Member restarted = members.remove(0);
                    restarted.stopAndJoin();
                    Member fresh = new Member(props(kafka, group, protocol), topic, consumed);
                    members.add(fresh);
                    fresh.start();
                }
            }
            int last = producer.sent.get();
            await().atMost(WAIT).until(() -> producer.sent.get() > last + 100);
            producer.stopAndJoin();
            Set<String> expectedOnNew = producer.writtenTo(p -> p >= 2);
            assertTrue(expectedOnNew.size() > 200, "the test wrote to the added partitions: " + expectedOnNew.size());
            await().atMost(WAIT).until(() -> consumed.containsAll(expectedOnNew));
            Set<String> replayed = new HashSet<>(history);
            replayed.retainAll(consumed);
            assertEquals(Set.of(), replayed, "no record older than the group consumed");
        } finally {
            producer.stopAndJoin();
            for (Member m : members) {
                m.stopAndJoin();
            }
        }
    }

    private static Properties props(EmbeddedKafka kafka, String group, String protocol) {
        Properties p = TestClients.consumerProps(kafka, group, protocol);
        p.put("auto.offset.reset", "latest");
        p.put("auto.offset.reset.new.partitions", "earliest");
        return p;
    }

    /** One group member polling and committing in its own thread. */
    private static final class Member extends Thread {
        private final Properties props;
        private final String topic;
        private final Set<String> consumed;
        private final AtomicBoolean running = new AtomicBoolean(true);
        final AtomicInteger assigned = new AtomicInteger();
        final AtomicBoolean polledSinceAssignment = new AtomicBoolean();
        volatile Throwable failure;

        Member(Properties props, String topic, Set<String> consumed) {
            this.props = props;
            this.topic = topic;
            this.consumed = consumed;
            setName("member-" + TestTopics.unique("m"));
        }

        @Override
        public void run() {
            try (GaplessConsumer<String, String> consumer = new GaplessConsumer<>(props)) {
                consumer.subscribe(List.of(topic));
                while (running.get()) {
                    for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(100))) {
                        consumed.add(r.value());
                    }
                    assigned.set(consumer.assignment().size());
                    if (!consumer.assignment().isEmpty()) {
                        // position() settles every assigned partition, as a real application's next poll would.
                        consumer.assignment().forEach(tp -> consumer.position(tp, WAIT));
                        polledSinceAssignment.set(true);
                    }
                    consumer.commitSync();
                }
            } catch (Throwable t) {
                failure = t;
            }
        }

        void stopAndJoin() throws InterruptedException {
            running.set(false);
            join(WAIT.toMillis());
            if (failure != null) {
                throw new AssertionError("member failed", failure);
            }
        }
    }

    /** Writes records round-robin over the topic's current partitions until stopped. */
    private static final class ProducerLoop extends Thread {
        private final EmbeddedKafka kafka;
        private final String topic;
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final ConcurrentHashMap<String, Integer> written = new ConcurrentHashMap<>();
        final AtomicInteger sent = new AtomicInteger();
        volatile int partitions = 2;
        volatile Throwable failure;

        ProducerLoop(EmbeddedKafka kafka, String topic) {
            this.kafka = kafka;
            this.topic = topic;
        }

        @Override
        public void run() {
            try (KafkaProducer<String, String> producer = TestClients.producer(kafka)) {
                int seq = 0;
                while (running.get()) {
                    int p = seq % partitions;
                    String value = "live-" + p + "-" + seq;
                    producer.send(new ProducerRecord<>(topic, p, "k", value)).get();
                    written.put(value, p);
                    sent.incrementAndGet();
                    seq++;
                    if (seq % 20 == 0) {
                        Thread.sleep(5); // a steady trickle, not a flood, so the test stays cheap on 2 cores
                    }
                }
            } catch (Throwable t) {
                failure = t;
            }
        }

        Set<String> writtenTo(java.util.function.IntPredicate partition) {
            Set<String> out = new HashSet<>();
            written.forEach((v, p) -> {
                if (partition.test(p)) {
                    out.add(v);
                }
            });
            return out;
        }

        void stopAndJoin() throws InterruptedException {
            running.set(false);
            join(WAIT.toMillis());
            if (failure != null) {
                throw new AssertionError("producer failed", failure);
            }
        }
    }
}
