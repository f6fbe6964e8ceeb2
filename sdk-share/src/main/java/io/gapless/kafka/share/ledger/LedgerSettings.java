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

import io.gapless.kafka.core.spi.StateTopics;

/**
 * The ack-ledger settings of one client, as its config class parsed them.
 *
 * @param topicPrefix              prefix of the per-group ledger topics ({@link StateTopics#forGroup})
 * @param sharedTopic              one ledger topic for every group instead, or null
 * @param replicationFactor        replication factor when the SDK creates a ledger topic; -1 for min(3, brokers).
 *                                 1 set explicitly also accepts an existing unreplicated topic on a multi-broker cluster
 * @param maxBytesBetweenSnapshots ledger entry bytes read before a snapshot (KIP-1349's rule)
 * @since 0.1.0
 */
public record LedgerSettings(String topicPrefix, String sharedTopic, short replicationFactor, long maxBytesBetweenSnapshots) {

    /** The ledger topic of {@code group}. */
    public String topicFor(String group) {
        return sharedTopic != null ? sharedTopic : StateTopics.forGroup(topicPrefix, group);
    }

    /** Whether {@code topic} is a ledger topic of these settings (the shared one, or one of the per-group ones). */
    public boolean isLedgerTopic(String topic) {
        return sharedTopic != null ? sharedTopic.equals(topic) : topic.startsWith(topicPrefix);
    }

    /** The ledger topic or topics, for log lines. */
    public String describe() {
        return sharedTopic != null ? sharedTopic : topicPrefix + "<group>";
    }
}
