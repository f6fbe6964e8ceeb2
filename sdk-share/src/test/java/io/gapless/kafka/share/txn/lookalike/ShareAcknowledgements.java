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
package io.gapless.kafka.share.txn.lookalike;

import org.apache.kafka.common.TopicIdPartition;

import java.util.List;
import java.util.Map;

/** Stands in for Kafka's KIP-1289 class of the same name in reflection tests. */
public final class ShareAcknowledgements {
    private final Map<TopicIdPartition, List<ShareAcknowledgementBatch>> acks;

    public ShareAcknowledgements(Map<TopicIdPartition, List<ShareAcknowledgementBatch>> acknowledgements) {
        this.acks = Map.copyOf(acknowledgements);
    }

    public Map<TopicIdPartition, List<ShareAcknowledgementBatch>> acknowledgements() {
        return acks;
    }
}
