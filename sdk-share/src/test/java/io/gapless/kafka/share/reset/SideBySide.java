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
package io.gapless.kafka.share.reset;

import io.gapless.kafka.share.GaplessShareConsumer;
import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.TestClients;
import io.gapless.kafka.testkit.TestTopics;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.consumer.ShareConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringDeserializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A plain {@link KafkaShareConsumer} and a {@link GaplessShareConsumer}, each in a share group of
 * its own, driven by the same steps and compared (records delivered, records never delivered,
 * poll failures): the issue 28 broker tests.
 */
final class SideBySide implements AutoCloseable {
    static final Duration WAIT = Duration.ofSeconds(60);

    private final EmbeddedKafka kafka;
    private final List<Member> members = new ArrayList<>();
    private KafkaProducer<String, String> producer;

    SideBySide(EmbeddedKafka kafka) {
        this.kafka = kafka;
    }

    Pair pair(String mode, String base, String newPolicy, String topic) throws Exception {
        return new Pair(mode, base, newPolicy, topic);
    }

    Pair pair(String mode, String base, String newPolicy, String topic, Map<String, Object> sdkExtra) throws Exception {
        return new Pair(mode, base, newPolicy, topic, sdkExtra);
    }

    Pair pair(String mode, String base, String newPolicy, String topic, Map<String, Object> sdkExtra, Map<String, String> groupConfigs)
            throws Exception {
        return new Pair(mode, base, newPolicy, topic, sdkExtra, groupConfigs, Map.of());
    }

    /** As above, with {@code clientExtra} in both members' configs (the same Kafka settings on both sides). */
    Pair pair(String mode, String base, String newPolicy, String topic, Map<String, Object> sdkExtra, Map<String, String> groupConfigs,
              Map<String, Object> clientExtra) throws Exception {
        return new Pair(mode, base, newPolicy, topic, sdkExtra, groupConfigs, clientExtra);
    }

    /** How many members {@code group} has now (0 when Kafka does not know it). */
    int members(String group) throws Exception {
        try {
            return kafka.admin().describeShareGroups(List.of(group)).describedGroups().get(group).get(30, TimeUnit.SECONDS).members().size();
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof org.apache.kafka.common.errors.GroupIdNotFoundException) {
                return 0;
            }
            throw e;
        }
    }

    @Override
    public void close() {
        members.forEach(Member::closeQuietly);
        if (producer != null) {
            producer.close();
        }
    }

    Set<String> produce(String topic, int partition, String prefix, int count) {
        if (producer == null) {
            producer = TestClients.producer(kafka);
        }
        return new LinkedHashSet<>(TestClients.produce(producer, topic, partition, prefix, count));
    }

    private void setGroupReset(String group, String policy) throws Exception {
        setGroupConfig(group, "share.auto.offset.reset", policy);
    }

    /** Grows {@code topic} from 2 to 4 partitions and writes 20 records to partition 0 and 50 to each added one. */
    Set<String> growAndWrite(String topic) {
        kafka.addPartitions(topic, 4);
        Set<String> written = produce(topic, 0, "old-partition", 20);
        written.addAll(produce(topic, 2, "added2", 50));
        written.addAll(produce(topic, 3, "added3", 50));
        return written;
    }

    void setGroupConfig(String group, String key, String value) throws Exception {
        kafka.admin().incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.GROUP, group),
                List.of(new AlterConfigOp(new ConfigEntry(key, value), AlterConfigOp.OpType.SET))))
                .all().get(30, TimeUnit.SECONDS);
    }

    /** A plain member and an SDK member, each of its own group, driven by the same steps. */
    final class Pair {
        final String mode;
        final String topic;
        final String plainGroup;
        final String sdkGroup;
        Member plain;
        Member sdk;
        private int probes;

        private final Map<String, Object> sdkExtra;
        private final Map<String, Object> clientExtra;

        Pair(String mode, String base, String newPolicy, String topic) throws Exception {
            this(mode, base, newPolicy, topic, Map.of());
        }

        Pair(String mode, String base, String newPolicy, String topic, Map<String, Object> sdkExtra) throws Exception {
            this(mode, base, newPolicy, topic, sdkExtra, Map.of(), Map.of());
        }

        Pair(String mode, String base, String newPolicy, String topic, Map<String, Object> sdkExtra, Map<String, String> groupConfigs,
             Map<String, Object> clientExtra) throws Exception {
            this.mode = mode;
            this.sdkExtra = sdkExtra;
            this.clientExtra = clientExtra;
            this.topic = topic;
            this.plainGroup = TestTopics.unique("plain");
            this.sdkGroup = TestTopics.unique("sdk");
            for (String group : List.of(plainGroup, sdkGroup)) {
                for (Map.Entry<String, String> c : groupConfigs.entrySet()) {
                    setGroupConfig(group, c.getKey(), c.getValue());
                }
            }
            start(base, newPolicy);
        }

        private Pair(Pair before) {
            this.mode = before.mode;
            this.sdkExtra = before.sdkExtra;
            this.clientExtra = before.clientExtra;
            this.topic = before.topic;
            this.plainGroup = before.plainGroup;
            this.sdkGroup = before.sdkGroup;
            this.probes = before.probes;
        }

        private void start(String base, String newPolicy) throws Exception {
            setGroupReset(plainGroup, base);
            plain = new Member("plain", cfg -> new KafkaShareConsumer<>(cfg, new StringDeserializer(), new StringDeserializer()),
                    config(plainGroup, Map.of()), topic);
            sdk = new Member("sdk", cfg -> new GaplessShareConsumer<>(cfg, new StringDeserializer(), new StringDeserializer()),
                    config(sdkGroup, sdkConfig(base, newPolicy)), topic);
        }

        private Map<String, Object> sdkConfig(String base, String newPolicy) {
            Map<String, Object> cfg = new HashMap<>(sdkExtra);
            cfg.put("share.auto.offset.reset", base);
            cfg.put("share.auto.offset.reset.new.partitions", newPolicy);
            cfg.put("gapless.share.partition.check.interval.ms", 200L);
            return cfg;
        }

        Pair restart(String base, String newPolicy) throws Exception {
            Pair next = new Pair(this);
            next.start(base, newPolicy);
            return next;
        }

        private Map<String, Object> config(String group, Map<String, Object> extra) {
            Map<String, Object> cfg = new HashMap<>(clientExtra);
            cfg.putAll(extra);
            cfg.put("bootstrap.servers", kafka.bootstrapServers());
            cfg.put("group.id", group);
            cfg.put("share.acknowledgement.mode", mode);
            return cfg;
        }

        /** Produces probes to partition 0 until both members deliver one: both groups have started; returns the probes seen. */
        Set<String> joined(String t) {
            await().atMost(WAIT).pollInSameThread().until(() -> {
                produce(t, 0, "probe" + probes++, 1);
                pollBoth();
                return plain.sawPrefix("probe") && sdk.sawPrefix("probe");
            });
            Set<String> seen = new LinkedHashSet<>();
            plain.seen.stream().filter(v -> v.startsWith("probe")).forEach(seen::add);
            sdk.seen.stream().filter(v -> v.startsWith("probe")).forEach(seen::add);
            return seen.stream().filter(v -> plain.seen.contains(v) && sdk.seen.contains(v))
                    .collect(java.util.stream.Collectors.toCollection(LinkedHashSet::new));
        }

        void pollBoth() {
            plain.pollOnce();
            sdk.pollOnce();
        }

        /**
         * Polls both until both have seen {@code expected}, or the deadline, or 5 s after the SDK member saw it all
         * (the plain member may never: the comparison is reported); then 1 s more.
         */
        void pollUntilBothSee(Set<String> expected) {
            long deadline = System.nanoTime() + WAIT.toNanos();
            long sdkDone = Long.MAX_VALUE;
            while (System.nanoTime() < deadline && !(plain.seen.containsAll(expected) && sdk.seen.containsAll(expected))
                    && System.nanoTime() - sdkDone < Duration.ofSeconds(5).toNanos()) {
                pollBoth();
                if (sdkDone == Long.MAX_VALUE && sdk.seen.containsAll(expected)) {
                    sdkDone = System.nanoTime();
                }
            }
            long quiet = System.nanoTime() + Duration.ofSeconds(1).toNanos();
            while (System.nanoTime() < quiet) {
                pollBoth();
            }
        }

        void closeBoth() {
            plain.close();
            sdk.close();
        }

        /** The SDK delivers every record of {@code expected} the plain consumer delivers, and no poll failed. */
        void assertSdkNeverWorse(Set<String> expected) {
            Set<String> plainMissing = missing(plain, expected);
            Set<String> sdkMissing = missing(sdk, expected);
            String counts = "plain delivered " + (expected.size() - plainMissing.size()) + " of " + expected.size() + ", the SDK "
                    + (expected.size() - sdkMissing.size()) + " (skipped-before-start " + sdk.metric("records-skipped-before-start-total")
                    + ", poll failures " + sdk.failures.size() + (sdk.failures.isEmpty() ? "" : ", first: " + sdk.failures.get(0)) + ")";
            System.out.println("Side by side: " + counts);
            assertTrue(plainMissing.isEmpty() || sdkMissing.size() <= plainMissing.size(), counts);
            assertEquals(Set.of(), sdkMissing, "records acknowledged unseen or never delivered by the SDK; " + counts);
            assertEquals(List.of(), sdk.failures, "no poll fails; " + counts);
        }

        private Set<String> missing(Member m, Set<String> expected) {
            Set<String> out = new LinkedHashSet<>(expected);
            out.removeAll(m.seen);
            return out;
        }
    }

    /** One share consumer as an application uses it: polls, acknowledges each record in explicit mode, records poll failures. */
    final class Member {
        final String name;
        final ShareConsumer<String, String> consumer;
        final Set<String> seen = new HashSet<>();
        final List<String> failures = new ArrayList<>();
        final boolean explicit;
        private boolean closed;

        Member(String name, Function<Map<String, Object>, ShareConsumer<String, String>> factory, Map<String, Object> cfg, String topic) {
            this.name = name;
            this.explicit = "explicit".equals(cfg.get("share.acknowledgement.mode"));
            this.consumer = factory.apply(cfg);
            members.add(this);
            consumer.subscribe(List.of(topic));
        }

        void pollOnce() {
            try {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(50))) {
                    seen.add(r.value());
                    if (explicit) {
                        consumer.acknowledge(r);
                    }
                }
                if (explicit) {
                    consumer.commitSync();
                }
            } catch (RuntimeException e) {
                if (failures.size() < 20) {
                    failures.add(e.toString());
                }
            }
        }

        boolean sawPrefix(String prefix) {
            return seen.stream().anyMatch(v -> v.startsWith(prefix));
        }

        double metric(String metric) {
            return consumer.metrics().entrySet().stream().filter(e -> e.getKey().name().equals(metric))
                    .mapToDouble(e -> ((Number) e.getValue().metricValue()).doubleValue()).sum();
        }

        void close() {
            if (!closed) {
                closed = true;
                consumer.close();
            }
        }

        void closeQuietly() {
            try {
                close();
            } catch (RuntimeException e) {
                // the test's outcome is already decided
            }
        }
    }
}
