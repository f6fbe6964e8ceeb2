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
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Stopping and restarting nodes of an in-JVM three-node cluster keeps its id, data and ports. */
class NodeRestartIT {

    @Test
    void aStoppedLeaderRestartsOnItsPortsWithItsDataAndTheClusterKeepsItsId() throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().nodes(3).start()) {
            String clusterId = kafka.admin().describeCluster().clusterId().get();
            assertEquals(List.of(0, 1, 2), kafka.nodes().stream().map(KafkaNode::id).toList());
            assertTrue(kafka.controllers().isEmpty(), "combined nodes by default");
            String topic = TestTopics.unique("restart");
            TopicPartition tp = new TopicPartition(topic, 0);
            kafka.createTopic(topic, 1);
            List<String> written = new ArrayList<>();
            try (KafkaProducer<String, String> producer = TestClients.producer(kafka)) {
                written.addAll(TestClients.produce(producer, topic, 0, "before", 100));

                int leader = kafka.leaderOf(tp);
                KafkaNode node = kafka.node(leader);
                node.stop();
                assertFalse(node.isRunning());
                int next = kafka.awaitLeader(tp, id -> id != leader);
                assertTrue(next != leader && next >= 0, "leadership moved from " + leader + " to " + next);
                written.addAll(TestClients.produce(producer, topic, 0, "while-down", 100));

                node.start();
                assertTrue(node.isRunning());
                kafka.awaitInSyncReplicas(tp, isr -> isr.contains(leader));
                kafka.awaitFullyInSync(tp);
                written.addAll(TestClients.produce(producer, topic, 0, "after", 100));
            }
            assertEquals(clusterId, kafka.admin().describeCluster().clusterId().get(), "cluster id kept");

            // Read through the restarted node alone: it is back on its own port, with every record.
            int restarted = kafka.nodes().stream().filter(n -> n.id() != kafka.leaderOf(tp)).findFirst().orElseThrow().id();
            Properties props = TestClients.consumerProps(kafka, TestTopics.unique("g"), "classic");
            props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.node(restarted).bootstrapAddress());
            props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
            try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props)) {
                consumer.assign(List.of(tp));
                List<String> read = TestClients.pollUntil(consumer, Duration.ofSeconds(30), r -> r.size() >= written.size())
                        .stream().map(ConsumerRecord::value).toList();
                assertEquals(written, read, "every record once, in order");
                assertEquals(written.size(), new HashSet<>(read).size());
            }
        }
    }

    @Test
    void closeDoesNotWaitMinutesForAControllerTheTestStopped() {
        EmbeddedKafka kafka = EmbeddedKafka.builder().nodes(2).controllers(1).start();
        assertEquals(List.of(3000), kafka.controllers().stream().map(KafkaNode::id).toList());
        assertTrue(kafka.controllers().get(0).isController() && !kafka.controllers().get(0).isBroker());
        assertThrows(IllegalStateException.class, () -> kafka.controllers().get(0).bootstrapAddress());
        kafka.createTopic("t", 1);
        kafka.controllers().get(0).stop();
        long began = System.nanoTime();
        kafka.close();
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - began);
        // Without a controller an in-JVM broker's controlled shutdown waits 5 minutes before it gives up.
        assertTrue(seconds < 60, "close took " + seconds + " s");
    }

    @Test
    void theLastCombinedNodeClosesWithoutWaitingMinutesForAQuorumThatIsGone() {
        // EmbeddedKafka.close() closes combined nodes in parallel; when two finish first, the third's broker asks
        // a quorum of one of three to approve its controlled shutdown. Driven here in that order, one node at a time.
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().nodes(3).start()) {
            kafka.createTopic(TestTopics.unique("close"), 3);
            ((ClusterNode) kafka.node(0)).close();
            ((ClusterNode) kafka.node(1)).close();
            long began = System.nanoTime();
            ((ClusterNode) kafka.node(2)).close();
            long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - began);
            assertTrue(seconds < 60, "the last node's close took " + seconds + " s");
        }
    }

    @Test
    void inJvmNodesRefuseKillAndPauseAndUnknownIdsAreNamed() {
        try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
            KafkaNode node = kafka.node(0);
            UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class, node::kill);
            assertTrue(e.getMessage().contains("childProcesses(true)"), e.getMessage());
            assertThrows(UnsupportedOperationException.class, node::pause);
            assertTrue(node.pid().isEmpty());
            IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class, () -> kafka.node(7));
            assertTrue(unknown.getMessage().contains("7"), unknown.getMessage());
            assertThrows(IllegalStateException.class, node::start, "already running");

            // A single node restarts too: same cluster, topic still there.
            kafka.createTopic("kept", 2);
            node.stop();
            node.start();
            assertEquals(2, kafka.partitionCount("kept"));
        }
    }
}
