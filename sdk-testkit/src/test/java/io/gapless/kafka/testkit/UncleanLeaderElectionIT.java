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
package io.gapless.kafka.testkit;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.LogTruncationException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The recipe for a real {@link LogTruncationException}: a leader acknowledges writes no follower
 * has, goes away, a follower with the shorter log is elected uncleanly, and a consumer that had
 * read past that point (with {@code auto.offset.reset=none}) is told its log was truncated. The
 * old leader then comes back, truncates its log and follows. Dedicated controllers keep the quorum
 * while two of the three brokers are down.
 */
class UncleanLeaderElectionIT {

    @Test
    void aConsumerThatReadUnreplicatedRecordsSeesLogTruncationAfterAnUncleanElection() throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().nodes(3).controllers(1).start()) {
            String topic = TestTopics.unique("unclean");
            TopicPartition tp = new TopicPartition(topic, 0);
            kafka.createTopic(topic, 1, Map.of("min.insync.replicas", "1", "unclean.leader.election.enable", "true"));
            Properties producerProps = TestClients.producerProps(kafka);
            producerProps.put(ProducerConfig.ACKS_CONFIG, "1");
            producerProps.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "false");
            Properties consumerProps = TestClients.consumerProps(kafka, "unused", "classic");
            consumerProps.remove(ConsumerConfig.GROUP_ID_CONFIG);
            consumerProps.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");

            kafka.awaitFullyInSync(tp);
            List<String> replicated;
            // acks=all while all three are in sync: every replica has these (being in the ISR alone
            // does not say a follower has fetched the latest records).
            try (KafkaProducer<String, String> replicating = new KafkaProducer<>(TestClients.producerProps(kafka))) {
                replicated = TestClients.produce(replicating, topic, 0, "replicated", 10);
            }
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerProps);
                 KafkaConsumer<String, String> consumer = new KafkaConsumer<>(consumerProps)) {
                int leader = kafka.leaderOf(tp);
                List<KafkaNode> followers = kafka.nodes().stream().filter(n -> n.id() != leader).toList();

                // 1. Followers away: the leader alone is in sync and acknowledges what only it has.
                followers.forEach(KafkaNode::stop);
                kafka.awaitInSyncReplicas(tp, isr -> isr.equals(Set.of(leader)));
                List<String> unreplicated = TestClients.produce(producer, topic, 0, "unreplicated", 5);

                consumer.assign(List.of(tp));
                consumer.seek(tp, 0);
                List<String> read = TestClients.pollUntil(consumer, Duration.ofSeconds(30), r -> r.size() >= 15)
                        .stream().map(ConsumerRecord::value).toList();
                assertEquals(15, read.size(), "the consumer read past what the followers have: " + read);

                // 2. Leader away, a follower with the shorter log comes back and is elected uncleanly.
                kafka.node(leader).stop();
                followers.get(0).start();
                int newLeader = kafka.awaitLeader(tp, id -> id != leader);
                assertNotEquals(leader, newLeader);
                List<String> diverged = TestClients.produce(producer, topic, 0, "diverged", 3);

                // 3. The consumer's position (offset 15, old epoch) is validated against the new leader.
                LogTruncationException truncation = pollUntilTruncation(consumer);
                assertEquals(10L, truncation.divergentOffsets().get(tp).offset(),
                        "the divergence starts after the replicated records: " + truncation.divergentOffsets());

                // 4. The old leader returns, truncates its log and follows.
                kafka.node(leader).start();
                followers.get(1).start();
                kafka.awaitFullyInSync(tp);
                List<String> expected = new ArrayList<>(replicated);
                expected.addAll(diverged);
                try (KafkaConsumer<String, String> reader = new KafkaConsumer<>(readerProps(kafka, kafka.node(leader)))) {
                    reader.assign(List.of(tp));
                    List<String> log = TestClients.pollUntil(reader, Duration.ofSeconds(30), r -> r.size() >= expected.size())
                            .stream().map(ConsumerRecord::value).toList();
                    assertEquals(expected, log, "the unreplicated records " + unreplicated + " are gone");
                }
            }
        }
    }

    private static LogTruncationException pollUntilTruncation(KafkaConsumer<String, String> consumer) {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            try {
                List<ConsumerRecord<String, String>> records = new ArrayList<>();
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
                assertTrue(records.isEmpty(), "no record may come before the truncation is reported: " + records);
            } catch (LogTruncationException e) {
                return e;
            }
        }
        throw new AssertionError("no LogTruncationException within 60 s");
    }

    private static Properties readerProps(EmbeddedKafka kafka, KafkaNode via) {
        Properties props = TestClients.consumerProps(kafka, "unused", "classic");
        props.remove(ConsumerConfig.GROUP_ID_CONFIG);
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, via.bootstrapAddress());
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        return props;
    }
}
