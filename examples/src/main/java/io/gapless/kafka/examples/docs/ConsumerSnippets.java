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
package io.gapless.kafka.examples.docs;

import io.gapless.kafka.core.GaplessConsumer;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;

import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.function.BooleanSupplier;

/** GaplessConsumer in README.md and docs/consumer.md. */
final class ConsumerSnippets {
    private ConsumerSnippets() {
    }

    static void consumeOrders(BooleanSupplier running) {
        // tag::consumer-loop[]
        Properties props = new Properties();
        props.put("bootstrap.servers", "localhost:9092");
        props.put("group.id", "orders-service");
        props.put("key.deserializer", StringDeserializer.class.getName());
        props.put("value.deserializer", StringDeserializer.class.getName());
        props.put("auto.offset.reset", "latest");                   // skip history on first deployment
        props.put("auto.offset.reset.new.partitions", "earliest");  // but never lose an added partition

        try (Consumer<String, String> consumer = new GaplessConsumer<>(props)) {   // was: new KafkaConsumer<>(props)
            consumer.subscribe(List.of("orders"));
            while (running.getAsBoolean()) {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(500))) {
                    process(r);
                }
                consumer.commitSync();
            }
        }
        // end::consumer-loop[]
    }

    static Consumer<String, String> frontPage(Properties props) {
        // tag::readme-consumer[]
        props.put("auto.offset.reset", "latest");                   // skip history on first deployment
        props.put("auto.offset.reset.new.partitions", "earliest");  // but never lose an added partition
        Consumer<String, String> consumer = new GaplessConsumer<>(props);   // was: new KafkaConsumer<>(props)
        // end::readme-consumer[]
        return consumer;
    }

    private static void process(ConsumerRecord<String, String> record) {
        System.out.println(record.value());
    }
}
