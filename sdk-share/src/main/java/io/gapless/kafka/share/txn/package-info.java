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
 * KIP-1289, transactional share acknowledgements:
 * {@link io.gapless.kafka.share.txn.TransactionalShareProducer} (a producer whose transaction also
 * commits a share consumer's acknowledgements), {@link io.gapless.kafka.share.txn.TransactionalShareAcknowledger}
 * (the same without output), the KIP's types ({@link io.gapless.kafka.share.txn.ShareAcknowledgements},
 * {@link io.gapless.kafka.share.txn.ShareGroupMetadata}) and the move of a group to Kafka's native
 * KIP-1289 ({@link io.gapless.kafka.share.txn.TransactionalShareGroups}).
 *
 * @since 0.1.0
 */
package io.gapless.kafka.share.txn;
