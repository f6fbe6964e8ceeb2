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

import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.EmbeddedKafkaTest;
import io.gapless.kafka.testkit.TestTopics;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.listener.MessageListenerContainer;

import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 27, meters without extra code: in a Boot application with the starter and Micrometer, the
 * share consumers of the transactional share listener and the producers its container creates
 * have their meters in Boot's {@link MeterRegistry} (Kafka's and the SDK's, tagged
 * {@code spring.id}), and stopping the container removes them.
 */
@EmbeddedKafkaTest
class StarterMetersIT {

    @Test
    void shareConsumersAndContainerProducersHaveTheirMetersInBootsRegistry(EmbeddedKafka kafka) throws Exception {
        String input = TestTopics.unique("boot-meters");
        String output = input + "-enriched";
        String group = TestTopics.unique("boot-meters-group");
        kafka.createTopic(input, 2);
        kafka.createTopic(output, 1);
        List<String> written = IntStream.range(0, 20).mapToObj(i -> "payment-" + i).toList();
        TransactionalShareListenerIT.produce(kafka, input, written);
        TransactionalShareListenerIT.prepareGroup(kafka, group);
        String txPrefix = "tx-" + group + "-";
        try (ConfigurableApplicationContext app = TransactionalShareListenerIT.start(kafka, input, output, group, txPrefix)) {
            await("every payment enriched").atMost(TransactionalShareListenerIT.WAIT)
                    .until(() -> TransactionalShareListenerIT.committedValues(kafka, output).size() >= written.size());
            MeterRegistry meters = app.getBean(MeterRegistry.class);
            // Share consumers: the SDK's own share metrics and Kafka's share-consumer metrics, one spring.id per consumer thread.
            Set<String> shareConsumers = ids(meters, name -> name.startsWith("kafka.gapless.share"));
            assertEquals(2, shareConsumers.size(), () -> "the SDK's share-consumer meters of both threads: " + names(meters));
            assertTrue(meters.getMeters().stream().anyMatch(m -> shareConsumers.contains(m.getId().getTag("spring.id"))
                    && m.getId().getName().startsWith("kafka.") && !m.getId().getName().contains("gapless")),
                    () -> "Kafka's own share-consumer meters: " + names(meters));
            // The container's producers: Boot's Micrometer producer listener, told by the container.
            Set<String> producers = ids(meters, name -> name.startsWith("kafka.producer."));
            assertTrue(producers.stream().anyMatch(id -> id.startsWith(txPrefix)),
                    () -> "the container's transactional producers' meters: " + producers + " in " + names(meters));

            MessageListenerContainer container = app.getBean(KafkaListenerEndpointRegistry.class).getListenerContainer("enricher");
            container.stop();
            assertEquals(Set.of(), ids(meters, name -> name.startsWith("kafka.gapless.share")), "closed share consumers' meters removed");
            assertTrue(ids(meters, name -> name.startsWith("kafka.producer.")).stream().noneMatch(id -> id.startsWith(txPrefix)),
                    "closed producers' meters removed");
        }
    }

    private static Set<String> ids(MeterRegistry meters, Predicate<String> name) {
        return meters.getMeters().stream().map(Meter::getId).filter(id -> name.test(id.getName()) && id.getTag("spring.id") != null)
                .map(id -> id.getTag("spring.id")).collect(Collectors.toSet());
    }

    private static List<String> names(MeterRegistry meters) {
        return meters.getMeters().stream().filter(m -> m.getId().getName().contains("gapless") || m.getId().getName().contains("share"))
                .map(m -> m.getId().getName() + "[" + m.getId().getTag("spring.id") + "]").distinct().sorted().toList();
    }
}
