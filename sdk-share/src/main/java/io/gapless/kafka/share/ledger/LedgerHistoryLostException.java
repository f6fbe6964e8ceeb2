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

import org.apache.kafka.common.KafkaException;

/**
 * The ack ledger a share group's commits are checked against no longer holds the group's history:
 * its topic was deleted (and re-created, by the SDK or by the broker's auto-creation), or the
 * group's clients were moved to another {@code gapless.ledger.topic}. Committing on would commit a
 * second time every record whose acknowledgement was lost after its first commit, so the SDK
 * refuses, with this exception, until an operator either points the clients back at the ledger the
 * group is bound to or accepts the loss explicitly with
 * {@code TransactionalShareGroups.acceptLedgerLoss} (sdk-share/RATIONALE.md, "A lost ledger").
 * Not retriable: the consumer that took part stops as well; restart the clients once the operator
 * acted.
 *
 * @since 0.1.0
 */
public final class LedgerHistoryLostException extends KafkaException {
    private static final long serialVersionUID = 1L;

    /** @param message names the group, the ledger it is bound to and the one found */
    public LedgerHistoryLostException(String message) {
        super(message);
    }
}
