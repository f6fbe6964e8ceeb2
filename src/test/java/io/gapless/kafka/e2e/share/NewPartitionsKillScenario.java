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
package io.gapless.kafka.e2e.share;

import io.gapless.kafka.core.spi.BaselineTopic;
import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.TestClients;
import io.gapless.kafka.testkit.TestTopics;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec;
import org.apache.kafka.clients.admin.NewPartitionReassignment;
import org.apache.kafka.clients.admin.SharePartitionOffsetInfo;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Issue 28's fault run with real kills: a plain {@code KafkaShareConsumer} group and a
 * {@code GaplessShareConsumer} group ({@code share.auto.offset.reset=latest},
 * {@code share.auto.offset.reset.new.partitions=earliest}), each of worker JVMs
 * ({@link ShareResetWorker}), driven by the same steps on one topic: history written before the
 * groups start (below the start both take), workers SIGKILLed and replaced between writes, the
 * broker leading the SDK group's baseline partition SIGKILLed and partitions added and written
 * while it is down (then restarted), the topic deleted and re-created with members running and
 * written again. Every record written after the groups started is above every valid start: the SDK
 * group must deliver each to the application at least once, and acknowledge nothing else unseen.
 */
final class NewPartitionsKillScenario {
    static final Duration WAIT = Duration.ofSeconds(60);
    private static final TopicPartition OFFSETS = new TopicPartition("__consumer_offsets", 0);
    private static final int HISTORY_PER_PARTITION = 10;

    private final EmbeddedKafka kafka;
    private final String mode;
    private final int workersPerGroup;
    private final Random random;
    private final String topic;
    private final Path logDir = Path.of("target", "e2e-logs");
    private final Set<String> expected = new LinkedHashSet<>();
    private final Side plain;
    private final Side sdk;
    private KafkaProducer<String, String> producer;
    private int brokerKills;
    private final List<String> steps = new ArrayList<>();

    NewPartitionsKillScenario(EmbeddedKafka kafka, String mode, int workersPerGroup, long seed) {
        this.kafka = kafka;
        this.mode = mode;
        this.workersPerGroup = workersPerGroup;
        this.random = new Random(seed);
        this.topic = TestTopics.unique("np-kill-" + mode);
        this.plain = new Side("plain", topic + "-plain");
        this.sdk = new Side("sdk", topic + "-sdk");
    }

    /** What the run leaves: records written after the start, which of them each group delivered, the SDK's counts. */
    record Result(int expected, Set<String> plainMissing, Set<String> sdkMissing, Set<String> sdkSawHistory, long sdkSkipped,
                  int history, int plainPollFailures, int sdkPollFailures, String firstSdkPollFailure, int workerKills,
                  int brokerKills, long sdkLag, List<String> steps) {
        @Override
        public String toString() {
            return "written after the start " + expected + ": plain delivered " + (expected - plainMissing.size()) + ", the SDK "
                    + (expected - sdkMissing.size()) + (sdkMissing.isEmpty() ? "" : " (missing " + sdkMissing + ")")
                    + "; history below the start " + history + ", SDK records-skipped-before-start-total " + sdkSkipped
                    + ", history delivered by the SDK " + sdkSawHistory.size() + "; poll failures plain " + plainPollFailures
                    + ", SDK " + sdkPollFailures + (firstSdkPollFailure == null ? "" : " (first: " + firstSdkPollFailure + ")")
                    + "; workers killed " + workerKills + ", brokers killed " + brokerKills + ", SDK group lag at the end " + sdkLag
                    + "; steps " + steps;
        }
    }

    Result run() throws Exception {
        Files.createDirectories(logDir);
        producer = TestClients.producer(kafka);
        try {
            kafka.createTopic(topic, 2);
            kafka.admin().incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.GROUP, plain.group),
                    List.of(new AlterConfigOp(new ConfigEntry("share.auto.offset.reset", "latest"), AlterConfigOp.OpType.SET))))
                    .all().get(30, TimeUnit.SECONDS);
            Set<String> history = new LinkedHashSet<>();
            for (int p = 0; p < 2; p++) {
                history.addAll(TestClients.produce(producer, topic, p, "history" + p, HISTORY_PER_PARTITION));
            }
            for (Side side : List.of(plain, sdk)) {
                for (int slot = 0; slot < workersPerGroup; slot++) {
                    side.workers.add(side.start(slot));
                }
            }
            joined();
            step("worker kills");
            for (int round = 0; round < 2; round++) {
                write(2, "kills" + round, 5);
                killOneWorkerEach();
            }
            awaitSdkSawAll();
            step("baseline leader killed, partitions added");
            int victim = killBaselineLeader();
            kafka.addPartitions(topic, 4);
            write(4, "grown", 5);
            killOneWorkerEach();
            awaitSdkSawAll();
            kafka.node(victim).start();
            write(4, "restarted", 3);
            awaitSdkSawAll();
            step("topic deleted and re-created");
            kafka.deleteTopics(topic);
            awaitUntil(() -> !topicExists(), "topic " + topic + " deleted");
            kafka.createTopic(topic, 2);
            write(2, "recreated", 5);
            killOneWorkerEach();
            write(2, "recreated-after-kill", 5);
            awaitSdkSawAll();
            long lag = awaitSdkLagZero();
            drainAll();
            return new Result(expected.size(), plain.missing(), sdk.missing(), intersect(sdk.seen, history), sdk.skipped,
                    history.size(), plain.pollFailures, sdk.pollFailures, sdk.firstPollFailure, plain.kills + sdk.kills, brokerKills,
                    lag, steps);
        } finally {
            for (Side side : List.of(plain, sdk)) {
                side.workers.forEach(WorkerProcess::kill);
                for (WorkerProcess w : side.workers) {
                    w.awaitExit();
                }
            }
            producer.close();
        }
    }

    private void step(String name) {
        steps.add(name);
        System.out.println("STEP " + mode + ": " + name + " (expected so far " + expected.size() + ")");
    }

    /** Probes to both partitions until each group delivered one of each: both groups have started on both partitions. */
    private void joined() {
        int[] probes = {0};
        awaitUntil(() -> {
            for (int p = 0; p < 2; p++) {
                TestClients.produce(producer, topic, p, "probe" + p + "n" + probes[0]++, 1);
            }
            drainAll();
            return plain.sawProbes() && sdk.sawProbes();
        }, "both groups delivering both partitions");
    }

    /** {@code count} records to each of the first {@code partitions} partitions; all of them are expected. */
    private void write(int partitions, String prefix, int count) {
        for (int p = 0; p < partitions; p++) {
            expected.addAll(TestClients.produce(producer, topic, p, prefix + "p" + p, count));
        }
    }

    /** The same step for both groups: one random worker of each SIGKILLed (Process.destroyForcibly) and replaced. */
    private void killOneWorkerEach() throws Exception {
        int slot = random.nextInt(workersPerGroup);
        for (Side side : List.of(plain, sdk)) {
            side.workers.get(slot).kill();
            side.workers.get(slot).awaitExit();
            side.kills++;
            side.dead.add(side.workers.get(slot));
            side.workers.set(slot, side.start(slot));
        }
    }

    /**
     * Moves the SDK group's baseline partition to one broker that does not coordinate the groups, waits until it
     * leads it, and SIGKILLs that broker: the baseline has no leader until it is restarted.
     */
    private int killBaselineLeader() throws Exception {
        TopicPartition baseline = new TopicPartition(BaselineTopic.PREFIX_DEFAULT + sdk.group, 0);
        int coordinator = kafka.awaitLeader(OFFSETS);
        int victim = kafka.nodes().stream().filter(n -> n.isBroker() && n.id() != coordinator).findFirst().orElseThrow().id();
        kafka.admin().alterPartitionReassignments(Map.of(baseline, Optional.of(new NewPartitionReassignment(List.of(victim)))))
                .all().get(60, TimeUnit.SECONDS);
        awaitUntil(() -> kafka.admin().listPartitionReassignments(Set.of(baseline)).reassignments().get(30, TimeUnit.SECONDS).isEmpty()
                && kafka.leaderOf(baseline) == victim, "baseline moved to broker " + victim);
        kafka.node(victim).kill();
        brokerKills++;
        awaitUntil(() -> kafka.leaderOf(baseline) == -1, "baseline leaderless");
        return victim;
    }

    /** Until the SDK group delivered every expected record, then up to 3 s more for the plain group (compared, not required). */
    private void awaitSdkSawAll() throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline && !sdk.seen.containsAll(expected)) {
            drainAll();
            Thread.sleep(100);
        }
        long plainDeadline = Math.min(deadline, System.nanoTime() + TimeUnit.SECONDS.toNanos(3));
        while (System.nanoTime() < plainDeadline && !plain.seen.containsAll(expected)) {
            drainAll();
            Thread.sleep(100);
        }
    }

    /** The SDK group's share-group lag over the topic's partitions, once 0 (or the last seen after the deadline). */
    private long awaitSdkLagZero() throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        long lag = -1;
        while (System.nanoTime() < deadline) {
            lag = lag(sdk.group);
            if (lag == 0) {
                return 0;
            }
            drainAll();
            Thread.sleep(300);
        }
        return lag;
    }

    private long lag(String group) throws Exception {
        List<TopicPartition> tps = new ArrayList<>();
        for (int p = 0; p < kafka.partitionCount(topic); p++) {
            tps.add(new TopicPartition(topic, p));
        }
        Map<TopicPartition, SharePartitionOffsetInfo> infos = kafka.admin()
                .listShareGroupOffsets(Map.of(group, new ListShareGroupOffsetsSpec().topicPartitions(tps)))
                .partitionsToOffsetInfo(group).get(30, TimeUnit.SECONDS);
        long lag = 0;
        for (TopicPartition tp : tps) {
            SharePartitionOffsetInfo info = infos.get(tp);
            if (info == null || info.lag().isEmpty()) {
                return -1;
            }
            lag += info.lag().get();
        }
        return lag;
    }

    private boolean topicExists() throws Exception {
        return kafka.admin().listTopics().names().get(30, TimeUnit.SECONDS).contains(topic);
    }

    private void drainAll() {
        plain.drain();
        sdk.drain();
    }

    private void awaitUntil(java.util.concurrent.Callable<Boolean> condition, String what) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        BooleanSupplier met = () -> {
            try {
                return condition.call();
            } catch (Exception e) {
                return false;
            }
        };
        while (!met.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + WAIT + ": " + what + "; " + mode + " plain " + plain.summary() + ", sdk "
                        + sdk.summary());
            }
            drainAll();
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    private static Set<String> intersect(Set<String> a, Set<String> b) {
        Set<String> out = new LinkedHashSet<>(a);
        out.retainAll(b);
        return out;
    }

    /** One group's workers and what the application saw over all their incarnations. */
    private final class Side {
        final String kind;
        final String group;
        final List<WorkerProcess> workers = new ArrayList<>();
        final List<WorkerProcess> dead = new ArrayList<>();
        final Set<String> seen = new LinkedHashSet<>();
        final Map<String, Integer> events = new TreeMap<>();
        long skipped;
        int pollFailures;
        String firstPollFailure;
        int kills;
        private int generation;

        Side(String kind, String group) {
            this.kind = kind;
            this.group = group;
        }

        WorkerProcess start(int slot) throws Exception {
            List<String> args = List.of("bootstrap=" + kafka.bootstrapServers(), "group=" + group, "topic=" + topic,
                    "id=" + group + "-" + slot + "-" + (++generation), "kind=" + kind, "mode=" + mode, "base=latest",
                    "new=earliest");
            return WorkerProcess.start(ShareResetWorker.class, slot, args, logDir.resolve(group + "-slot" + slot + ".log"));
        }

        void drain() {
            workers.forEach(this::drain);
            dead.forEach(this::drain);
        }

        private void drain(WorkerProcess w) {
            String event;
            while ((event = w.events.poll()) != null) {
                String what = event.split(" ")[0];
                events.merge(what, 1, Integer::sum);
                String rest = event.substring(what.length()).trim();
                switch (what) {
                    case "SEEN" -> seen.addAll(List.of(rest.split(",")));
                    case "SKIPPED" -> skipped += Long.parseLong(rest);
                    case "POLLFAIL" -> {
                        pollFailures++;
                        if (firstPollFailure == null) {
                            firstPollFailure = rest;
                        }
                    }
                    default -> {
                    }
                }
            }
        }

        boolean sawProbes() {
            return seen.stream().anyMatch(v -> v.startsWith("probe0")) && seen.stream().anyMatch(v -> v.startsWith("probe1"));
        }

        Set<String> missing() {
            Set<String> m = new LinkedHashSet<>(expected);
            m.removeAll(seen);
            return m;
        }

        String summary() {
            return "seen " + seen.size() + ", events " + events;
        }
    }
}
