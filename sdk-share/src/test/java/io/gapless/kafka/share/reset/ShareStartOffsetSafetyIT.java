package io.gapless.kafka.share.reset;

import io.gapless.kafka.core.spi.BaselineTopic;
import io.gapless.kafka.share.GaplessShareConsumer;
import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.EmbeddedKafkaTest;
import io.gapless.kafka.testkit.TestClients;
import io.gapless.kafka.testkit.TestTopics;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.consumer.ShareConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Side by side with a plain {@link KafkaShareConsumer} (same steps, a group of its own): the SDK's
 * share start offsets never make a share group acknowledge a record the application did not see,
 * unless it is below a start that still applies (sdk-share/RATIONALE.md, "Share start offsets:
 * when the SDK acknowledges unseen"). Implicit and explicit acknowledgement alike.
 */
@EmbeddedKafkaTest
class ShareStartOffsetSafetyIT {
    private static final Duration WAIT = Duration.ofSeconds(60);

    private final EmbeddedKafka kafka;
    private final List<Member> members = new ArrayList<>();
    private KafkaProducer<String, String> producer;

    ShareStartOffsetSafetyIT(EmbeddedKafka kafka) {
        this.kafka = kafka;
    }

    @AfterEach
    void closeAll() {
        members.forEach(Member::closeQuietly);
        if (producer != null) {
            producer.close();
        }
    }

    /** A topic re-created under its name while both groups run: its partitions are new (KIP-1327) and read from their start. */
    @ParameterizedTest
    @ValueSource(strings = {"implicit", "explicit"})
    void aTopicReCreatedWhileMembersRunIsReadFromItsStart(String mode) throws Exception {
        String topic = TestTopics.unique("safety-recreate");
        kafka.createTopic(topic, 1);
        produce(topic, 0, "history", 200);
        Pair pair = new Pair(mode, "latest", "earliest", topic);
        pair.joined(topic);
        Uuid oldId = kafka.topicId(topic);
        kafka.deleteTopics(topic);
        // The members' metadata requests may create the topic again at once (auto-creation): either way it has a new id.
        await().atMost(WAIT).pollInSameThread().until(() -> {
            pair.pollBoth();
            return !oldId.equals(currentId(topic));
        });
        if (currentId(topic) == null) {
            kafka.createTopic(topic, 1);
        }
        await().atMost(WAIT).until(() -> currentId(topic) != null);
        Set<String> recreated = produce(topic, 0, "recreated", 150);
        pair.pollUntilBothSee(recreated);
        pair.assertSdkNeverWorse(recreated);
    }

    /** An operator's reset backwards while the group is stopped: the records it asks for are delivered again. */
    @ParameterizedTest
    @ValueSource(strings = {"implicit", "explicit"})
    void anOperatorsResetBackwardsIsReplayed(String mode) throws Exception {
        whileStopped(mode, "safety-operator", (group, topic) -> kafka.admin().alterShareGroupOffsets(group,
                Map.of(new TopicPartition(topic, 0), 0L)).all().get(10, TimeUnit.SECONDS), "latest");
    }

    /** A share group deleted and started again (base earliest now) is a new group: everything is delivered. */
    @ParameterizedTest
    @ValueSource(strings = {"implicit", "explicit"})
    void aDeletedGroupStartedAgainIsNew(String mode) throws Exception {
        whileStopped(mode, "safety-group", (group, topic) -> kafka.admin().deleteShareGroups(List.of(group)).all()
                .get(10, TimeUnit.SECONDS), "earliest");
    }

    /** What an operator does to a stopped group, retried until the group is empty at the broker. */
    private interface GroupAction {
        void apply(String group, String topic) throws Exception;
    }

    /**
     * Both groups read 100 live records (base latest, 300 before them), stop, {@code action} is done
     * to each, and they start again with base {@code restartBase}: all 400 are expected.
     */
    private void whileStopped(String mode, String prefix, GroupAction action, String restartBase) throws Exception {
        String topic = TestTopics.unique(prefix);
        kafka.createTopic(topic, 1);
        Set<String> all = produce(topic, 0, "history", 300);
        Pair pair = new Pair(mode, "latest", "earliest", topic);
        Set<String> live = pair.joined(topic);
        live.addAll(produce(topic, 0, "live", 100));
        pair.pollUntilBothSee(live);
        pair.closeBoth();
        for (String group : List.of(pair.plainGroup, pair.sdkGroup)) {
            await().atMost(WAIT).ignoreExceptions().until(() -> {
                action.apply(group, topic);
                return true;
            });
        }
        Pair again = pair.restart(restartBase, "earliest");
        all.addAll(live);
        again.pollUntilBothSee(all);
        again.assertSdkNeverWorse(all);
    }

    /**
     * The baseline topic deleted while the group runs, then partitions added: the SDK cannot read or
     * write the group's starts, delivers as Kafka does, and no poll fails.
     */
    @ParameterizedTest
    @ValueSource(strings = {"implicit", "explicit"})
    void aBaselineTopicDeletedWhileTheGroupRunsNeitherLosesNorFailsPolls(String mode) throws Exception {
        // Passed before issue 28's fix too (the running member keeps its folded baseline): a guard, run with the soaks.
        assumeTrue(Boolean.getBoolean("gapless.soak"), "-Dgapless.soak=true");
        String topic = TestTopics.unique("safety-baseline");
        kafka.createTopic(topic, 2);
        produce(topic, 0, "history", 50);
        Pair pair = new Pair(mode, "latest", "earliest", topic);
        Set<String> expected = pair.joined(topic);
        kafka.deleteTopics(BaselineTopic.PREFIX_DEFAULT + pair.sdkGroup);
        kafka.addPartitions(topic, 4);
        expected.addAll(produce(topic, 0, "old-partition", 30));
        expected.addAll(produce(topic, 2, "added2", 50));
        expected.addAll(produce(topic, 3, "added3", 50));
        pair.pollUntilBothSee(expected);
        pair.assertSdkNeverWorse(expected);
    }

    /**
     * The baseline topic deleted (an operator's clean-up) while the group is stopped, and partitions
     * added meanwhile: the fresh baseline is no proof that they existed before the group, so they
     * are read from their start, as Kafka 4.4 does.
     */
    @ParameterizedTest
    @ValueSource(strings = {"implicit", "explicit"})
    void partitionsAddedWhileTheBaselineTopicWasDeletedAreReadFromTheirStart(String mode) throws Exception {
        String topic = TestTopics.unique("safety-baseline-stopped");
        kafka.createTopic(topic, 2);
        produce(topic, 0, "history", 50);
        Pair pair = new Pair(mode, "latest", "earliest", topic);
        pair.joined(topic);
        pair.closeBoth();
        kafka.deleteTopics(BaselineTopic.PREFIX_DEFAULT + pair.sdkGroup);
        kafka.addPartitions(topic, 4);
        Set<String> expected = produce(topic, 0, "old-partition", 20);
        expected.addAll(produce(topic, 2, "added2", 50));
        expected.addAll(produce(topic, 3, "added3", 50));
        Pair again = pair.restart("latest", "earliest");
        again.pollUntilBothSee(expected);
        again.assertSdkNeverWorse(expected);
    }

    /**
     * The baseline cannot be written (its topic refuses every record, a deterministic stand-in for
     * a leader down or too few in-sync replicas) when partitions are added: the first batch of a
     * new partition arrives before its start can be recorded. Kafka's poll already took that batch,
     * so nothing may fail there: no poll fails, nothing waits for the baseline, nothing is lost.
     */
    @ParameterizedTest
    @ValueSource(strings = {"implicit", "explicit"})
    void aBaselineThatCannotBeWrittenLosesNothingAndFailsNoPoll(String mode) throws Exception {
        String topic = TestTopics.unique("safety-unwritable");
        kafka.createTopic(topic, 2);
        produce(topic, 0, "history", 50);
        Pair pair = new Pair(mode, "latest", "earliest", topic, Map.of("gapless.baseline.timeout.ms", 2_000L));
        Set<String> expected = pair.joined(topic);
        kafka.admin().incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.TOPIC, BaselineTopic.PREFIX_DEFAULT
                + pair.sdkGroup), List.of(new AlterConfigOp(new ConfigEntry("max.message.bytes", "16"), AlterConfigOp.OpType.SET))))
                .all().get(30, TimeUnit.SECONDS);
        kafka.addPartitions(topic, 4);
        expected.addAll(produce(topic, 0, "old-partition", 20));
        expected.addAll(produce(topic, 2, "added2", 50));
        expected.addAll(produce(topic, 3, "added3", 50));
        pair.pollUntilBothSee(expected);
        pair.assertSdkNeverWorse(expected);
        assertTrue(pair.sdk.metric("records-delivered-undecided-total") > 0, "the added partitions were undecided");
    }

    /**
     * {@code share.isolation.level=read_committed} and base {@code latest} (finding 6 of issue 28):
     * Kafka 4.4 starts a share partition past the records of a transaction open at the start, and
     * never delivers them after the commit (measured here with the plain consumer; a consumer
     * group's {@code latest} is the last stable offset instead). The SDK's {@code latest} is the
     * same: it delivers exactly what the plain group delivers.
     */
    @ParameterizedTest
    @ValueSource(strings = {"implicit", "explicit"})
    void aTransactionOpenAtTheStartIsTreatedAsKafkaTreatsIt(String mode) throws Exception {
        String topic = TestTopics.unique("safety-txn");
        kafka.createTopic(topic, 1);
        produce(topic, 0, "history", 20);
        Properties tp = TestClients.producerProps(kafka);
        tp.put("transactional.id", TestTopics.unique("txn"));
        try (KafkaProducer<String, String> txn = new KafkaProducer<>(tp)) {
            txn.initTransactions();
            txn.beginTransaction();
            Set<String> open = new LinkedHashSet<>();
            for (int i = 0; i < 30; i++) {
                txn.send(new ProducerRecord<>(topic, 0, "k", "open-" + i)).get(30, TimeUnit.SECONDS);
                open.add("open-" + i);
            }
            Pair pair = new Pair(mode, "latest", "earliest", topic, Map.of(), Map.of("share.isolation.level", "read_committed"));
            long until = System.nanoTime() + Duration.ofSeconds(3).toNanos();
            while (System.nanoTime() < until) {
                pair.pollBoth(); // both groups start (and the SDK chooses its starts) while the transaction is open
            }
            txn.commitTransaction();
            Set<String> after = pair.joined(topic);
            after.addAll(produce(topic, 0, "after", 20));
            pair.pollUntilBothSee(after);
            pair.assertSdkNeverWorse(after);
            Set<String> plainOpen = new LinkedHashSet<>(open);
            plainOpen.retainAll(pair.plain.seen);
            Set<String> sdkOpen = new LinkedHashSet<>(open);
            sdkOpen.retainAll(pair.sdk.seen);
            assertEquals(Set.of(), plainOpen, "Kafka 4.4's share latest under read_committed: the open transaction is never delivered");
            assertEquals(plainOpen, sdkOpen, "the SDK's latest is Kafka's");
        }
    }

    private Uuid currentId(String topic) {
        try {
            return kafka.admin().describeTopics(List.of(topic)).allTopicNames().get(10, TimeUnit.SECONDS).get(topic).topicId();
        } catch (Exception e) {
            return null;
        }
    }

    // ---- helpers

    private Set<String> produce(String topic, int partition, String prefix, int count) {
        if (producer == null) {
            producer = TestClients.producer(kafka);
        }
        return new LinkedHashSet<>(TestClients.produce(producer, topic, partition, prefix, count));
    }

    private void setGroupReset(String group, String policy) throws Exception {
        setGroupConfig(group, "share.auto.offset.reset", policy);
    }

    private void setGroupConfig(String group, String key, String value) throws Exception {
        kafka.admin().incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.GROUP, group),
                List.of(new AlterConfigOp(new ConfigEntry(key, value), AlterConfigOp.OpType.SET))))
                .all().get(30, TimeUnit.SECONDS);
    }

    /** A plain member and an SDK member, each of its own group, driven by the same steps. */
    private final class Pair {
        final String mode;
        final String topic;
        final String plainGroup;
        final String sdkGroup;
        Member plain;
        Member sdk;
        private int probes;

        private final Map<String, Object> sdkExtra;

        Pair(String mode, String base, String newPolicy, String topic) throws Exception {
            this(mode, base, newPolicy, topic, Map.of());
        }

        Pair(String mode, String base, String newPolicy, String topic, Map<String, Object> sdkExtra) throws Exception {
            this(mode, base, newPolicy, topic, sdkExtra, Map.of());
        }

        Pair(String mode, String base, String newPolicy, String topic, Map<String, Object> sdkExtra, Map<String, String> groupConfigs)
                throws Exception {
            this.mode = mode;
            this.sdkExtra = sdkExtra;
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
            Map<String, Object> cfg = new HashMap<>(extra);
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
    private final class Member {
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
