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
package io.gapless.kafka.spring.boot;

import io.gapless.kafka.spring.GaplessShareConsumerFactory;
import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.EmbeddedKafkaTest;
import io.gapless.kafka.testkit.TestTopics;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.MessageListener;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.IntStream;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A container stopped while its listener is in the middle of a poll's transaction ends that
 * transaction by committing it: the records handed to the listener are in the read_committed
 * output, once. Driven without timing: the listener itself asks for the stop and goes on only
 * once the stop is requested (the stopping thread waits for the loop's thread). Before the fix the
 * stop woke the consumer up, the commit's consumer calls threw a WakeupException, and the
 * transaction was aborted (the output lost, the records back to the group).
 */
@EmbeddedKafkaTest
class ContainerStopIT {

    @Test
    void aStopDuringAPollsTransactionCommitsIt(EmbeddedKafka kafka) throws Exception {
        String input = TestTopics.unique("boot-stop");
        String output = input + "-enriched";
        String group = TestTopics.unique("boot-stop-group");
        kafka.createTopic(input, 1);
        kafka.createTopic(output, 1);
        TransactionalShareListenerIT.produce(kafka, input, IntStream.range(0, 10).mapToObj(i -> "payment-" + i).toList());
        TransactionalShareListenerIT.prepareGroup(kafka, group);

        Map<String, Object> consumerProps = clientProperties(kafka);
        consumerProps.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        consumerProps.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        Map<String, Object> producerProps = clientProperties(kafka);
        producerProps.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        producerProps.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        DefaultKafkaProducerFactory<String, String> producers = new DefaultKafkaProducerFactory<>(producerProps);
        producers.setTransactionIdPrefix("tx-" + group + "-");
        KafkaTemplate<String, String> template = new KafkaTemplate<>(producers);
        TransactionalShareListenerContainer<String, String> container = new TransactionalShareListenerContainer<>(
                new GaplessShareConsumerFactory<>(consumerProps), template, List.of(input), group, "stopper", 1, Duration.ofSeconds(1), 3);

        List<String> handed = new CopyOnWriteArrayList<>();
        AtomicReference<Thread> stopper = new AtomicReference<>();
        container.setupMessageListener((MessageListener<String, String>) record -> {
            handed.add(record.value());
            template.send(output, record.key(), record.value() + " enriched");   // joins the poll's transaction
            if (stopper.get() == null) {
                Thread t = new Thread(container::stop, "stopper");
                stopper.set(t);
                t.start();
                // The stop is requested once the stopping thread waits for this one (Thread.join): a state, not a time.
                long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
                while (t.getState() != Thread.State.TIMED_WAITING && t.getState() != Thread.State.WAITING
                        && System.nanoTime() < deadline) {
                    LockSupport.parkNanos(1_000_000);
                }
            }
        });
        try {
            container.start();
            await("the listener asked for the stop").atMost(TransactionalShareListenerIT.WAIT).until(() -> stopper.get() != null);
            stopper.get().join(Duration.ofSeconds(60).toMillis());
            assertFalse(stopper.get().isAlive(), "the container stopped");
            assertFalse(container.isRunning());
            assertTrue(!handed.isEmpty());
            List<String> committed = new ArrayList<>(TransactionalShareListenerIT.committedValues(kafka, output));
            committed.sort(null);
            List<String> expected = handed.stream().map(v -> v + " enriched").sorted().toList();
            assertEquals(expected, committed, "the poll's transaction, stopped in the middle, committed: every handed record once");
        } finally {
            container.stop();
            producers.destroy();
        }
    }

    private static Map<String, Object> clientProperties(EmbeddedKafka kafka) {
        Map<String, Object> props = new HashMap<>();
        kafka.clientProperties().forEach((k, v) -> props.put((String) k, v));
        return props;
    }
}
