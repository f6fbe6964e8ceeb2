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
package io.gapless.kafka.e2e.sharereset;

import io.gapless.kafka.core.ResetPolicy;
import io.gapless.kafka.share.admin.ShareGroupSettings;
import io.gapless.kafka.testkit.TestTopics;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;

/**
 * Share-group scenarios around partitions the group meets after it started, measured against one
 * broker: a share group with {@code share.auto.offset.reset=latest}; a batch of records written
 * right after the change under test; then markers written to the measured partitions until one
 * arrives from each (a marker arrives only once the partition is served, so every batch record that
 * the group will ever deliver from it has been delivered by then).
 */
final class ShareResetScenarios implements AutoCloseable {
    static final int BATCH_PER_PARTITION = 100;

    private static final Logger log = LoggerFactory.getLogger(ShareResetScenarios.class);
    private static final Duration DEADLINE = Duration.ofSeconds(45);
    private static final long MARKER_INTERVAL_MS = 300;
    /** Record locks in these groups: short, so a record whose lock expired under load returns quickly. */
    private static final Duration LOCK = Duration.ofSeconds(5);
    private static final Duration QUIET_AFTER_MARKERS = LOCK.plusSeconds(1);

    private final String bootstrap;
    private final Admin admin;
    private final String brokerName;
    private final KafkaProducer<String, String> producer;

    ShareResetScenarios(String bootstrap, Admin admin, String brokerName) {
        this.bootstrap = bootstrap;
        this.admin = admin;
        this.brokerName = brokerName;
        this.producer = new KafkaProducer<>(Map.of("bootstrap.servers", bootstrap, "linger.ms", 0),
                new StringSerializer(), new StringSerializer());
    }

    /** What one scenario measured: delivered batch records per measured partition. */
    record Result(String scenario, Map<TopicPartition, Integer> delivered, Map<TopicPartition, Integer> duplicates) {
        int deliveredFrom(Collection<TopicPartition> partitions) {
            return partitions.stream().mapToInt(tp -> delivered.getOrDefault(tp, 0)).sum();
        }

        /** Delivered batch records from the measured partitions with these partition ids. */
        int deliveredFromPartitionIds(int... ids) {
            return delivered.entrySet().stream().filter(e -> java.util.Arrays.stream(ids).anyMatch(id -> id == e.getKey().partition()))
                    .mapToInt(Map.Entry::getValue).sum();
        }

        int totalDuplicates() {
            return duplicates.values().stream().mapToInt(Integer::intValue).sum();
        }
    }

    /** Topic grown 2 -> 4 while a member is live and consuming. */
    Result growWhileMemberIsLive(String ackMode) throws Exception {
        String topic = createTopic("grow-live", 2);
        String group = latestGroup("grow-live");
        try (Member consumer = consumer(group, ackMode)) {
            DeliveryTally tally = new DeliveryTally();
            consumer.consumer().subscribe(List.of(topic));
            warmUp(consumer, tally, partitions(topic, 0, 1));
            grow(topic, 4);
            produceBatch(partitions(topic, 0, 1, 2, 3));
            return measure("grow-live/" + ackMode, consumer, tally, partitions(topic, 0, 1, 2, 3), partitions(topic, 2, 3));
        }
    }

    /** Topic grown 2 -> 4 while the group (latest) has no member; a member joins afterwards. */
    Result growWhileGroupIsEmpty(String ackMode) throws Exception {
        return growWhileGroupIsEmpty(ackMode, ResetPolicy.LATEST);
    }

    /**
     * Topic grown 2 -> 4 while the group has no member; a member joins afterwards. The policy
     * changes after the warm-up, so the old partitions are initialized either way.
     */
    Result growWhileGroupIsEmpty(String ackMode, ResetPolicy policyForNewPartitions) throws Exception {
        String topic = createTopic("grow-empty", 2);
        String group = latestGroup("grow-empty");
        DeliveryTally tally = new DeliveryTally();
        try (Member consumer = consumer(group, ackMode)) {
            consumer.consumer().subscribe(List.of(topic));
            warmUp(consumer, tally, partitions(topic, 0, 1));
        }
        awaitEmpty(group);
        ShareGroupSettings.forGroup(admin, group).update().autoOffsetReset(policyForNewPartitions).apply();
        grow(topic, 4);
        produceBatch(partitions(topic, 0, 1, 2, 3));
        try (Member consumer = consumer(group, ackMode)) {
            consumer.consumer().subscribe(List.of(topic));
            return measure("grow-empty/" + ackMode + "/" + policyForNewPartitions, consumer, tally, partitions(topic, 0, 1, 2, 3), partitions(topic, 2, 3));
        }
    }

    /** A live member adds a topic to its subscription after records were written to it. */
    Result subscribeToTopicLater(String ackMode) throws Exception {
        String first = createTopic("later-first", 2);
        String later = createTopic("later-second", 2);
        String group = latestGroup("later");
        try (Member consumer = consumer(group, ackMode)) {
            DeliveryTally tally = new DeliveryTally();
            consumer.consumer().subscribe(List.of(first));
            warmUp(consumer, tally, partitions(first, 0, 1));
            produceBatch(partitions(later, 0, 1));
            consumer.consumer().subscribe(List.of(first, later));
            return measure("subscribe-later/" + ackMode, consumer, tally, partitions(later, 0, 1), partitions(later, 0, 1));
        }
    }

    /**
     * On an empty group: grow a known topic 2 -> 4 and write a batch to a topic the group never
     * subscribed to, then {@code alterShareGroupOffsets} the uninitialized partitions to 0 before a
     * member joins.
     */
    Result alterOffsetsOfUninitializedPartitions(String ackMode) throws Exception {
        String topic = createTopic("alter-grown", 2);
        String fresh = createTopic("alter-fresh", 2);
        String group = latestGroup("alter");
        DeliveryTally tally = new DeliveryTally();
        try (Member consumer = consumer(group, ackMode)) {
            consumer.consumer().subscribe(List.of(topic));
            warmUp(consumer, tally, partitions(topic, 0, 1));
        }
        awaitEmpty(group);
        grow(topic, 4);
        Set<TopicPartition> uninitialized = partitions(topic, 2, 3);
        uninitialized.addAll(partitions(fresh, 0, 1));
        produceBatch(uninitialized);
        Map<TopicPartition, Long> offsets = new HashMap<>();
        uninitialized.forEach(tp -> offsets.put(tp, 0L));
        admin.alterShareGroupOffsets(group, offsets).all().get(30, TimeUnit.SECONDS);
        try (Member consumer = consumer(group, ackMode)) {
            consumer.consumer().subscribe(List.of(topic, fresh));
            return measure("alter-offsets-empty-group/" + ackMode, consumer, tally, uninitialized, uninitialized);
        }
    }

    private Result measure(String scenario, Member consumer, DeliveryTally tally,
                           Set<TopicPartition> measured, Set<TopicPartition> markerPartitions) {
        long start = System.nanoTime();
        long[] lastMarker = {0};
        int[] markerSeq = {0};
        await(scenario + " markers on " + markerPartitions).atMost(DEADLINE).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(1))
                .until(() -> {
                    pollOnce(consumer, tally, Duration.ofMillis(200));
                    List<TopicPartition> missing = markerPartitions.stream().filter(tp -> !tally.markerDelivered(tp)).toList();
                    if (!missing.isEmpty() && System.currentTimeMillis() - lastMarker[0] >= MARKER_INTERVAL_MS) {
                        int seq = markerSeq[0]++;
                        missing.forEach(tp -> producer.send(new ProducerRecord<>(tp.topic(), tp.partition(), null, DeliveryTally.MARKER + "-" + seq)));
                        producer.flush();
                        lastMarker[0] = System.currentTimeMillis();
                    }
                    return missing.isEmpty();
                });
        // Records ahead of a marker usually come in the same or an earlier fetch, but a record whose
        // acquisition lock expired under load comes back later: poll on until every batch record of
        // the measured partitions arrived, or nothing new came for longer than a lock lasts.
        long quietSince = System.nanoTime();
        int seen = measured.stream().mapToInt(tally::batchDelivered).sum();
        while (seen < measured.size() * BATCH_PER_PARTITION && System.nanoTime() - quietSince < QUIET_AFTER_MARKERS.toNanos()) {
            pollOnce(consumer, tally, Duration.ofMillis(200));
            int now = measured.stream().mapToInt(tally::batchDelivered).sum();
            if (now != seen) {
                seen = now;
                quietSince = System.nanoTime();
            }
        }
        Map<TopicPartition, Integer> delivered = new HashMap<>();
        Map<TopicPartition, Integer> duplicates = new HashMap<>();
        measured.forEach(tp -> {
            delivered.put(tp, tally.batchDelivered(tp));
            duplicates.put(tp, tally.batchDuplicates(tp));
        });
        log.info("[{}] {}: delivered batch records per partition (of {} each) {}, duplicates {}, markers after {} ms",
                brokerName, scenario, BATCH_PER_PARTITION, tally.summary(measured), duplicates.values().stream().mapToInt(i -> i).sum(),
                (System.nanoTime() - start) / 1_000_000);
        return new Result(scenario, delivered, duplicates);
    }

    private void warmUp(Member consumer, DeliveryTally tally, Set<TopicPartition> partitions) {
        long[] last = {0};
        await("share group serving " + partitions).atMost(DEADLINE).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(1))
                .until(() -> {
                    pollOnce(consumer, tally, Duration.ofMillis(200));
                    List<TopicPartition> missing = partitions.stream().filter(tp -> !tally.warmDelivered(tp)).toList();
                    if (!missing.isEmpty() && System.currentTimeMillis() - last[0] >= MARKER_INTERVAL_MS) {
                        missing.forEach(tp -> producer.send(new ProducerRecord<>(tp.topic(), tp.partition(), null, DeliveryTally.WARM)));
                        producer.flush();
                        last[0] = System.currentTimeMillis();
                    }
                    return missing.isEmpty();
                });
    }

    private static void pollOnce(Member member, DeliveryTally tally, Duration timeout) {
        List<ConsumerRecord<String, String>> records = new ArrayList<>();
        member.consumer().poll(timeout).forEach(records::add);
        for (ConsumerRecord<String, String> r : records) {
            tally.record(r.topic(), r.partition(), r.value());
            if (member.explicit()) {
                member.consumer().acknowledge(r, AcknowledgeType.ACCEPT);
            }
        }
        if (!records.isEmpty() && member.explicit()) {
            member.consumer().commitSync(Duration.ofSeconds(10));
        }
    }

    /** A share consumer and its acknowledgement mode ({@code explicit} acknowledges every record). */
    private record Member(KafkaShareConsumer<String, String> consumer, boolean explicit) implements AutoCloseable {
        @Override
        public void close() {
            consumer.close(Duration.ofSeconds(10));
        }
    }

    private Member consumer(String group, String ackMode) {
        Map<String, Object> props = new HashMap<>();
        props.put("bootstrap.servers", bootstrap);
        props.put("group.id", group);
        props.put("share.acknowledgement.mode", ackMode);
        return new Member(new KafkaShareConsumer<>(props, new StringDeserializer(), new StringDeserializer()), "explicit".equals(ackMode));
    }

    private void produceBatch(Set<TopicPartition> partitions) {
        for (int i = 0; i < BATCH_PER_PARTITION; i++) {
            for (TopicPartition tp : partitions) {
                producer.send(new ProducerRecord<>(tp.topic(), tp.partition(), null, DeliveryTally.BATCH + "-" + i));
            }
        }
        producer.flush();
    }

    private String createTopic(String prefix, int partitions) throws Exception {
        String name = TestTopics.unique("share-reset-" + prefix);
        admin.createTopics(List.of(new NewTopic(name, Optional.of(partitions), Optional.empty()))).all().get(30, TimeUnit.SECONDS);
        awaitPartitions(name, partitions);
        return name;
    }

    private void grow(String topic, int partitions) throws Exception {
        admin.createPartitions(Map.of(topic, NewPartitions.increaseTo(partitions))).all().get(30, TimeUnit.SECONDS);
        awaitPartitions(topic, partitions);
    }

    private void awaitPartitions(String topic, int partitions) {
        await("partitions of " + topic + " with leaders").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20))
                .ignoreExceptions()
                .until(() -> admin.describeTopics(List.of(topic)).allTopicNames().get(5, TimeUnit.SECONDS).get(topic).partitions()
                        .stream().filter(p -> p.leader() != null && !p.leader().isEmpty()).count() == partitions);
    }

    private String latestGroup(String prefix) {
        String group = TestTopics.unique("share-reset-" + prefix);
        ShareGroupSettings.forGroup(admin, group).update().autoOffsetReset(ResetPolicy.LATEST).recordLockDuration(LOCK).apply();
        return group;
    }

    private void awaitEmpty(String group) {
        await("share group " + group + " without members").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                .ignoreExceptions()
                .until(() -> admin.describeShareGroups(List.of(group)).all().get(5, TimeUnit.SECONDS).get(group).members().isEmpty());
    }

    private static Set<TopicPartition> partitions(String topic, int... ids) {
        Set<TopicPartition> out = new LinkedHashSet<>();
        for (int id : ids) {
            out.add(new TopicPartition(topic, id));
        }
        return out;
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(5));
    }
}
