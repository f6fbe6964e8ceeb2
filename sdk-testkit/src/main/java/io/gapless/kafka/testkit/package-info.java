/**
 * Real Kafka brokers for tests: {@link io.gapless.kafka.testkit.EmbeddedKafka} (a KRaft cluster in
 * the test JVM or in child JVMs whose nodes can be stopped, killed and frozen, optionally secured),
 * the JUnit 5 extension {@link io.gapless.kafka.testkit.EmbeddedKafkaTest}, and helpers for test
 * clients ({@link io.gapless.kafka.testkit.TestClients}).
 *
 * @since 0.1.0
 */
package io.gapless.kafka.testkit;
