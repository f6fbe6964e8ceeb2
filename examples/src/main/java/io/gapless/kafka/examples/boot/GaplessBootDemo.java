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
package io.gapless.kafka.examples.boot;

import io.gapless.kafka.core.ResetPolicy;
import io.gapless.kafka.examples.share.ShareDemoCluster;
import io.gapless.kafka.share.admin.ShareGroupSettings;
import io.gapless.kafka.spring.boot.GaplessHealthIndicator;
import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.TestClients;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.kafka.core.ConsumerFactory;

import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;

import static org.awaitility.Awaitility.await;

/**
 * The Spring Boot starter on a Kafka 4.4 broker started inside this JVM: a Boot application
 * ({@link PaymentsApplication}) configured by properties only. Prints the consumer factory Boot
 * got, the orders read from partitions added while the application ran, the transactional share
 * listener's {@code read_committed} output (a poison payment rejected after three attempts) and
 * the {@code gapless} health.
 *
 * <p>Run: {@code mvn -B -q -pl examples -am package -DskipTests exec:java
 * -Ddemo.mainClass=io.gapless.kafka.examples.boot.GaplessBootDemo}
 */
public final class GaplessBootDemo {
    private static final int PAYMENTS = 20;
    private static final Duration WAIT = Duration.ofSeconds(90);

    private GaplessBootDemo() {
    }

    public static void main(String[] args) throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
            System.out.println("Embedded Kafka 4.4 broker at " + kafka.bootstrapServers());
            run(kafka, System.out);
        }
    }

    /**
     * The demo on {@code kafka} (its topics and groups must not exist yet), printing to {@code out}.
     *
     * @param kafka the broker
     * @param out   where the demo prints what it saw
     * @throws Exception if the broker or the application fails
     */
    public static void run(EmbeddedKafka kafka, PrintStream out) throws Exception {
        kafka.createTopic(PaymentsApplication.ORDERS, 2);
        kafka.createTopic(PaymentsApplication.PAYMENTS, 1);
        kafka.createTopic(PaymentsApplication.ENRICHED, 1);
        ShareGroupSettings.forGroup(kafka.admin(), PaymentsApplication.ENRICHER_GROUP).update()
                .autoOffsetReset(ResetPolicy.EARLIEST).apply();
        try (KafkaProducer<String, String> producer = TestClients.producer(kafka)) {
            for (int i = 0; i < PAYMENTS; i++) {
                producer.send(new ProducerRecord<>(PaymentsApplication.PAYMENTS, "payment-" + i, "payment-" + i));
            }
            producer.send(new ProducerRecord<>(PaymentsApplication.PAYMENTS, "poison", "poison-payment")).get();
            try (ConfigurableApplicationContext app = new SpringApplicationBuilder(PaymentsApplication.class)
                    .web(WebApplicationType.NONE)
                    .properties("spring.config.name=gapless-boot-demo", "spring.kafka.bootstrap-servers=" + kafka.bootstrapServers(),
                            "spring.kafka.consumer.properties.metadata.max.age.ms=1000")
                    .run()) {
                PaymentsApplication orders = app.getBean(PaymentsApplication.class);
                out.println("Boot's consumer factory: " + app.getBean(ConsumerFactory.class).getClass().getName());
                sendUntilSeen(producer, orders, "first", 2);
                out.println("Orders topic grows 2 -> 4 partitions while the application runs");
                kafka.addPartitions(PaymentsApplication.ORDERS, 4);
                for (int p = 2; p < 4; p++) {
                    producer.send(new ProducerRecord<>(PaymentsApplication.ORDERS, p, "order", "on-added-partition-" + p)).get();
                }
                waitFor("the orders written to the added partitions", () -> orders.orders().containsAll(
                        List.of("on-added-partition-2", "on-added-partition-3")));
                out.println("Orders written to the added partitions before the group met them, received: "
                        + orders.orders().stream().filter(v -> v.startsWith("on-added")).sorted().toList());

                waitFor("every good payment enriched", () -> ShareDemoCluster.committedValues(kafka, PaymentsApplication.ENRICHED).size() >= PAYMENTS);
                waitFor("the share group acknowledged every payment (the poison one rejected)",
                        () -> ShareDemoCluster.fullyAcknowledged(kafka, PaymentsApplication.ENRICHER_GROUP, PaymentsApplication.PAYMENTS));
                List<String> enriched = ShareDemoCluster.committedValues(kafka, PaymentsApplication.ENRICHED);
                out.printf("payments: %d good + 1 poison; read_committed enriched output: %d records, %d distinct; poison output: %d%n",
                        PAYMENTS, enriched.size(), enriched.stream().distinct().count(),
                        enriched.stream().filter(v -> v.contains("poison")).count());
                out.println("gapless health: " + app.getBean(GaplessHealthIndicator.class).health(true));
            }
        }
    }

    /** Writes one order per partition until the listener has each: the group then serves every partition. */
    private static void sendUntilSeen(KafkaProducer<String, String> producer, PaymentsApplication app, String phase, int partitions) {
        int[] seq = {0};
        waitFor("orders served from " + partitions + " partitions", () -> {
            boolean all = true;
            for (int p = 0; p < partitions; p++) {
                String prefix = phase + "-" + p + "-";
                if (app.orders().stream().noneMatch(v -> v.startsWith(prefix))) {
                    all = false;
                    producer.send(new ProducerRecord<>(PaymentsApplication.ORDERS, p, "order", prefix + seq[0]++));
                }
            }
            return all;
        });
    }

    private static void waitFor(String what, Callable<Boolean> condition) {
        await(what).atMost(WAIT).pollInterval(Duration.ofMillis(300)).ignoreExceptions().until(condition);
    }
}
