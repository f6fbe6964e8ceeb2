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
package io.gapless.kafka.share.ledger;

/**
 * A fact a holder learned after its commit: the share group accepted the acknowledgements of the
 * ranges of {@code key} that the ledger entry at {@code ledgerOffset} recorded (the consumer's
 * {@code commitSync} reported no error for that share-partition). It is true whatever transaction
 * carries it, so it may ride in a later entry or stand alone.
 *
 * @since 0.1.0
 */
public record LedgerConfirmation(ShareKey key, long ledgerOffset) {
}
