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
package io.gapless.kafka.core;

import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.TestClients;
import io.gapless.kafka.testkit.TestTopics;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.TopicPartition;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static io.gapless.kafka.core.ConsumerITSupport.props;
import static io.gapless.kafka.core.ConsumerITSupport.values;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The first poll of a new group (issue 13): the SDK's offset look-up for the partitions of the
 * first assignment is not queued behind the consumer's own report that they have no committed
 * offset. It starts in the rebalance callback, overlapping the consumer's OffsetFetch, so that
 * nothing is asked of the broker between that report and the partitions being positioned, and
 * the positions are still those of the base policy (the partitions existed when the group
 * started): nothing before the subscription is replayed, nothing after it is lost.
 *
 * <p>Deterministic: the user's callback (which runs after the SDK's) waits, with a deadline, for
 * the embedded broker to have answered a ListOffsets, counted by its own request metrics. The
 * broker is this class's own: a broker closed earlier in the same JVM unregisters those metrics
 * (they are JVM-wide), so the suite's shared broker would count nothing.
 */
class GaplessConsumerFirstPollIT {
    private static EmbeddedKafka kafka;

    @BeforeAll
    static void start() {
        kafka = EmbeddedKafka.forTests();
    }

    @AfterAll
    static void stop() {
        kafka.close();
    }

    @ParameterizedTest(name = "group.protocol={0}")
    @ValueSource(strings = {"classic", "consumer"})
    void theOffsetLookUpOfANewGroupStartsAtTheAssignmentNotAfterTheConsumersReport(String protocol) throws Exception {
        String topic = TestTopics.unique("first-poll");
        kafka.createTopic(topic, 2);
        try (KafkaProducer<String, String> producer = TestClients.producer(kafka);
             GaplessConsumer<String, String> consumer = new GaplessConsumer<>(props(kafka, TestTopics.unique("g"), protocol, "latest",
                     "earliest"))) {
            List<String> before = new ArrayList<>();
            before.addAll(TestClients.produce(producer, topic, 0, "before-0-", 5));
            before.addAll(TestClients.produce(producer, topic, 1, "before-1-", 5));
            assumeTrue(requestMetricsHere(), "the broker's request metrics are in this JVM only for the embedded backend");
            long atSubscribe = listOffsetsAnswered();
            AtomicLong duringCallback = new AtomicLong(-1);
            consumer.subscribe(List.of(topic), new ConsumerRebalanceListener() {
                @Override
                public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                    if (partitions.isEmpty() || duringCallback.get() >= 0) {
                        return;
                    }
                    try {
                        await().atMost(Duration.ofSeconds(20)).until(() -> listOffsetsAnswered() > atSubscribe);
                    } catch (ConditionTimeoutException e) {
                        // reported below, outside the consumer's callback
                    }
                    duringCallback.set(listOffsetsAnswered());
                }

                @Override
                public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                }
            });
            List<ConsumerRecord<String, String>> got = new ArrayList<>();
            ConsumerITSupport.awaitPositioned(consumer, 2, got);
            long positioned = listOffsetsAnswered();
            assertTrue(duringCallback.get() > atSubscribe, "the SDK looked up the offsets of the new group's partitions only after the"
                    + " consumer reported them without committed offsets: no ListOffsets answered during the assignment callback ("
                    + (duringCallback.get() - atSubscribe) + " since subscribe)");
            assertEquals(duringCallback.get(), positioned, "requests to position the partitions after the consumer's report: "
                    + (positioned - duringCallback.get()) + " ListOffsets (the look-up started at the assignment serves it)");
            assertEquals(2.0, ConsumerITSupport.resets(consumer, "pre-existing"), "both partitions existed when the group started: base policy");
            List<String> after = new ArrayList<>();
            after.addAll(TestClients.produce(producer, topic, 0, "after-0-", 5));
            after.addAll(TestClients.produce(producer, topic, 1, "after-1-", 5));
            got.addAll(TestClients.pollUntil(consumer, ConsumerITSupport.WAIT, r -> values(r).containsAll(after)));
            assertEquals(after.size(), got.size(), "the records produced after positioning, once each, and none of before: " + values(got));
            assertTrue(values(got).containsAll(after));
            assertTrue(values(got).stream().noneMatch(before::contains), "no history replayed");
        }
    }

    private static boolean requestMetricsHere() throws JMException {
        return !ManagementFactory.getPlatformMBeanServer().queryNames(new ObjectName("kafka.network:type=RequestMetrics,name=RequestsPerSec,*"),
                null).isEmpty();
    }

    /** ListOffsets requests the in-JVM broker has answered, every version summed. */
    private static long listOffsetsAnswered() {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        long sum = 0;
        try {
            for (ObjectName name : server.queryNames(new ObjectName("kafka.network:type=RequestMetrics,name=RequestsPerSec,request=ListOffsets,*"),
                    null)) {
                sum += ((Number) server.getAttribute(name, "Count")).longValue();
            }
        } catch (JMException e) {
            throw new IllegalStateException("the embedded broker's request metrics", e);
        }
        return sum;
    }
}
