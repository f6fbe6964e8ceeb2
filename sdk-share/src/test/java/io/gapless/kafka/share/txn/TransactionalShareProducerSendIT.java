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

import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.TestTopics;
import org.apache.kafka.clients.producer.Partitioner;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static io.gapless.kafka.share.txn.ShareTestSupport.committedValues;
import static io.gapless.kafka.share.txn.ShareTestSupport.producerConfig;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code TransactionalShareProducer.send} is {@code KafkaProducer.send}: the application's
 * serializers and partitioner run inside Kafka's producer, with the key object and the record's
 * own headers, as a user swapping {@code new KafkaProducer<>(props)} for the SDK expects.
 */
class TransactionalShareProducerSendIT {
    private static EmbeddedKafka kafka;
    static final List<Object> KEYS_SEEN = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void start() {
        kafka = EmbeddedKafka.builder().start();
    }

    @AfterAll
    static void stop() {
        kafka.close();
    }

    /** Sends every record to the last partition and remembers the key objects it was given. */
    public static final class KeyRecordingPartitioner implements Partitioner {
        @Override
        public int partition(String topic, Object key, byte[] keyBytes, Object value, byte[] valueBytes, Cluster cluster) {
            KEYS_SEEN.add(key);
            return cluster.partitionCountForTopic(topic) - 1;
        }

        @Override
        public void close() {
        }

        @Override
        public void configure(Map<String, ?> configs) {
        }
    }

    /** Upper-cases values and says so in a header, to see that the record's own headers reach the serializer. */
    public static final class HeaderStampingSerializer extends StringSerializer {
        @Override
        public byte[] serialize(String topic, Headers headers, String data) {
            headers.add("stamped", "yes".getBytes(StandardCharsets.UTF_8));
            return super.serialize(topic, headers, data.toUpperCase());
        }
    }

    @Test
    void aCustomPartitionerSeesTheApplicationsKeyObjectAsWithKafkaProducer() {
        String output = TestTopics.unique("send-out");
        kafka.createTopic(output, 3);
        KEYS_SEEN.clear();
        Map<String, Object> p = producerConfig(kafka, TestTopics.unique("txn"), "unused");
        p.put(ProducerConfig.PARTITIONER_CLASS_CONFIG, KeyRecordingPartitioner.class);
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, HeaderStampingSerializer.class);
        try (TransactionalShareProducer<String, String> producer = new TransactionalShareProducer<>(p)) {
            producer.initTransactions();
            producer.beginTransaction();
            ProducerRecord<String, String> record = new ProducerRecord<>(output, "key-1", "value-1");
            producer.send(record);
            producer.commitTransaction();
            assertEquals(List.of("key-1"), KEYS_SEEN, "the partitioner's key argument (KafkaProducer passes the key object)");
            assertEquals("yes", new String(record.headers().lastHeader("stamped").value(), StandardCharsets.UTF_8),
                    "the serializer wrote to the record's own headers, as with KafkaProducer");
        }
        assertEquals(List.of("VALUE-1"), committedValues(kafka, output));
    }
}
