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

import io.gapless.kafka.core.spi.BaselineTopic;
import io.gapless.kafka.core.spi.StateTopics;
import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.KafkaNode;
import io.gapless.kafka.testkit.TestClients;
import io.gapless.kafka.testkit.TestTopics;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The differential tester of issue 23: runs a {@link DiffPlan} in lock-step on a plain
 * {@link KafkaConsumer} and on an SDK consumer, each in its own group with the same settings, on
 * a cluster of three brokers, and reports every place where the SDK differs from plain Kafka
 * otherwise than KIP-1327 says it must.
 *
 * <p>The property, per partition (a re-created topic's partitions are other partitions than the
 * deleted ones'): on a partition that existed when the groups started, the SDK delivers exactly
 * the records plain Kafka delivers (none less, none plain Kafka did not deliver) and replays no
 * more; on a partition created after the groups started (added, or its topic re-created) it may
 * position by {@code auto.offset.reset.new.partitions} instead (KIP-1327), and with
 * {@code earliest} there it still delivers at least what plain Kafka does. At no step does it
 * throw an exception class plain Kafka does not throw at that step. One documented cost is
 * allowed: while its baseline topic's only broker is down, a partition without a committed offset
 * whose two policies differ waits for the decision (and {@code poll} may throw
 * {@link BaselineUnavailableException} for it, also once more in the first comparison after the
 * broker is back); it is compared again once the broker is back, and a deleted topic's records it
 * never got while it waited are not counted.
 *
 * <p>Records are compared at the poll steps (and at the end), when both consumers have read up
 * to the log end of every partition they can read (assigned, not paused, leader up), or after
 * {@value #SETTLE_SECONDS} s. A record's value names its topic incarnation and partition.
 */
final class DifferentialTester {
    private static final Logger log = LoggerFactory.getLogger(DifferentialTester.class);
    static final int SETTLE_SECONDS = 20;
    private static final Duration SETTLE = Duration.ofSeconds(SETTLE_SECONDS);
    private static final Duration CALL = Duration.ofSeconds(5);

    /** Which partitions may differ: KIP-1327's, or issue 23 finding 4's proposal (a topic whose offsets were all deleted is seen anew). */
    enum Rule {
        KIP_1327, TOPIC_WITHOUT_OFFSETS_SEEN_ANEW
    }

    /** What one run delivered, for the log and the report. */
    record Summary(int plainRecords, int sdkRecords, int steps, int skipped, long millis) {
    }

    private final EmbeddedKafka kafka;
    private final Function<Properties, Consumer<String, String>> sdkFactory;
    private final Rule rule;

    DifferentialTester(EmbeddedKafka kafka, Function<Properties, Consumer<String, String>> sdkFactory, Rule rule) {
        this.kafka = kafka;
        this.sdkFactory = sdkFactory;
        this.rule = rule;
    }

    /**
     * Runs the plan.
     *
     * @throws AssertionError naming the seed, the differences and the steps, if the SDK differs from plain Kafka
     */
    Summary run(DiffPlan plan) throws Exception {
        log.info("Differential run: {}", plan.replay());
        try (Run run = new Run(plan)) {
            return run.execute();
        }
    }

    /** A topic of the run: its current incarnation and the broker holding each partition (one replica each). */
    private static final class Topic {
        final String name;
        int incarnation;
        final List<Integer> brokers = new ArrayList<>();

        Topic(String name) {
            this.name = name;
        }

        String key(int partition) {
            return name + "#" + incarnation + "/" + partition;
        }
    }

    /** One consumer of the pair: what it delivered (per partition key, in order) and threw at the current step. */
    private static final class Side {
        final String name;
        final Properties props;
        final Function<Properties, Consumer<String, String>> factory;
        final Map<String, List<String>> delivered = new TreeMap<>();
        final Set<String> thrown = new TreeSet<>();
        Consumer<String, String> consumer;
        boolean settled;

        Side(String name, Properties props, Function<Properties, Consumer<String, String>> factory) {
            this.name = name;
            this.props = props;
            this.factory = factory;
        }

        String group() {
            return props.getProperty("group.id");
        }

        void call(java.util.function.Consumer<Consumer<String, String>> call) {
            try {
                call.accept(consumer);
            } catch (RuntimeException e) {
                thrown.add(e.getClass().getSimpleName());
            }
        }

        void poll(Duration timeout) {
            try {
                for (ConsumerRecord<String, String> r : consumer.poll(timeout)) {
                    String v = r.value();
                    delivered.computeIfAbsent(v.substring(0, v.lastIndexOf('/')), k -> new ArrayList<>()).add(v);
                }
            } catch (RuntimeException e) {
                thrown.add(e.getClass().getSimpleName());
            }
        }

        Object position(TopicPartition tp) {
            try {
                return consumer.position(tp, CALL);
            } catch (RuntimeException e) {
                return e.getClass().getSimpleName();
            }
        }

        int records() {
            return delivered.values().stream().mapToInt(List::size).sum();
        }

        void close() {
            if (consumer != null) {
                try {
                    consumer.close(org.apache.kafka.clients.consumer.CloseOptions.timeout(CALL));
                } catch (RuntimeException e) {
                    thrown.add(e.getClass().getSimpleName());
                }
                consumer = null;
            }
        }
    }

    /** The state of one run. */
    private final class Run implements AutoCloseable {
        final DiffPlan plan;
        final List<Topic> topics = new ArrayList<>();
        final Side plain;
        final Side sdk;
        final KafkaProducer<String, String> producer;
        // Partition keys created after the groups started: KIP-1327 lets the SDK position them by the new-partitions policy.
        final Set<String> addedSinceStart = new HashSet<>();
        // Topics (by name) whose offsets an operator deleted for both groups.
        final Set<String> offsetsDeleted = new HashSet<>();
        final Set<TopicPartition> paused = new HashSet<>();
        // Keys that waited for the SDK's decision (baseline down) when their topic was deleted: their records are gone for the SDK.
        final Set<String> deletedWhileWaiting = new HashSet<>();
        // The baseline's broker came back since the last comparison: a decision tried during the outage may still fail once.
        boolean baselineJustBack;
        // seekToBeginning/seekToEnd not resolved yet: a write or deletion would race the consumer's background reset.
        final Set<TopicPartition> lazySeeks = new HashSet<>();
        final List<String> log = new ArrayList<>();
        final List<String> differences = new ArrayList<>();
        int produced;
        int skipped;

        Run(DiffPlan plan) throws Exception {
            this.plan = plan;
            Properties producerProps = TestClients.producerProps(kafka);
            producerProps.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "20000");
            producerProps.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000");
            producerProps.put(ProducerConfig.LINGER_MS_CONFIG, "0");
            producerProps.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "10000");
            this.producer = new KafkaProducer<>(producerProps);
            topics.add(create(TestTopics.unique("diffa"), List.of(0, 1)));
            topics.add(create(TestTopics.unique("diffb"), List.of(2)));
            this.plain = new Side("plain", props(null), KafkaConsumer::new);
            Properties sdkProps = props(plan.newPolicy());
            sdkProps.put(GaplessConsumerConfig.BASELINE_TIMEOUT_MS_CONFIG, "2000");
            this.sdk = new Side("SDK", sdkProps, sdkFactory);
            if (plan.baselineOn() >= 0) {
                String baselineTopic = StateTopics.forGroup(BaselineTopic.PREFIX_DEFAULT, sdk.group());
                kafka.admin().createTopics(List.of(new NewTopic(baselineTopic, Map.of(0, List.of(plan.baselineOn()))).configs(Map.of(
                        TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT,
                        TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG, "LogAppendTime")))).all().get(30, TimeUnit.SECONDS);
                kafka.awaitLeader(new TopicPartition(baselineTopic, 0));
            }
            for (int p = 0; p < 3; p++) {
                produce(partitions().get(p), 3 + p * 4);
            }
        }

        Properties props(String newPolicy) {
            Properties p = ConsumerITSupport.props(kafka, TestTopics.unique("g"), plan.protocol(), plan.base(), newPolicy);
            // No fetch in flight while a step writes or deletes records: that would be a difference of timing.
            p.put("fetch.max.wait.ms", "5");
            p.put("default.api.timeout.ms", "10000");
            return p;
        }

        Topic create(String name, List<Integer> brokers) throws Exception {
            Topic t = new Topic(name);
            t.brokers.addAll(brokers);
            Map<Integer, List<Integer>> replicas = new TreeMap<>();
            for (int p = 0; p < brokers.size(); p++) {
                replicas.put(p, List.of(brokers.get(p)));
            }
            kafka.admin().createTopics(List.of(new NewTopic(name, replicas))).all().get(30, TimeUnit.SECONDS);
            replicas.keySet().forEach(p -> kafka.awaitLeader(new TopicPartition(name, p)));
            return t;
        }

        Summary execute() throws Exception {
            long started = System.nanoTime();
            open();
            for (int i = 0; i < plan.steps().size(); i++) {
                DiffPlan.Step step = plan.steps().get(i);
                String text = step(step);
                log.add(i + ": " + text);
                if (text.endsWith("(skipped)")) {
                    skipped++;
                }
                compareThrown(i + ": " + text, step.kind() == DiffPlan.Kind.WAKEUP);
                fail();
            }
            kafka.nodes().stream().filter(n -> !n.isRunning()).forEach(this::start);
            log.add("end: every broker up, poll until read to the end");
            settle(SETTLE.multipliedBy(2));
            compareThrown("end: poll until read to the end", false);
            fail();
            if (plan.baselineOn() >= 0) {
                // Once more: a failure left from the baseline's outage is allowed once, not after it is back.
                log.add("end, again: poll until read to the end");
                settle(SETTLE);
                compareThrown("end, again: poll until read to the end", false);
                fail();
            }
            Summary summary = new Summary(plain.records(), sdk.records(), plan.steps().size(), skipped,
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
            DifferentialTester.log.info("Differential run passed: {}; {}; steps:\n  {}", plan.replay(), summary, String.join("\n  ", log));
            return summary;
        }

        void fail() {
            if (!differences.isEmpty()) {
                throw new AssertionError("The SDK differs from plain Kafka: " + differences + "\n at " + plan.replay()
                        + "\n records produced " + produced + ", delivered plain " + plain.records() + ", SDK " + sdk.records()
                        + "\n steps:\n  " + String.join("\n  ", log));
            }
        }

        List<TopicPartition> partitions() {
            List<TopicPartition> out = new ArrayList<>();
            for (Topic t : topics) {
                for (int p = 0; p < t.brokers.size(); p++) {
                    out.add(new TopicPartition(t.name, p));
                }
            }
            return out;
        }

        Topic topic(TopicPartition tp) {
            return topics.stream().filter(t -> t.name.equals(tp.topic())).findFirst().orElseThrow();
        }

        boolean live(TopicPartition tp) {
            return kafka.node(topic(tp).brokers.get(tp.partition())).isRunning();
        }

        void open() {
            paused.clear();
            lazySeeks.clear();
            for (Side side : List.of(plain, sdk)) {
                side.consumer = side.factory.apply(side.props);
                if (plan.subscribe()) {
                    side.call(c -> c.subscribe(topics.stream().map(t -> t.name).toList()));
                } else {
                    side.call(c -> c.assign(partitions()));
                }
            }
        }

        /** A partition both consumers hold now, picked by {@code a}; null if there is none. */
        TopicPartition held(int a) {
            List<TopicPartition> all = partitions();
            TopicPartition tp = all.get(a % all.size());
            return plain.consumer.assignment().contains(tp) && sdk.consumer.assignment().contains(tp) ? tp : null;
        }

        String step(DiffPlan.Step step) throws Exception {
            int a = step.a();
            int b = step.b();
            switch (step.kind()) {
                case PRODUCE -> {
                    List<TopicPartition> all = partitions();
                    TopicPartition tp = all.get(a % all.size());
                    int n = 1 + b % 12;
                    if (!live(tp)) {
                        return "produce " + n + " to " + tp + " (leader down) (skipped)";
                    }
                    String resolved = resolveLazySeek(tp);
                    produce(tp, n);
                    return resolved + "produce " + n + " to " + tp;
                }
                case POLL -> {
                    settle(SETTLE);
                    return "poll until read to the end: plain " + (plain.settled ? "did" : "did not") + ", SDK "
                            + (sdk.settled ? "did" : "did not");
                }
                case COMMIT_SYNC -> {
                    both(Consumer::commitSync);
                    return "commitSync";
                }
                case COMMIT_ASYNC -> {
                    for (Side side : List.of(plain, sdk)) {
                        side.call(c -> c.commitAsync((offsets, e) -> {
                            if (e != null) {
                                side.thrown.add("commitAsync callback " + e.getClass().getSimpleName());
                            }
                        }));
                    }
                    return "commitAsync (completes in a later poll)";
                }
                case SEEK, SEEK_TO_BEGINNING, SEEK_TO_END, PAUSE_OR_RESUME, POSITION -> {
                    return partitionStep(step.kind(), held(a), b);
                }
                case WAKEUP -> {
                    both(Consumer::wakeup);
                    plain.poll(Duration.ofMillis(500));
                    sdk.poll(Duration.ofMillis(500));
                    return "wakeup, then poll(500 ms)";
                }
                case RESTART -> {
                    plain.close();
                    sdk.close();
                    open();
                    return "close both and create them again (same groups), " + (plan.subscribe() ? "subscribe" : "assign");
                }
                case ADD_PARTITION, ADD_PARTITION_THEN_STOP_ITS_BROKER -> {
                    return addPartition(topics.get(a % topics.size()), b, step.kind() == DiffPlan.Kind.ADD_PARTITION_THEN_STOP_ITS_BROKER);
                }
                case STOP_BROKER -> {
                    if (kafka.nodes().stream().anyMatch(n -> !n.isRunning())) {
                        return "stop a broker: one is down already (skipped)";
                    }
                    kafka.node(b % 3).stop();
                    return "stop broker " + b % 3;
                }
                case START_BROKER -> {
                    List<KafkaNode> down = kafka.nodes().stream().filter(n -> !n.isRunning()).toList();
                    if (down.isEmpty()) {
                        return "start a broker: none is down (skipped)";
                    }
                    start(down.get(0));
                    return "start broker " + down.get(0).id();
                }
                case DELETE_RECORDS -> {
                    List<TopicPartition> all = partitions();
                    TopicPartition tp = all.get(a % all.size());
                    if (!live(tp)) {
                        return "deleteRecords " + tp + " (leader down) (skipped)";
                    }
                    String resolved = resolveLazySeek(tp);
                    long[] range = range(tp);
                    long before = range[0] + b % (range[1] - range[0] + 1);
                    kafka.admin().deleteRecords(Map.of(tp, RecordsToDelete.beforeOffset(before))).all().get(30, TimeUnit.SECONDS);
                    return resolved + "deleteRecords " + tp + " before " + before + " (log was " + range[0] + ".." + range[1] + ")";
                }
                case DELETE_OFFSETS -> {
                    return deleteOffsets(topics.get(a % topics.size()));
                }
                case RECREATE_TOPIC -> {
                    return recreate(topics.get(1), b);
                }
                default -> throw new IllegalStateException("unknown step " + step);
            }
        }

        String partitionStep(DiffPlan.Kind kind, TopicPartition tp, int b) throws Exception {
            if (tp == null) {
                return kind + ": the partition is not assigned to both (skipped)";
            }
            switch (kind) {
                case SEEK -> {
                    if (!live(tp)) {
                        return "seek " + tp + " (leader down) (skipped)";
                    }
                    long[] range = range(tp);
                    long offset = b % (range[1] + 6);
                    both(c -> c.seek(tp, offset));
                    return "seek " + tp + " to " + offset + " (log " + range[0] + ".." + range[1] + ")";
                }
                case SEEK_TO_BEGINNING -> {
                    both(c -> c.seekToBeginning(List.of(tp)));
                    lazySeeks.add(tp);
                    return "seekToBeginning " + tp;
                }
                case SEEK_TO_END -> {
                    both(c -> c.seekToEnd(List.of(tp)));
                    lazySeeks.add(tp);
                    return "seekToEnd " + tp;
                }
                case PAUSE_OR_RESUME -> {
                    boolean pause = paused.add(tp);
                    if (!pause) {
                        paused.remove(tp);
                    }
                    both(c -> {
                        if (pause) {
                            c.pause(List.of(tp));
                        } else {
                            c.resume(List.of(tp));
                        }
                    });
                    return (pause ? "pause " : "resume ") + tp;
                }
                case POSITION -> {
                    if (!live(tp)) {
                        return "position " + tp + " (leader down) (skipped)";
                    }
                    return comparePositions(tp);
                }
                default -> throw new IllegalStateException(kind.toString());
            }
        }

        /**
         * After {@code seekToBeginning}/{@code seekToEnd} the position is looked up lazily (the
         * consumer protocol's background thread even does it at once): a write or deletion before
         * it is resolved would make the two consumers' targets differ by timing alone. Both are
         * asked {@code position} first, as Spring's seek callbacks do.
         */
        String resolveLazySeek(TopicPartition tp) {
            if (!lazySeeks.remove(tp) || !plain.consumer.assignment().contains(tp) || !sdk.consumer.assignment().contains(tp)) {
                return "";
            }
            return comparePositions(tp) + "; ";
        }

        /** Both are asked {@code position}; outside the partitions KIP-1327 lets differ, the answers must agree. */
        String comparePositions(TopicPartition tp) {
            Object p = plain.position(tp);
            Object s = sdk.position(tp);
            String key = topic(tp).key(tp.partition());
            if (!p.equals(s) && !mayDiffer(key) && !waiting(key)) {
                differences.add("position of " + key + ": plain " + p + ", SDK " + s);
            }
            return "position " + tp + ": plain " + p + ", SDK " + s;
        }

        String addPartition(Topic t, int b, boolean thenStop) throws Exception {
            List<Integer> up = kafka.nodes().stream().filter(KafkaNode::isRunning).map(KafkaNode::id).toList();
            int broker = up.get(b % up.size());
            int count = t.brokers.size();
            kafka.admin().createPartitions(Map.of(t.name, NewPartitions.increaseTo(count + 1, List.of(List.of(broker)))))
                    .all().get(30, TimeUnit.SECONDS);
            t.brokers.add(broker);
            TopicPartition added = new TopicPartition(t.name, count);
            kafka.awaitLeader(added);
            addedSinceStart.add(t.key(count));
            if (!plan.subscribe()) {
                reassign();
            }
            String text = "add " + added + " on broker " + broker;
            if (thenStop && up.size() == kafka.nodes().size()) {
                kafka.node(broker).stop();
                text += ", then stop broker " + broker;
            } else if (plan.subscribe()) {
                text += ", then " + rebalance();
            }
            return text;
        }

        /**
         * A subscription's partitions changed: both poll until the rebalance is done. A write
         * before one side's rebalance and after the other's would meet a partition without a
         * committed offset reset by the base policy on one side only: timing, not behaviour.
         */
        String rebalance() throws Exception {
            settle(SETTLE);
            return "poll until read to the end";
        }

        void reassign() {
            paused.clear();
            both(c -> {
                c.resume(c.assignment());
                c.assign(partitions());
            });
        }

        String deleteOffsets(Topic t) throws Exception {
            // A group subscribed to the topic refuses (GROUP_SUBSCRIBED_TO_TOPIC): the operator stops it first.
            if (plan.subscribe()) {
                plain.close();
                sdk.close();
            }
            Set<TopicPartition> tps = new LinkedHashSet<>();
            for (int p = 0; p < t.brokers.size(); p++) {
                tps.add(new TopicPartition(t.name, p));
            }
            List<String> outcome = new ArrayList<>();
            for (Side side : List.of(plain, sdk)) {
                outcome.add(side.name + " " + deleteOffsets(side.group(), tps));
            }
            offsetsDeleted.add(t.name);
            if (plan.subscribe()) {
                open();
            }
            return "delete the groups' offsets of " + t.name + (plan.subscribe() ? " (both closed meanwhile)" : "") + ": " + outcome;
        }

        String deleteOffsets(String group, Set<TopicPartition> tps) throws Exception {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
            while (true) {
                try {
                    kafka.admin().deleteConsumerGroupOffsets(group, tps).all().get(10, TimeUnit.SECONDS);
                    return "deleted";
                } catch (ExecutionException e) {
                    String cause = e.getCause().getClass().getSimpleName();
                    if (cause.equals("GroupIdNotFoundException")) {
                        return "nothing committed";
                    }
                    if (System.nanoTime() > deadline) {
                        return "failed: " + cause;
                    }
                    Thread.sleep(200); // the closed member's leave is still being processed; retried until the deadline
                }
            }
        }

        String recreate(Topic t, int b) throws Exception {
            kafka.admin().deleteTopics(List.of(t.name)).all().get(30, TimeUnit.SECONDS);
            List<Integer> up = kafka.nodes().stream().filter(KafkaNode::isRunning).map(KafkaNode::id).toList();
            int broker = up.get(b % up.size());
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (true) {
                try {
                    kafka.admin().createTopics(List.of(new NewTopic(t.name, Map.of(0, List.of(broker))))).all().get(30, TimeUnit.SECONDS);
                    break;
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException) || System.nanoTime() > deadline) {
                        throw e;
                    }
                    Thread.sleep(200); // the deletion is still being completed
                }
            }
            kafka.awaitLeader(new TopicPartition(t.name, 0));
            if (waiting(t.key(0))) {
                deletedWhileWaiting.add(t.key(0));
            }
            t.incarnation++;
            t.brokers.clear();
            t.brokers.add(broker);
            addedSinceStart.add(t.key(0));
            offsetsDeleted.remove(t.name);
            if (!plan.subscribe()) {
                reassign();
            }
            return "delete " + t.name + " and create it again (1 partition, broker " + broker + ")"
                    + (plan.subscribe() ? ", then " + rebalance() : "");
        }

        void start(KafkaNode node) {
            node.start();
            for (TopicPartition tp : partitions()) {
                if (topic(tp).brokers.get(tp.partition()) == node.id()) {
                    kafka.awaitLeader(tp);
                }
            }
            if (plan.baselineOn() == node.id()) {
                baselineJustBack = true;
                kafka.awaitLeader(new TopicPartition(StateTopics.forGroup(BaselineTopic.PREFIX_DEFAULT, sdk.group()), 0));
            }
        }

        void produce(TopicPartition tp, int n) throws Exception {
            String key = topic(tp).key(tp.partition());
            List<Future<?>> acks = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                acks.add(producer.send(new ProducerRecord<>(tp.topic(), tp.partition(), key, key + "/" + produced++)));
            }
            for (Future<?> ack : acks) {
                ack.get(30, TimeUnit.SECONDS);
            }
        }

        void both(java.util.function.Consumer<Consumer<String, String>> call) {
            plain.call(call);
            sdk.call(call);
        }

        long[] range(TopicPartition tp) throws Exception {
            long start = kafka.admin().listOffsets(Map.of(tp, OffsetSpec.earliest())).all().get(30, TimeUnit.SECONDS).get(tp).offset();
            long end = kafka.admin().listOffsets(Map.of(tp, OffsetSpec.latest())).all().get(30, TimeUnit.SECONDS).get(tp).offset();
            return new long[] {start, end};
        }

        /** KIP-1327 lets the SDK position this partition by the new-partitions policy. */
        boolean mayDiffer(String key) {
            if (!addedSinceStart.contains(key)) {
                return false;
            }
            String name = key.substring(0, key.indexOf('#'));
            return rule == Rule.KIP_1327 || !offsetsDeleted.contains(name);
        }

        boolean baselineDown() {
            return plan.baselineOn() >= 0 && !kafka.node(plan.baselineOn()).isRunning();
        }

        // Partition keys the SDK must decide (no committed offset, the two policies differ) while its baseline is unreadable.
        Set<String> waiting = Set.of();

        boolean waiting(String key) {
            return waiting.contains(key);
        }

        Set<String> undecidable() throws Exception {
            if (!baselineDown() || plan.base().equals(plan.newPolicy())) {
                return Set.of();
            }
            Map<TopicPartition, OffsetAndMetadata> committed = kafka.admin().listConsumerGroupOffsets(sdk.group())
                    .partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS);
            Set<String> out = new HashSet<>();
            for (TopicPartition tp : partitions()) {
                if (committed.get(tp) == null) {
                    out.add(topic(tp).key(tp.partition()));
                }
            }
            return out;
        }

        /** Both poll until each has read to the end of what it can read; then what each delivered is compared. */
        void settle(Duration window) throws Exception {
            lazySeeks.clear();
            waiting = undecidable();
            Map<TopicPartition, Long> ends = new TreeMap<>(java.util.Comparator.comparing(TopicPartition::toString));
            for (TopicPartition tp : partitions()) {
                if (live(tp)) {
                    ends.put(tp, range(tp)[1]);
                }
            }
            for (Side side : List.of(plain, sdk)) {
                long deadline = System.nanoTime() + window.toNanos();
                side.settled = false;
                while (System.nanoTime() < deadline && !side.settled) {
                    side.poll(Duration.ofMillis(100));
                    side.settled = readToTheEnd(side, ends);
                }
            }
            compareDelivered();
        }

        boolean readToTheEnd(Side side, Map<TopicPartition, Long> ends) {
            Set<TopicPartition> expected = new HashSet<>(partitions());
            if (!side.consumer.assignment().equals(expected)) {
                return false;
            }
            for (Map.Entry<TopicPartition, Long> e : ends.entrySet()) {
                TopicPartition tp = e.getKey();
                if (paused.contains(tp) || side == sdk && waiting(topic(tp).key(tp.partition()))) {
                    continue;
                }
                try {
                    // Past the end is not read to the end: an out-of-range reset is still to come.
                    if (side.consumer.position(tp, Duration.ZERO) != e.getValue()) {
                        return false;
                    }
                } catch (RuntimeException notYet) {
                    return false;
                }
            }
            return true;
        }

        void compareDelivered() {
            Set<String> keys = new TreeSet<>(plain.delivered.keySet());
            keys.addAll(sdk.delivered.keySet());
            for (String key : keys) {
                List<String> p = plain.delivered.getOrDefault(key, List.of());
                List<String> s = sdk.delivered.getOrDefault(key, List.of());
                Set<String> ps = new HashSet<>(p);
                Set<String> ss = new HashSet<>(s);
                boolean mayDiffer = mayDiffer(key);
                Set<String> missing = new TreeSet<>(ps);
                missing.removeAll(ss);
                if (!missing.isEmpty() && !waiting(key) && !deletedWhileWaiting.contains(key) && (!mayDiffer || plan.newPolicy().equals("earliest"))) {
                    differences.add(key + ": the SDK delivered less: " + missing.size() + " of the " + ps.size()
                            + " records plain Kafka delivered are missing " + sample(missing) + (mayDiffer ? " (a partition added since the"
                            + " start, new-partitions policy earliest)" : ""));
                }
                if (mayDiffer) {
                    continue;
                }
                Set<String> extra = new TreeSet<>(ss);
                extra.removeAll(ps);
                if (!extra.isEmpty() && plain.settled) {
                    differences.add(key + ": the SDK delivered " + extra.size() + " records plain Kafka did not " + sample(extra));
                }
                int plainReplays = p.size() - ps.size();
                int sdkReplays = s.size() - ss.size();
                if (sdkReplays > plainReplays) {
                    differences.add(key + ": the SDK replayed " + sdkReplays + " records, plain Kafka " + plainReplays);
                }
            }
        }

        void compareThrown(String at, boolean same) {
            Set<String> extra = new TreeSet<>(sdk.thrown);
            extra.removeAll(plain.thrown);
            if (!waiting.isEmpty() || baselineJustBack) {
                extra.remove(BaselineUnavailableException.class.getSimpleName());
            }
            if (at.contains("poll until read to the end")) {
                baselineJustBack = false;
            }
            if (!extra.isEmpty()) {
                differences.add("at '" + at + "' the SDK threw " + extra + ", plain Kafka " + plain.thrown);
            } else if (same && !plain.thrown.equals(sdk.thrown)) {
                differences.add("at '" + at + "' plain Kafka threw " + plain.thrown + ", the SDK " + sdk.thrown);
            }
            if (!plain.thrown.isEmpty() || !sdk.thrown.isEmpty()) {
                log.add("   thrown: plain " + plain.thrown + ", SDK " + sdk.thrown);
            }
            plain.thrown.clear();
            sdk.thrown.clear();
        }

        String sample(Set<String> values) {
            return values.stream().limit(5).collect(Collectors.joining(", ", "[", values.size() > 5 ? ", ...]" : "]"));
        }

        @Override
        public void close() {
            plain.close();
            sdk.close();
            producer.close(CALL);
            kafka.nodes().stream().filter(n -> !n.isRunning()).forEach(KafkaNode::start);
        }
    }
}
