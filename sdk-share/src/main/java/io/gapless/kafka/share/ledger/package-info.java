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
 * The ack ledger, the per-group topic on which the emulation of KIP-1289 records each
 * transaction's acknowledgements. Applications use only
 * {@link io.gapless.kafka.share.ledger.LedgerInspection} and the report it returns, which show a
 * group's ledger read-only; the rest is the SDK's own machinery, public for its sibling packages.
 *
 * @since 0.1.0
 */
package io.gapless.kafka.share.ledger;
