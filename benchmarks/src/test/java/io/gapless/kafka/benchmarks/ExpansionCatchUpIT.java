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
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The expansion benchmark counts as lost only what the consumer never delivers. Kafka 4.4 leaves a
 * partition whose {@code by_duration} reset found no record (an empty, just-added partition)
 * unpositioned for {@code request.timeout.ms}; the records written meanwhile arrive about 30 s
 * later, and the run must wait for them rather than stop at the first quiet second.
 */
class ExpansionCatchUpIT {
    private static final int RECORDS = 50;

    @Test
    void recordsOfAPartitionAwaitingItsByDurationResetAreDeliveredNotLost() throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
            String topic = "catch-up";
            TopicLoader.create(kafka, topic, 1);
            kafka.addPartitions(topic, 2);
            TopicPartition empty = new TopicPartition(topic, 1);
            try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(
                    ClientSettings.consumer(kafka, topic + "-group", "classic", "by_duration:PT6M"));
                 KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(ClientSettings.producer(kafka))) {
                consumer.subscribe(List.of(topic));
                while (consumer.assignment().size() < 2) {
                    consumer.poll(Duration.ofMillis(50));
                }
                // One ListOffsets resets both partitions: partition 1 is answered "no offset" while it is empty.
                consumer.position(new TopicPartition(topic, 0), Duration.ofSeconds(15));
                for (long seq = 0; seq < RECORDS; seq++) {
                    producer.send(new ProducerRecord<>(topic, 1, null, ByteBuffer.allocate(Long.BYTES).putLong(seq).array()));
                }
                producer.flush();
                DeliveredRecords delivered = new DeliveredRecords(1);
                long start = System.nanoTime();
                ExpansionRun.catchUp(consumer, delivered);
                System.out.printf("caught up on %s after %d ms%n", empty, (System.nanoTime() - start) / 1_000_000);
                assertEquals(RECORDS, delivered.distinct(1), "records of " + empty + " delivered by the end of the run");
            }
        }
    }
}
