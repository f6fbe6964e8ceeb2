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
import io.gapless.kafka.examples.spring.DemoConfiguration;
import io.gapless.kafka.examples.spring.OrderListeners;
import io.gapless.kafka.examples.spring.PaymentEnricher;
import io.gapless.kafka.examples.share.ShareDemoCluster;
import io.gapless.kafka.examples.spring.SpringDemoResult;
import io.gapless.kafka.share.admin.ShareGroupSettings;
import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.TestClients;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.awaitility.Awaitility;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.listener.MessageListenerContainer;

import java.io.PrintStream;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

/**
 * A Spring Kafka application (plain Spring, {@code @EnableKafka} and {@code @KafkaListener}) on a
 * Kafka 4.4 broker started inside this JVM:
 * <ol>
 *   <li>the same {@code @KafkaListener} on Spring's own consumer factory and on the Gapless factory
 *       ({@link DemoConfiguration}), while the orders topic grows from 2 to 4 partitions with the
 *       containers running and from 4 to 6 with them stopped; prints records produced, seen and
 *       lost per partition;</li>
 *   <li>a share-group listener that enriches payments in producer transactions carrying the
 *       payments' acknowledgements (KIP-1289, {@code PaymentEnricher}); prints the
 *       {@code read_committed} output counts.</li>
 * </ol>
 *
 * <p>Run: {@code mvn -B -q -pl examples -am package -DskipTests exec:java
 * -Ddemo.mainClass=io.gapless.kafka.examples.SpringKafkaDemo}
 */
public final class SpringKafkaDemo {
    private static final int PER_PARTITION = 50;
    private static final int PAYMENTS = 12;
    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final PrintStream OUT = System.out;

    private SpringKafkaDemo() {
    }

    public static void main(String[] args) throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
            OUT.println("Embedded Kafka 4.4 broker at " + kafka.bootstrapServers());
            run(kafka).print(OUT);
        }
    }

    /** Runs the demo against {@code kafka} and returns what it measured. */
    public static SpringDemoResult run(EmbeddedKafka kafka) throws Exception {
        kafka.createTopic(OrderListeners.TOPIC, 2);
        kafka.createTopic(PaymentEnricher.INPUT, 1);
        kafka.createTopic(PaymentEnricher.OUTPUT, 1);
        ShareGroupSettings.forGroup(kafka.admin(), PaymentEnricher.GROUP).update().autoOffsetReset(ResetPolicy.EARLIEST).apply();
        Map<Integer, Set<String>> written = new HashMap<>();
        try (KafkaProducer<String, String> producer = TestClients.producer(kafka)) {
            write(producer, written, "history", 2);     // before the groups exist: neither listener should see it
            for (int i = 0; i < PAYMENTS; i++) {
                producer.send(new ProducerRecord<>(PaymentEnricher.INPUT, "payment-" + i, "payment-" + i)).get();
            }
            try (AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext()) {
                context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("demo",
                        Map.of("demo.bootstrap-servers", kafka.bootstrapServers())));
                context.register(DemoConfiguration.class);
                context.refresh();
                OrderListeners listeners = context.getBean(OrderListeners.class);
                KafkaListenerEndpointRegistry registry = context.getBean(KafkaListenerEndpointRegistry.class);
                List<MessageListenerContainer> orderContainers = List.of(registry.getListenerContainer(OrderListeners.PLAIN),
                        registry.getListenerContainer(OrderListeners.GAPLESS));

                awaitCommitted(kafka, "orders-plain");
                awaitCommitted(kafka, "orders-gapless");
                write(producer, written, "live", 2);
                OUT.println("Orders topic grows 2 -> 4 partitions while both containers run");
                kafka.addPartitions(OrderListeners.TOPIC, 4);
                write(producer, written, "grown-running", 4);
                awaitServed(producer, written, listeners, "marker-a", 4);

                OUT.println("Both containers stop; the topic grows 4 -> 6 partitions; they start again");
                orderContainers.forEach(MessageListenerContainer::stop);
                kafka.addPartitions(OrderListeners.TOPIC, 6);
                write(producer, written, "grown-stopped", 6);
                orderContainers.forEach(MessageListenerContainer::start);
                awaitServed(producer, written, listeners, "marker-b", 6);
                await("the Gapless listener has every order", () -> listeners.seen(OrderListeners.GAPLESS).containsAll(afterStart(written)));

                await("every payment enriched and acknowledged", () -> acknowledged(kafka) && enrichedPayments(kafka).size() >= PAYMENTS);
                List<String> enriched = enrichedPayments(kafka);
                return new SpringDemoResult(written, listeners.seen(OrderListeners.PLAIN), listeners.duplicates(OrderListeners.PLAIN).get(),
                        listeners.seen(OrderListeners.GAPLESS), listeners.duplicates(OrderListeners.GAPLESS).get(),
                        PAYMENTS, enriched, acknowledged(kafka));
            }
        }
    }

    private static void write(KafkaProducer<String, String> producer, Map<Integer, Set<String>> written, String phase, int partitions) {
        for (int p = 0; p < partitions; p++) {
            int partition = p;
            TestClients.produce(producer, OrderListeners.TOPIC, p, phase + "-" + p, PER_PARTITION)
                    .forEach(v -> written.computeIfAbsent(partition, k -> new HashSet<>()).add(v));
        }
    }

    private static Set<String> afterStart(Map<Integer, Set<String>> written) {
        Set<String> out = new HashSet<>();
        written.values().forEach(values -> values.stream().filter(v -> !v.startsWith("history")).forEach(out::add));
        return out;
    }

    /** Writes a marker to each partition until both listeners have one from each: then they are served from every partition. */
    private static void awaitServed(KafkaProducer<String, String> producer, Map<Integer, Set<String>> written, OrderListeners listeners,
                                    String marker, int partitions) {
        int[] seq = {0};
        await("both listeners served from " + partitions + " partitions", () -> {
            boolean all = true;
            for (int p = 0; p < partitions; p++) {
                String prefix = marker + "-" + p + "-";
                boolean plain = listeners.seen(OrderListeners.PLAIN).stream().anyMatch(v -> v.startsWith(prefix));
                boolean gapless = listeners.seen(OrderListeners.GAPLESS).stream().anyMatch(v -> v.startsWith(prefix));
                if (!plain || !gapless) {
                    all = false;
                    String value = prefix + seq[0]++;
                    producer.send(new ProducerRecord<>(OrderListeners.TOPIC, p, "marker", value));
                    written.computeIfAbsent(p, k -> new HashSet<>()).add(value);
                }
            }
            producer.flush();
            return all;
        });
    }

    /** Spring commits the position of unpositioned partitions on assignment ({@code latest}): from then on the group reads what comes. */
    private static void awaitCommitted(EmbeddedKafka kafka, String group) {
        await(group + " positioned", () -> {
            var offsets = kafka.admin().listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get(10, TimeUnit.SECONDS);
            return IntStream.range(0, 2).allMatch(p -> offsets.get(new TopicPartition(OrderListeners.TOPIC, p)) != null);
        });
    }

    private static boolean acknowledged(EmbeddedKafka kafka) throws Exception {
        return ShareDemoCluster.fullyAcknowledged(kafka, PaymentEnricher.GROUP, PaymentEnricher.INPUT);
    }

    private static List<String> enrichedPayments(EmbeddedKafka kafka) {
        return ShareDemoCluster.committedValues(kafka, PaymentEnricher.OUTPUT);
    }

    private static void await(String what, Callable<Boolean> condition) {
        Awaitility.await(what).atMost(WAIT).pollInterval(Duration.ofMillis(300)).ignoreExceptions().until(condition);
    }
}
