/**
 * KIP-1327 for consumer groups: {@link io.gapless.kafka.core.GaplessConsumer}, a drop-in
 * {@link org.apache.kafka.clients.consumer.Consumer} with {@code auto.offset.reset.new.partitions},
 * its settings ({@link io.gapless.kafka.core.GaplessConsumerConfig}), the reset policies
 * ({@link io.gapless.kafka.core.ResetPolicy}), how partitions are classified as new or pre-existing,
 * the admin calls on a group's baseline ({@link io.gapless.kafka.core.GroupBaselines}), and the
 * exceptions the SDK adds ({@link io.gapless.kafka.core.BaselineUnavailableException},
 * {@link io.gapless.kafka.core.UnsupportedClientVersionException}).
 *
 * @since 0.1.0
 */
package io.gapless.kafka.core;
