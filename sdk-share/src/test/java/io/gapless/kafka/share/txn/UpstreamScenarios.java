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

import io.gapless.kafka.share.GaplessShareConfig;
import io.gapless.kafka.share.GaplessShareConsumer;
import io.gapless.kafka.testkit.EmbeddedKafka;
import org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec;
import org.apache.kafka.clients.admin.SharePartitionOffsetInfo;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.awaitility.Awaitility.await;

/**
 * What the KIP-1289 scenarios of Kafka's own integration tests need, restated for the SDK: an
 * explicit-mode consumer, records written as one batch, the share-group lag of a partition.
 */
final class UpstreamScenarios {
    private UpstreamScenarios() {
    }

    /** A share consumer as Kafka's KIP-1289 tests run it: {@code share.acknowledgement.mode=explicit}. */
    static Map<String, Object> explicitConsumerConfig(EmbeddedKafka kafka, String group, String ledgerTopic) {
        Map<String, Object> c = ShareTestSupport.consumerConfig(kafka, group, ledgerTopic);
        c.put(GaplessShareConfig.ACKNOWLEDGEMENT_MODE_CONFIG, "explicit");
        return c;
    }

    /** Writes {@code values} to one partition in one batch, so that one share fetch acquires them together. */
    static void produceOneBatch(EmbeddedKafka kafka, TopicPartition tp, String... values) {
        Map<String, Object> props = new HashMap<>();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        props.put(ProducerConfig.LINGER_MS_CONFIG, 1000);
        try (KafkaProducer<String, String> p = new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
            for (String v : values) {
                p.send(new ProducerRecord<>(tp.topic(), tp.partition(), null, v));
            }
            p.flush();
        }
    }

    /** Polls until a poll returns at least {@code atLeast} records (explicit mode: one non-empty poll, then act on it). */
    static List<ConsumerRecord<String, String>> pollUntil(GaplessShareConsumer<String, String> c, int atLeast) {
        AtomicReference<List<ConsumerRecord<String, String>>> got = new AtomicReference<>(List.of());
        await().pollInSameThread().atMost(Duration.ofSeconds(30)).until(() -> {
            ConsumerRecords<String, String> r = c.poll(Duration.ofMillis(200));
            List<ConsumerRecord<String, String>> list = new ArrayList<>();
            r.forEach(list::add);
            got.set(list);
            if (!list.isEmpty() && list.size() < atLeast) {
                throw new AssertionError("wanted " + atLeast + " records in one poll, got " + list);
            }
            return list.size() >= atLeast;
        });
        return got.get();
    }

    /** Polls for {@code window} (longer than the record lock) and returns whatever came. */
    static List<ConsumerRecord<String, String>> pollFor(GaplessShareConsumer<String, String> c, Duration window) {
        List<ConsumerRecord<String, String>> all = new ArrayList<>();
        long deadline = System.nanoTime() + window.toNanos();
        while (System.nanoTime() < deadline) {
            c.poll(Duration.ofMillis(200)).forEach(all::add);
        }
        return all;
    }

    /** The share-group lag of {@code tp} as Kafka reports it, or -1 while it is not initialized. */
    static long lag(EmbeddedKafka kafka, String group, TopicPartition tp) throws Exception {
        SharePartitionOffsetInfo info = kafka.admin()
                .listShareGroupOffsets(Map.of(group, new ListShareGroupOffsetsSpec().topicPartitions(List.of(tp))))
                .partitionsToOffsetInfo(group).get(30, TimeUnit.SECONDS).get(tp);
        return info == null ? -1 : info.lag().orElse(-1L);
    }

    /** Waits until Kafka reports the share-group lag {@code expected} for {@code tp}. */
    static void awaitLag(EmbeddedKafka kafka, String group, TopicPartition tp, long expected) {
        await().atMost(Duration.ofSeconds(30)).until(() -> lag(kafka, group, tp) == expected);
    }
}
