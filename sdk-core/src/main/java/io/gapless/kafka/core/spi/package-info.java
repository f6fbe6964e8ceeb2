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
/**
 * The internal API sdk-core offers its sibling modules (sdk-streams, sdk-share): the one place
 * where they reach below sdk-core's public API. Applications must not use it; it changes without
 * notice. The types here are deliberately few: the mode decision every client takes once
 * ({@link io.gapless.kafka.core.spi.ModeDecision}), the connection settings of the SDK's helper
 * clients ({@link io.gapless.kafka.core.spi.ConnectionConfigs}), the reset-policy validator of
 * every config class ({@link io.gapless.kafka.core.spi.ResetPolicyValidator}) and the group
 * baseline as a share group uses it ({@link io.gapless.kafka.core.spi.ShareGroupBaseline}), KIP-1327's
 * emulation for a consumer, wired once for {@code GaplessConsumer} and Kafka Streams
 * ({@link io.gapless.kafka.core.spi.NewPartitionsEmulation}), the names of the per-group state topics
 * ({@link io.gapless.kafka.core.spi.StateTopics}) and the one creator of those topics
 * ({@link io.gapless.kafka.core.spi.StateTopicProvisioner}).
 * See ARCHITECTURE.md.
 *
 * @since 0.1.0
 */
package io.gapless.kafka.core.spi;
