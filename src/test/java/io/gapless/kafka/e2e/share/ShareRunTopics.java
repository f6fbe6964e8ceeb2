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
package io.gapless.kafka.e2e.share;

import io.gapless.kafka.testkit.EmbeddedKafka;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec;
import org.apache.kafka.clients.admin.SharePartitionOffsetInfo;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The topics and the share group of one fault-suite run, as a user checks them: records written
 * as {@code v0, v1, ...} round robin over the input partitions, Kafka's share-group lag over all of
 * them, every committed value of the output (read_committed, all partitions).
 */
final class ShareRunTopics {
    private final EmbeddedKafka kafka;
    private final String input;
    private final int partitions;
    private final String output;
    private final String group;
    private int produced;

    ShareRunTopics(EmbeddedKafka kafka, String input, int partitions, String output, String group) {
        this.kafka = kafka;
        this.input = input;
        this.partitions = partitions;
        this.output = output;
        this.group = group;
    }

    /** Creates the topics (the output with as many partitions) and sets the group's share configs. */
    void create(int lockMs, int deliveryLimit) throws Exception {
        kafka.createTopic(input, partitions);
        kafka.createTopic(output, partitions);
        ConfigResource resource = new ConfigResource(ConfigResource.Type.GROUP, group);
        kafka.admin().incrementalAlterConfigs(Map.of(resource, List.of(
                new AlterConfigOp(new ConfigEntry("share.auto.offset.reset", "earliest"), AlterConfigOp.OpType.SET),
                new AlterConfigOp(new ConfigEntry("share.record.lock.duration.ms", Integer.toString(lockMs)), AlterConfigOp.OpType.SET),
                new AlterConfigOp(new ConfigEntry("share.delivery.count.limit", Integer.toString(deliveryLimit)), AlterConfigOp.OpType.SET))))
                .all().get(30, TimeUnit.SECONDS);
    }

    int produced() {
        return produced;
    }

    /** Writes {@code count} more records, {@code v<n>} to partition {@code n % partitions}, acknowledged by all replicas. */
    void produce(int count) {
        Map<String, Object> props = new HashMap<>();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<String, String> p = new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < count; i++) {
                p.send(new ProducerRecord<>(input, produced % partitions, "k" + produced, "v" + produced));
                produced++;
            }
        }
    }

    /**
     * Kafka's share-group lag summed over the input partitions; -1 while one of them is not initialized, or while
     * the group's coordinator does not answer (a killed broker's partitions are moving): callers poll it until a deadline.
     */
    long lag() throws Exception {
        List<TopicPartition> tps = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            tps.add(new TopicPartition(input, p));
        }
        Map<TopicPartition, SharePartitionOffsetInfo> infos;
        try {
            infos = kafka.admin()
                    .listShareGroupOffsets(Map.of(group, new ListShareGroupOffsetsSpec().topicPartitions(tps)))
                    .partitionsToOffsetInfo(group).get(10, TimeUnit.SECONDS);
        } catch (TimeoutException unanswered) {
            return -1;
        }
        long lag = 0;
        for (TopicPartition tp : tps) {
            SharePartitionOffsetInfo info = infos.get(tp);
            if (info == null || info.lag().isEmpty()) {
                return -1;
            }
            lag += info.lag().get();
        }
        return lag;
    }

    /** Every committed value of the output topic (read_committed, from the beginning of every partition). */
    List<String> committedValues() {
        Map<String, Object> c = new HashMap<>();
        c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(c, new StringDeserializer(), new StringDeserializer())) {
            List<TopicPartition> tps = consumer.partitionsFor(output).stream().map(p -> new TopicPartition(output, p.partition())).toList();
            consumer.assign(tps);
            consumer.seekToBeginning(tps);
            Map<TopicPartition, Long> end = consumer.endOffsets(tps);
            long limit = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (tps.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp)) && System.nanoTime() < limit) {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(100))) {
                    values.add(r.value());
                }
            }
        }
        return values;
    }
}
