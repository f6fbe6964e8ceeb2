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
 * KIP-1327 for share groups, as {@link io.gapless.kafka.share.GaplessShareConsumer} applies it:
 * which path a group takes ({@link io.gapless.kafka.share.reset.ShareNewPartitionsReset#decide},
 * used by the CLI's {@code probe}) and the emulation's steering and start offsets. Configure it
 * through the share consumer's settings, not through these types.
 *
 * @since 0.1.0
 */
package io.gapless.kafka.share.reset;
