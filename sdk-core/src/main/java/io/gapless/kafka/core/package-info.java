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
