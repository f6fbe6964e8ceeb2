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
package io.gapless.kafka.share.txn;

import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.common.TopicIdPartition;

import java.util.Map;

/**
 * The verdict of the ledger check for one transaction: clear to commit, or the records someone
 * else committed (settled as recorded) and the reason to abort.
 *
 * @param conflict  whether the transaction must abort
 * @param reason    why, for the exception message
 * @param onAbort   per participant, how to settle each staged offset after the abort
 */
record CommitCheck(boolean conflict, String reason, Map<ShareAckParticipant, Map<TopicIdPartition, Map<Long, AcknowledgeType>>> onAbort) {

    static CommitCheck clear() {
        return new CommitCheck(false, "", Map.of());
    }
}
