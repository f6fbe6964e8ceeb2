/**
 * KIP-1327 for share groups, as {@link io.gapless.kafka.share.GaplessShareConsumer} applies it:
 * which path a group takes ({@link io.gapless.kafka.share.reset.ShareNewPartitionsReset#decide},
 * used by the CLI's {@code probe}) and the emulation's steering and start offsets. Configure it
 * through the share consumer's settings, not through these types.
 *
 * @since 0.1.0
 */
package io.gapless.kafka.share.reset;
