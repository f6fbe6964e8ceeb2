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

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Each secured listener: a principal with ACLs produces and consumes, one without is refused. */
class SecuredClusterIT {

    static Stream<Arguments> protocols() {
        return Stream.of(
                Arguments.of(KafkaSecurity.saslPlaintext(), 1, 0, false),
                Arguments.of(KafkaSecurity.saslPlaintext("SCRAM-SHA-256"), 1, 0, false),
                Arguments.of(KafkaSecurity.ssl(), 1, 0, false),
                Arguments.of(KafkaSecurity.saslSsl(), 1, 0, false),
                Arguments.of(KafkaSecurity.saslSsl(), 1, 0, true),
                // Replication and the quorum over the brokers' own SASL listeners.
                Arguments.of(KafkaSecurity.ssl(), 3, 0, false),
                Arguments.of(KafkaSecurity.saslPlaintext(), 2, 1, false));
    }

    @ParameterizedTest(name = "{0}, {1} broker(s), {2} dedicated controller(s), child JVMs: {3}")
    @MethodSource("protocols")
    void aPrincipalWithAclsProducesAndConsumesAndOneWithoutIsRefused(KafkaSecurity security, int brokers, int controllers,
                                                                     boolean childProcesses) throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().nodes(brokers).controllers(controllers).security(security)
                .childProcesses(childProcesses).start()) {
            assertEquals(security.protocol().name, kafka.clientProperties().getProperty("security.protocol"));
            kafka.createTopic("orders", 2);
            if (security.saslMechanism().isPresent()) {
                kafka.addUser("alice", "alice-secret-1");
            } else {
                kafka.addUser("alice");
                assertThrows(IllegalStateException.class, () -> kafka.addUser("carol", "a-password"), "SSL has no passwords");
            }
            kafka.addUser("bob");
            kafka.allow("alice", ResourceType.TOPIC, "orders", AclOperation.WRITE, AclOperation.READ, AclOperation.DESCRIBE);
            kafka.allow("alice", ResourceType.GROUP, "billing", AclOperation.READ);

            Properties aliceProducer = TestClients.producerProps(kafka);
            aliceProducer.putAll(kafka.clientProperties("alice"));
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(aliceProducer)) {
                TestClients.produce(producer, "orders", 0, "o", 10);
            }
            Properties aliceConsumer = TestClients.consumerProps(kafka, "billing", "consumer");
            aliceConsumer.putAll(kafka.clientProperties("alice"));
            aliceConsumer.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
            try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(aliceConsumer)) {
                consumer.subscribe(List.of("orders"));
                List<ConsumerRecord<String, String>> read = TestClients.pollUntil(consumer, Duration.ofSeconds(30), r -> r.size() >= 10);
                assertEquals(10, read.size());
                consumer.commitSync();
            }

            Properties bobProducer = TestClients.producerProps(kafka);
            bobProducer.putAll(kafka.clientProperties("bob"));
            bobProducer.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(bobProducer)) {
                ExecutionException refused = assertThrows(ExecutionException.class,
                        () -> producer.send(new ProducerRecord<>("orders", "k", "v")).get());
                assertInstanceOf(TopicAuthorizationException.class, refused.getCause());
            }
            Properties bobConsumer = TestClients.consumerProps(kafka, "billing", "classic");
            bobConsumer.putAll(kafka.clientProperties("bob"));
            try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(bobConsumer)) {
                consumer.subscribe(List.of("orders"));
                AuthorizationException e = assertThrows(AuthorizationException.class, () -> {
                    for (int i = 0; i < 100; i++) {
                        consumer.poll(Duration.ofMillis(200));
                    }
                });
                assertFalse(e.getMessage().contains("secret"), e.getMessage());
            }
        }
    }

    @Test
    void aWrongPasswordFailsAuthenticationAndMisuseIsNamed() throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().security(KafkaSecurity.saslPlaintext()).start()) {
            kafka.addUser("carol", "right-password");
            Properties wrong = kafka.clientProperties("carol");
            wrong.put("sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required "
                    + "username=\"carol\" password=\"wrong-password\";");
            try (Admin admin = Admin.create(wrong)) {
                ExecutionException e = assertThrows(ExecutionException.class, () -> admin.describeCluster().clusterId().get());
                assertInstanceOf(SaslAuthenticationException.class, e.getCause());
            }
            IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class, () -> kafka.clientProperties("dave"));
            assertTrue(unknown.getMessage().contains("dave"), unknown.getMessage());
            IllegalArgumentException badPassword = assertThrows(IllegalArgumentException.class,
                    () -> kafka.addUser("erin", "has\"quote-secret"));
            assertFalse(badPassword.getMessage().contains("secret"), "the password is not quoted: " + badPassword.getMessage());
            assertThrows(IllegalArgumentException.class, () -> KafkaSecurity.saslPlaintext("GSSAPI"));
            assertTrue(kafka.admin().describeCluster().clusterId().get() != null, "the super user works");
        }
        try (EmbeddedKafka plain = EmbeddedKafka.start()) {
            assertThrows(IllegalStateException.class, () -> plain.addUser("x"));
            assertTrue(plain.security().isEmpty());
            assertEquals(plain.bootstrapServers(), plain.clientProperties().getProperty("bootstrap.servers"));
        }
    }
}
