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
