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
package io.gapless.kafka.examples.share;

import io.gapless.kafka.share.GaplessShareConfig;
import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.TestClients;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec;
import org.apache.kafka.clients.admin.SharePartitionOffsetInfo;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Topics, group settings and client configs of the transactional share demo, on one embedded broker. */
public final class ShareDemoCluster {
    public static final String INPUT = "orders";
    public static final String OUTPUT = "orders-enriched";
    public static final String GROUP = "enricher";

    private final EmbeddedKafka kafka;

    public ShareDemoCluster(EmbeddedKafka kafka) {
        this.kafka = kafka;
    }

    /** Creates the topics and a share group whose record locks expire after one second. */
    public void setUp(int orders) throws Exception {
        kafka.createTopic(INPUT, 1);
        kafka.createTopic(OUTPUT, 1);
        kafka.admin().incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.GROUP, GROUP), List.of(
                new AlterConfigOp(new ConfigEntry("share.auto.offset.reset", "earliest"), AlterConfigOp.OpType.SET),
                new AlterConfigOp(new ConfigEntry("share.record.lock.duration.ms", "1000"), AlterConfigOp.OpType.SET))))
                .all().get(30, TimeUnit.SECONDS);
        Map<String, Object> props = new HashMap<>();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        try (KafkaProducer<String, String> p = new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < orders; i++) {
                p.send(new ProducerRecord<>(INPUT, "order-" + i, "order-" + i));
            }
        }
    }

    public Map<String, Object> consumerConfig(String clientId) {
        Map<String, Object> c = new HashMap<>();
        c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        c.put(ConsumerConfig.GROUP_ID_CONFIG, GROUP);
        c.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        c.put(GaplessShareConfig.ACKNOWLEDGEMENT_MODE_CONFIG, GaplessShareConfig.ACKNOWLEDGEMENT_MODE_TRANSACTIONAL);
        c.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 4);
        c.put("share.acquire.mode", "record_limit");
        c.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        c.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        return c;
    }

    public Map<String, Object> producerConfig(String transactionalId) {
        Map<String, Object> p = new HashMap<>();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        p.put(ProducerConfig.CLIENT_ID_CONFIG, transactionalId);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        return p;
    }

    /** Whether the share group acknowledged every order (Kafka's share-group lag is 0). */
    public boolean allAcknowledged() throws Exception {
        return fullyAcknowledged(kafka, GROUP, INPUT);
    }

    /** Every record a read_committed consumer sees in the output topic. */
    public List<String> committedOutput() {
        return committedValues(kafka, OUTPUT);
    }

    /** Whether share group {@code group} acknowledged every record of partition 0 of {@code topic} (its lag is 0). */
    public static boolean fullyAcknowledged(EmbeddedKafka kafka, String group, String topic) throws Exception {
        TopicPartition tp = new TopicPartition(topic, 0);
        SharePartitionOffsetInfo info = kafka.admin()
                .listShareGroupOffsets(Map.of(group, new ListShareGroupOffsetsSpec().topicPartitions(List.of(tp))))
                .partitionsToOffsetInfo(group).get(30, TimeUnit.SECONDS).get(tp);
        return info != null && info.lag().orElse(-1L) == 0;
    }

    /** Every value a read_committed consumer sees in partition 0 of {@code topic}, from its beginning. */
    public static List<String> committedValues(EmbeddedKafka kafka, String topic) {
        return TestClients.committedValues(kafka, topic);
    }
}
