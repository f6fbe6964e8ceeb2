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
package io.gapless.kafka.examples;

import io.gapless.kafka.core.ResetPolicy;
import io.gapless.kafka.examples.share.ShareDemoCluster;
import io.gapless.kafka.examples.spring.Enrichment;
import io.gapless.kafka.examples.spring.PaymentsConfiguration;
import io.gapless.kafka.examples.spring.TransactionalProducers;
import io.gapless.kafka.share.admin.ShareGroupSettings;
import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.EmbeddedKafkaTest;
import io.gapless.kafka.testkit.TestClients;
import io.gapless.kafka.testkit.TestTopics;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.core.env.MapPropertySource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Spring transactional share example as an application runs it: several instances (pods) in
 * one share group, and a business step that fails.
 */
@EmbeddedKafkaTest
class PaymentEnricherIT {
    private static final Duration WAIT = Duration.ofSeconds(90);
    private final EmbeddedKafka kafka;

    PaymentEnricherIT(EmbeddedKafka kafka) {
        this.kafka = kafka;
    }

    /** Names of one run: every instance of the application gets the same ones, as pods of one deployment do. */
    private record App(String input, String output, String group, String listenerId) {
        static App unique(EmbeddedKafka kafka) {
            App app = new App(TestTopics.unique("pay-in"), TestTopics.unique("pay-out"), TestTopics.unique("pay-g"),
                    TestTopics.unique("enricher"));
            kafka.createTopic(app.input, 1);
            kafka.createTopic(app.output, 1);
            ShareGroupSettings.forGroup(kafka.admin(), app.group).update().autoOffsetReset(ResetPolicy.EARLIEST).apply();
            return app;
        }

        AnnotationConfigApplicationContext start(EmbeddedKafka kafka, int concurrency, Enrichment enrichment) {
            AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();
            Map<String, Object> settings = new HashMap<>();
            settings.put("demo.bootstrap-servers", kafka.bootstrapServers());
            settings.put("payments.input", input);
            settings.put("payments.output", output);
            settings.put("payments.group", group);
            settings.put("payments.listener-id", listenerId);
            settings.put("payments.concurrency", Integer.toString(concurrency));
            context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("app", settings));
            if (enrichment != null) {
                context.registerBean(Enrichment.class, () -> enrichment);
            }
            context.register(PaymentsConfiguration.class);
            context.refresh();
            return context;
        }

        /** One record per batch: a share consumer acquires whole batches, so a single batch would go to one consumer. */
        List<String> produce(EmbeddedKafka kafka, int count) throws Exception {
            List<String> values = new ArrayList<>();
            try (KafkaProducer<String, String> producer = TestClients.producer(kafka)) {
                for (int i = 0; i < count; i++) {
                    String v = "payment-" + i;
                    producer.send(new ProducerRecord<>(input, 0, v, v)).get();
                    values.add(v);
                }
            }
            return values;
        }

        void awaitMembers(EmbeddedKafka kafka, int members) {
            Awaitility.await(members + " members in " + group).atMost(WAIT).pollInterval(Duration.ofMillis(200)).ignoreExceptions()
                    .until(() -> kafka.admin().describeShareGroups(List.of(group)).describedGroups().get(group)
                            .get(10, TimeUnit.SECONDS).members().size() == members);
        }

        void awaitEnriched(EmbeddedKafka kafka, List<String> payments) {
            Awaitility.await("every payment enriched and acknowledged").atMost(WAIT).pollInterval(Duration.ofMillis(300)).ignoreExceptions()
                    .until(() -> new HashSet<>(ShareDemoCluster.committedValues(kafka, output)).size() >= payments.size()
                            && ShareDemoCluster.fullyAcknowledged(kafka, group, input));
            List<String> enriched = ShareDemoCluster.committedValues(kafka, output);
            assertEquals(payments.size(), enriched.size(), "each payment enriched exactly once: " + enriched);
            assertEquals(new HashSet<>(payments.stream().map(p -> p + " enriched").toList()), new HashSet<>(enriched));
        }
    }

    /** A slow business step, so that every consumer of both instances gets records and opens transactions. */
    private static final Enrichment SLOW = payment -> {
        try {
            Thread.sleep(20);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return Enrichment.STANDARD.enrich(payment);
    };

    @Test
    void twoInstancesOfTheApplicationNeverShareATransactionalIdAndEnrichEveryPaymentOnce() throws Exception {
        App app = App.unique(kafka);
        try (AnnotationConfigApplicationContext a = app.start(kafka, 2, SLOW);
             AnnotationConfigApplicationContext b = app.start(kafka, 2, SLOW)) {
            app.awaitMembers(kafka, 4);
            List<String> payments = app.produce(kafka, 100);
            app.awaitEnriched(kafka, payments);
            Set<String> idsOfA = a.getBean(TransactionalProducers.class).transactionalIds();
            Set<String> idsOfB = b.getBean(TransactionalProducers.class).transactionalIds();
            assertFalse(idsOfA.isEmpty() || idsOfB.isEmpty(), "both instances took part: " + idsOfA + " / " + idsOfB);
            Set<String> shared = new HashSet<>(idsOfA);
            shared.retainAll(idsOfB);
            assertTrue(shared.isEmpty(), "two instances of one application must not share a transactional.id (they fence each other): "
                    + shared + " in both " + idsOfA + " and " + idsOfB);
        }
    }

    @Test
    void aBusinessExceptionAbortsTheTransactionTheRecordComesBackAndTheContainerGoesOn() throws Exception {
        App app = App.unique(kafka);
        List<String> payments = app.produce(kafka, 10);
        String failing = payments.get(3);
        Map<String, AtomicInteger> attempts = new ConcurrentHashMap<>();
        Enrichment failsOnce = payment -> {
            if (attempts.computeIfAbsent(payment, k -> new AtomicInteger()).incrementAndGet() == 1 && payment.equals(failing)) {
                throw new IllegalArgumentException("payment service rejected " + payment + " (first attempt)");
            }
            return Enrichment.STANDARD.enrich(payment);
        };
        try (AnnotationConfigApplicationContext context = app.start(kafka, 1, failsOnce)) {
            app.awaitEnriched(kafka, payments);
            assertEquals(2, attempts.get(failing).get(), "the failed payment was delivered again: " + attempts);
            assertTrue(payments.subList(4, payments.size()).stream().allMatch(attempts::containsKey),
                    "the one consumer thread went on with the later payments: " + attempts);
        }
    }
}
