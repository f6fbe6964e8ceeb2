/**
 * An older Kafka broker (4.3.1 by default) in a child JVM for tests:
 * {@link io.gapless.kafka.testkit.legacy.LegacyKafka} and the JUnit 5 extension
 * {@link io.gapless.kafka.testkit.legacy.LegacyKafkaTest}.
 *
 * @since 0.1.0
 */
package io.gapless.kafka.testkit.legacy;
