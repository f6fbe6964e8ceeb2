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
package io.gapless.kafka.spring;

import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.EmbeddedKafkaTest;
import io.gapless.kafka.testkit.TestClients;
import io.gapless.kafka.testkit.TestTopics;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code KafkaTemplate.receive} reads a record at an offset the caller names: each call creates a
 * consumer from the template's consumer factory, assigns, seeks and polls once. With the Gapless
 * factory that consumer is a GaplessConsumer of the factory's group, whose start records the
 * group's baseline; with Spring's own factory nothing but the read happens. Both read the same.
 */
@EmbeddedKafkaTest
class KafkaTemplateReceiveIT {

    @Test
    void receiveReadsTheSameRecordWithEitherFactoryTheGaplessOneAlsoStartsTheGroupsBaseline(EmbeddedKafka kafka) throws Exception {
        String topic = TestTopics.unique("template-receive");
        kafka.createTopic(topic, 1);
        try (KafkaProducer<String, String> producer = TestClients.producer(kafka)) {
            TestClients.produce(producer, topic, 0, "r", 3);
        }
        Map<String, Object> producerProps = Map.of("bootstrap.servers", kafka.bootstrapServers(),
                "key.serializer", StringSerializer.class, "value.serializer", StringSerializer.class);

        String plainGroup = TestTopics.unique("template-plain");
        Map<String, Object> plainProps = GaplessListenerContainerIT.plainProps(kafka, "classic");
        plainProps.put("group.id", plainGroup);
        KafkaTemplate<String, String> plain = new KafkaTemplate<>(new DefaultKafkaProducerFactory<>(producerProps));
        plain.setConsumerFactory(new DefaultKafkaConsumerFactory<>(plainProps));

        String gaplessGroup = TestTopics.unique("template-gapless");
        Map<String, Object> gaplessProps = GaplessListenerContainerIT.gaplessProps(kafka, "classic");
        gaplessProps.put("group.id", gaplessGroup);
        KafkaTemplate<String, String> gapless = new KafkaTemplate<>(new DefaultKafkaProducerFactory<>(producerProps));
        gapless.setConsumerFactory(new GaplessKafkaConsumerFactory<>(gaplessProps));

        long start = System.nanoTime();
        ConsumerRecord<String, String> fromPlain = plain.receive(topic, 0, 1, Duration.ofSeconds(30));
        long plainMs = (System.nanoTime() - start) / 1_000_000;
        start = System.nanoTime();
        ConsumerRecord<String, String> fromGapless = gapless.receive(topic, 0, 1, Duration.ofSeconds(30));
        long gaplessMs = (System.nanoTime() - start) / 1_000_000;
        System.out.printf("KafkaTemplate.receive: Spring's factory %d ms, Gapless factory %d ms%n", plainMs, gaplessMs);

        assertEquals(fromPlain.value(), fromGapless.value());
        assertEquals(1, fromGapless.offset());
        Set<String> topics = kafka.admin().listTopics().names().get(30, TimeUnit.SECONDS);
        assertFalse(topics.contains("__gapless_baseline." + plainGroup), "Spring's factory: the read and nothing else");
        assertTrue(topics.contains("__gapless_baseline." + gaplessGroup),
                "the Gapless factory's consumer started the group's baseline (documented: give the template Spring's factory)");
        assertTrue(kafka.admin().listConsumerGroupOffsets(gaplessGroup).partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS).isEmpty(),
                "neither commits");
    }
}
