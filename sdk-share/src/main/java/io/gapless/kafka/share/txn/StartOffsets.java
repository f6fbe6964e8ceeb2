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

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec;
import org.apache.kafka.clients.admin.SharePartitionOffsetInfo;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Share-partition start offsets of a group, looked up when a consumer is about to count records
 * as archived: a record below its share-partition's start offset was finished (acknowledged or
 * archived) before this consumer let it go, so its release archives nothing, and Kafka reports that
 * release as success (ShareAcknowledgeFactsIT).
 */
@FunctionalInterface
interface StartOffsets {
    Logger LOG = LoggerFactory.getLogger(StartOffsets.class);

    /** The start offsets of {@code partitions} in {@code group}; partitions it cannot tell are left out. */
    Map<TopicPartition, Long> of(String group, Set<TopicPartition> partitions);

    /** A lookup through {@code admin} (ListShareGroupOffsets); an answer it cannot get is empty. */
    static StartOffsets viaAdmin(Supplier<Admin> admin) {
        return (group, partitions) -> {
            Map<TopicPartition, Long> out = new HashMap<>();
            try {
                Map<TopicPartition, SharePartitionOffsetInfo> infos = admin.get().listShareGroupOffsets(Map.of(group,
                        new ListShareGroupOffsetsSpec().topicPartitions(partitions))).partitionsToOffsetInfo(group).get(10, TimeUnit.SECONDS);
                infos.forEach((tp, info) -> {
                    if (info != null && info.startOffset() >= 0) {
                        out.put(tp, info.startOffset());
                    }
                });
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (Exception e) {
                LOG.debug("Cannot list the start offsets of share group {} ({}); released records at the limit count as archived", group,
                        e.toString());
            }
            return out;
        };
    }
}
