/**
 * The internal API sdk-core offers its sibling modules (sdk-streams, sdk-share): the one place
 * where they reach below sdk-core's public API. Applications must not use it; it changes without
 * notice. The types here are deliberately few: the mode decision every client takes once
 * ({@link io.gapless.kafka.core.spi.ModeDecision}), the connection settings of the SDK's helper
 * clients ({@link io.gapless.kafka.core.spi.ConnectionConfigs}), the reset-policy validator of
 * every config class ({@link io.gapless.kafka.core.spi.ResetPolicyValidator}) and the group
 * baseline as a share group uses it ({@link io.gapless.kafka.core.spi.ShareGroupBaseline}) and the
 * names of the per-group state topics ({@link io.gapless.kafka.core.spi.StateTopics}).
 * See ARCHITECTURE.md.
 *
 * @since 0.1.0
 */
package io.gapless.kafka.core.spi;
