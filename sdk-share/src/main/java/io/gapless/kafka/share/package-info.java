/**
 * Share groups: {@link io.gapless.kafka.share.GaplessShareConsumer}, a drop-in
 * {@link org.apache.kafka.clients.consumer.ShareConsumer} that adds KIP-1327's
 * {@code share.auto.offset.reset.new.partitions} and, with
 * {@code share.acknowledgement.mode=transactional}, KIP-1289's transactional acknowledgements
 * (the producer side is in {@link io.gapless.kafka.share.txn}); its settings
 * ({@link io.gapless.kafka.share.GaplessShareConfig}).
 *
 * @since 0.1.0
 */
package io.gapless.kafka.share;
