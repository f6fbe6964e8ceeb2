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
package io.gapless.kafka.examples.docs;

import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.KafkaNode;
import io.gapless.kafka.testkit.KafkaSecurity;
import io.gapless.kafka.testkit.TestClients;
import io.gapless.kafka.testkit.legacy.LegacyKafka;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.resource.ResourceType;

import java.util.Properties;

/** The test kit in docs/testing.md. */
final class TestkitSnippets {
    private TestkitSnippets() {
    }

    static void start(Properties props) {
        // tag::testkit-start[]
        try (EmbeddedKafka kafka = EmbeddedKafka.start()) {          // ~2 s, ports chosen at run time
            kafka.createTopic("orders", 2);
            kafka.addPartitions("orders", 4);
            props.put("bootstrap.servers", kafka.bootstrapServers());
        }
        // end::testkit-start[]
    }

    static void killLeader() {
        // tag::testkit-kill[]
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().nodes(3).childProcesses(true).start()) {  // ~7-11 s
            TopicPartition tp = new TopicPartition("orders", 0);
            int leader = kafka.leaderOf(tp);                       // node id, -1 when none
            KafkaNode node = kafka.node(leader);
            node.kill();                                           // SIGKILL its JVM
            kafka.awaitLeader(tp, id -> id != leader);             // waits up to 60 s
            node.start();                                          // same ports, same data, same cluster id
            kafka.awaitFullyInSync(tp);                            // every replica back in the ISR
        }
        // end::testkit-kill[]
    }

    static void secured() {
        // tag::testkit-security[]
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().security(KafkaSecurity.saslSsl()).start()) {
            kafka.addUser("alice", "alice-pw");                     // SCRAM credentials; addUser("alice") picks a password
            kafka.allow("alice", ResourceType.TOPIC, "orders", AclOperation.WRITE, AclOperation.DESCRIBE);
            Properties p = TestClients.producerProps(kafka);        // connects as the super user "admin" ...
            p.putAll(kafka.clientProperties("alice"));              // ... unless a principal's settings go on top
        }
        // end::testkit-security[]
    }

    static void legacy(Properties props) {
        // tag::testkit-legacy[]
        try (LegacyKafka legacy = LegacyKafka.start()) {             // Kafka 4.3.1 in a child JVM
            props.put("bootstrap.servers", legacy.bootstrapServers());
        }
        // end::testkit-legacy[]
    }
}
