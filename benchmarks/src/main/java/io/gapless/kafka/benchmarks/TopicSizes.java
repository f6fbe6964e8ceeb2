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
package io.gapless.kafka.benchmarks;

import io.gapless.kafka.testkit.EmbeddedKafka;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.ReplicaInfo;
import org.apache.kafka.common.TopicPartition;

import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Bytes a topic holds on the brokers' disks, summed over partitions and replicas ({@code describeLogDirs}). */
final class TopicSizes {
    private TopicSizes() {
    }

    static long bytes(EmbeddedKafka kafka, String topic) {
        return bytesOfPrefix(kafka, topic, true);
    }

    /** Bytes of every topic whose name starts with {@code prefix} (sdk-share's per-group ack ledgers). */
    static long bytesWithPrefix(EmbeddedKafka kafka, String prefix) {
        return bytesOfPrefix(kafka, prefix, false);
    }

    private static long bytesOfPrefix(EmbeddedKafka kafka, String topic, boolean exact) {
        try {
            var nodes = kafka.admin().describeCluster().nodes().get(30, TimeUnit.SECONDS);
            long total = 0;
            var dirs = kafka.admin().describeLogDirs(nodes.stream().map(n -> n.id()).toList()).allDescriptions()
                    .get(30, TimeUnit.SECONDS);
            for (Map<String, LogDirDescription> byDir : dirs.values()) {
                for (LogDirDescription d : byDir.values()) {
                    for (Map.Entry<TopicPartition, ReplicaInfo> e : d.replicaInfos().entrySet()) {
                        if (exact ? e.getKey().topic().equals(topic) : e.getKey().topic().startsWith(topic)) {
                            total += e.getValue().size();
                        }
                    }
                }
            }
            return total;
        } catch (Exception e) {
            throw new IllegalStateException("Cannot describe the log dirs holding " + topic, e);
        }
    }
}
