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

import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.consumer.ShareConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;

import java.time.Duration;
import java.util.List;

/**
 * Plain Kafka share consumer, explicit acknowledgements, no transaction (at least once): per
 * batch, send the outputs, acknowledge every record, then commit = {@code producer.flush()} +
 * {@code consumer.commitSync()}.
 */
public final class ShareAckLoop implements TransformLoop {

    @Override
    public String name() {
        return "share_plain";
    }

    @Override
    public LoopOutcome run(BenchmarkContext ctx, String input, String output, int records, int batch, int run) {
        String group = ctx.unique("share-plain-" + run);
        ShareGroups.startFromEarliest(ctx.kafka(), group);
        LoopTimer timer = new LoopTimer("share_plain run " + run);
        try (ShareConsumer<byte[], byte[]> consumer = new KafkaShareConsumer<>(ShareGroups.consumer(ctx.kafka(), group, batch));
             Producer<byte[], byte[]> producer = new KafkaProducer<>(ClientSettings.producer(ctx.kafka()))) {
            consumer.subscribe(List.of(input));
            while (!timer.done(records)) {
                long pollStart = System.nanoTime();
                ConsumerRecords<byte[], byte[]> polled = consumer.poll(Duration.ofMillis(100));
                if (polled.isEmpty()) {
                    continue;
                }
                long sendStart = System.nanoTime();
                timer.batch(polled.count(), sendStart - pollStart);
                timer.redelivered(polled);
                for (ConsumerRecord<byte[], byte[]> r : polled) {
                    producer.send(new ProducerRecord<>(output, r.partition(), r.key(), TransformLoop.transform(r.value())));
                    consumer.acknowledge(r, AcknowledgeType.ACCEPT);
                }
                timer.sent(sendStart);
                long began = System.nanoTime();
                producer.flush();
                consumer.commitSync();
                timer.commit(began);
            }
        }
        return timer.outcome();
    }
}
