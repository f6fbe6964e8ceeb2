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
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.TopicConfig;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/** Shared pieces of the GaplessConsumer broker tests. */
final class ConsumerITSupport {
    static final Duration WAIT = Duration.ofSeconds(45);

    private ConsumerITSupport() {
    }

    static Properties props(EmbeddedKafka kafka, String group, String protocol, String base, String newPolicy) {
        Properties p = TestClients.consumerProps(kafka, group, protocol);
        p.put("auto.offset.reset", base);
        if (newPolicy != null) {
            p.put("auto.offset.reset.new.partitions", newPolicy);
        }
        return p;
    }

    static Set<String> values(Collection<? extends ConsumerRecord<String, String>> records) {
        return records.stream().map(ConsumerRecord::value).collect(Collectors.toSet());
    }

    /** Polls until the consumer holds {@code partitions} partitions, all positioned. */
    static void awaitPositioned(Consumer<String, String> consumer, int partitions, List<ConsumerRecord<String, String>> sink) {
        sink.addAll(TestClients.pollUntil(consumer, WAIT, r -> {
            if (consumer.assignment().size() != partitions) {
                return false;
            }
            consumer.assignment().forEach(tp -> consumer.position(tp, WAIT));
            return true;
        }));
    }

    /**
     * Polls like a container with log-and-continue error handling (Spring Kafka's default): an
     * exception from {@code poll} is counted and polling goes on, until {@code done} or the deadline.
     */
    static List<ConsumerRecord<String, String>> pollThroughFailures(Consumer<String, String> consumer, Duration timeout,
                                                                    List<RuntimeException> failures,
                                                                    Predicate<List<ConsumerRecord<String, String>>> done) {
        List<ConsumerRecord<String, String>> received = new ArrayList<>();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!done.test(received)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("Condition not met within " + timeout + "; received " + received.size()
                        + " records; poll failures: " + failures.stream().map(Throwable::toString).distinct().toList());
            }
            try {
                consumer.poll(Duration.ofMillis(100)).forEach(received::add);
            } catch (RuntimeException e) {
                failures.add(e);
            }
        }
        return received;
    }

    /** Writes records with an explicit (producer) timestamp, as MirrorMaker 2 or a backfill does. */
    static List<String> produceAt(KafkaProducer<String, String> producer, String topic, int partition, long timestamp,
                                  String prefix, int count) {
        List<String> values = new ArrayList<>();
        List<Future<?>> acks = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            values.add(prefix + "-" + i);
            acks.add(producer.send(new ProducerRecord<>(topic, partition, timestamp, prefix, prefix + "-" + i)));
        }
        for (Future<?> ack : acks) {
            try {
                ack.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            } catch (ExecutionException e) {
                throw new IllegalStateException(e.getCause());
            }
        }
        return values;
    }

    /**
     * A baseline topic that accepts reads but no writes: compacted, with {@code max.message.bytes=1},
     * so every write fails ({@code RecordTooLargeException}) until {@link #makeWritable} lifts it.
     * ({@code min.insync.replicas} above the replication factor would not do: Kafka 4 caps it at the
     * replica count.)
     */
    static void createUnwritableBaselineTopic(EmbeddedKafka kafka, String topic) throws Exception {
        kafka.admin().createTopics(List.of(new NewTopic(topic, Optional.of(4), Optional.empty()).configs(Map.of(
                TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT,
                TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG, "LogAppendTime",
                TopicConfig.MAX_MESSAGE_BYTES_CONFIG, "1")))).all().get();
    }

    /** Makes a baseline topic from {@link #createUnwritableBaselineTopic} writable. */
    static void makeWritable(EmbeddedKafka kafka, String topic) throws Exception {
        org.apache.kafka.common.config.ConfigResource r = new org.apache.kafka.common.config.ConfigResource(
                org.apache.kafka.common.config.ConfigResource.Type.TOPIC, topic);
        kafka.admin().incrementalAlterConfigs(Map.of(r, List.of(new org.apache.kafka.clients.admin.AlterConfigOp(
                new org.apache.kafka.clients.admin.ConfigEntry(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, "1048588"),
                org.apache.kafka.clients.admin.AlterConfigOp.OpType.SET)))).all().get();
    }

    /**
     * Throttles the SDK's baseline producer (client id {@code <clientId>-baseline}) to one byte per
     * second: every baseline write then takes seconds, as on a slow or overloaded cluster.
     */
    static void throttleBaselineClients(EmbeddedKafka kafka, String clientId) throws Exception {
        org.apache.kafka.common.quota.ClientQuotaEntity entity = new org.apache.kafka.common.quota.ClientQuotaEntity(
                Map.of(org.apache.kafka.common.quota.ClientQuotaEntity.CLIENT_ID, clientId + "-baseline"));
        kafka.admin().alterClientQuotas(List.of(new org.apache.kafka.common.quota.ClientQuotaAlteration(entity, List.of(
                new org.apache.kafka.common.quota.ClientQuotaAlteration.Op("producer_byte_rate", 1.0))))).all().get();
    }

    /** The summed value of the SDK's {@code resets-total} metric for one classification. */
    static double resets(Consumer<?, ?> consumer, String classification) {
        return consumer.metrics().entrySet().stream()
                .filter(e -> e.getKey().name().equals("resets-total") && classification.equals(e.getKey().tags().get("classification")))
                .mapToDouble(e -> (Double) e.getValue().metricValue()).sum();
    }
}
