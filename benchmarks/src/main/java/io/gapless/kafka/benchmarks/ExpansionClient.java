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

import io.gapless.kafka.core.GaplessConsumer;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * The three ways the expansion benchmark starts a group that should skip history: plain
 * {@code latest}; plain {@code by_duration:<d>}, the workaround Kafka 4.4's {@code ConsumerConfig}
 * documentation gives ({@code PT6M} for the classic protocol, a metadata refresh plus a rebalance;
 * {@code PT5S} for the consumer protocol, its heartbeat interval); and the SDK's
 * {@code latest} plus {@code auto.offset.reset.new.partitions=earliest}.
 */
enum ExpansionClient {
    LATEST("plain"), BY_DURATION("duration"), SDK("sdk");

    private final String key;

    ExpansionClient(String key) {
        this.key = key;
    }

    /** The prefix of this client's metrics in the {@code RESULT} lines: {@code plain}, {@code duration}, {@code sdk}. */
    String key() {
        return key;
    }

    /** The {@code by_duration} Kafka 4.4 documents for the protocol. */
    static Duration documentedDuration(String groupProtocol) {
        return "classic".equals(groupProtocol) ? Duration.ofMinutes(6) : Duration.ofSeconds(5);
    }

    Consumer<byte[], byte[]> create(Map<String, Object> latestProps, String groupProtocol) {
        return switch (this) {
            case LATEST -> new KafkaConsumer<>(latestProps);
            case BY_DURATION -> {
                Map<String, Object> p = new HashMap<>(latestProps);
                p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "by_duration:" + documentedDuration(groupProtocol));
                yield new KafkaConsumer<>(p);
            }
            case SDK -> new GaplessConsumer<>(ClientSettings.sdkConsumer(latestProps, "earliest"));
        };
    }
}
