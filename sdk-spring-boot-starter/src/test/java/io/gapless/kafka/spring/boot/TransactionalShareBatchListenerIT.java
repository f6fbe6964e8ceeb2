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
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.core.KafkaTemplate;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The container-managed transactional share listener with a batch listener
 * ({@code @KafkaListener(batch = "true")}): one transaction per poll; a listener exception aborts
 * the whole poll's transaction (its sends included) and every record of that batch is delivered
 * again. Every input appears exactly once in the {@code read_committed} output and the group ends
 * fully acknowledged.
 */
@EmbeddedKafkaTest
class TransactionalShareBatchListenerIT {
    private static final int PAYMENTS = 120;
    private static final int FLAKY = 4;

    @Test
    void everyInputExactlyOnceAndAFailedBatchIsAbortedAndRedelivered(EmbeddedKafka kafka) throws Exception {
        String input = TestTopics.unique("boot-batch");
        String output = input + "-enriched";
        String group = TestTopics.unique("boot-batch-enricher");
        kafka.createTopic(input, 3);
        kafka.createTopic(output, 1);
        List<String> written = new ArrayList<>();
        IntStream.range(0, PAYMENTS).forEach(i -> written.add("payment-" + i));
        IntStream.range(0, FLAKY).forEach(i -> written.add("flaky-" + i));
        TransactionalShareListenerIT.produce(kafka, input, written);
        TransactionalShareListenerIT.prepareGroup(kafka, group);

        try (ConfigurableApplicationContext app = TransactionalShareListenerIT.start(BatchEnricher.class, kafka, input, output, group,
                "tx-" + group + "-")) {
            BatchEnricher enricher = app.getBean(BatchEnricher.class);
            List<String> expected = written.stream().map(v -> v + " enriched").sorted().toList();
            await("every payment in the read_committed output").atMost(TransactionalShareListenerIT.WAIT).pollInterval(Duration.ofMillis(500))
                    .until(() -> TransactionalShareListenerIT.committedValues(kafka, output).size() >= expected.size());
            await("the share group acknowledged every input record").atMost(TransactionalShareListenerIT.WAIT)
                    .pollInterval(Duration.ofMillis(500)).ignoreExceptions()
                    .until(() -> TransactionalShareListenerIT.fullyAcknowledged(kafka, group, input));
            List<String> committed = new ArrayList<>(TransactionalShareListenerIT.committedValues(kafka, output));
            committed.sort(null);
            assertEquals(expected, committed, "each input exactly once in the read_committed output");
            IntStream.range(0, FLAKY).forEach(i -> assertTrue(enricher.attempts("flaky-" + i) >= 2, "flaky-" + i + " was redelivered"));
            assertTrue(enricher.failedBatches.get() >= 1, "a batch failed");
            assertTrue(enricher.batches.get() < enricher.handed.get(), "records arrive in batches: " + enricher.batches + " polls for "
                    + enricher.handed + " records");
            // The failed batches' other records (their sends aborted with the batch) were handed again, and still appear once.
            enricher.inFailedBatches.forEach(v -> assertTrue(enricher.attempts(v) >= 2, v + " of an aborted batch was redelivered"));
        }
    }

    /** The application: a batch listener that sends every record; a batch holding a flaky record on its first delivery fails. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class BatchEnricher {
        private final Map<String, AtomicInteger> attempts = new ConcurrentHashMap<>();
        final AtomicInteger batches = new AtomicInteger();
        final AtomicInteger failedBatches = new AtomicInteger();
        final AtomicInteger handed = new AtomicInteger();
        final Set<String> inFailedBatches = ConcurrentHashMap.newKeySet();
        private final KafkaTemplate<String, String> template;
        private final String output;

        BatchEnricher(KafkaTemplate<String, String> template, org.springframework.core.env.Environment env) {
            this.template = template;
            this.output = env.getRequiredProperty("payments.output");
        }

        @KafkaListener(id = "batch-enricher", groupId = "${payments.group}", topics = "${payments.input}", batch = "true",
                containerFactory = "transactionalShareListenerContainerFactory")
        void enrich(List<ConsumerRecord<String, String>> payments) {
            batches.incrementAndGet();
            handed.addAndGet(payments.size());
            boolean fail = false;
            for (ConsumerRecord<String, String> payment : payments) {
                int attempt = attempts.computeIfAbsent(payment.value(), v -> new AtomicInteger()).incrementAndGet();
                template.send(output, payment.key(), payment.value() + " enriched");   // joins the poll's transaction
                fail |= payment.value().startsWith("flaky-") && attempt == 1;
            }
            if (fail) {
                failedBatches.incrementAndGet();
                payments.forEach(p -> inFailedBatches.add(p.value()));
                throw new IllegalStateException("cannot enrich this batch");
            }
        }

        int attempts(String value) {
            AtomicInteger n = attempts.get(value);
            return n == null ? 0 : n.get();
        }
    }
}
