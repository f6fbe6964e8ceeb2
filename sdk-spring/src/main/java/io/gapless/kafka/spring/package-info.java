/**
 * Spring Kafka: {@link io.gapless.kafka.spring.GaplessKafkaConsumerFactory} and
 * {@link io.gapless.kafka.spring.GaplessShareConsumerFactory}, Spring's consumer factories creating
 * the SDK's consumers, so that containers and {@code @KafkaListener}s get the SDK's features
 * unchanged.
 *
 * @since 0.1.0
 */
package io.gapless.kafka.spring;
