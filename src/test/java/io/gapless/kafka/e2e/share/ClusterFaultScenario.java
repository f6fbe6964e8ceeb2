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

import io.gapless.kafka.core.spi.StateTopics;
import io.gapless.kafka.share.GaplessShareConfig;
import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.KafkaNode;
import io.gapless.kafka.testkit.TestTopics;
import org.apache.kafka.common.TopicPartition;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * One run of the broker fault suite on a three-node cluster whose brokers run in child JVMs: three
 * worker JVMs copy an input topic of {@value #PARTITIONS} partitions to an output topic
 * transactionally (every {@value #REJECT_EVERY}th record REJECTed, with no output), with a
 * delivery limit of {@value #DELIVERY_LIMIT}, each worker incarnation with a fresh
 * {@code transactional.id} (so a dead incarnation is fenced by the SDK, or its open transaction
 * waited out, never by its successor); one kind of fault is injected {@code repetitions} times;
 * then the faults stop, the group drains, and the output and the group are inspected.
 */
final class ClusterFaultScenario {
    static final int PARTITIONS = 3;
    static final int DELIVERY_LIMIT = 4;
    static final int REJECT_EVERY = 7;
    private static final int SLOTS = 3;
    // Long enough that commits on a loaded machine finish inside the lock (each expiry spends one of the few deliveries).
    private static final int LOCK_MS = 5000;
    private static final java.util.regex.Pattern ARCHIVED_WARNING = java.util.regex.Pattern.compile("archived (\\d+) record");
    private static final Duration RUN_LIMIT = Duration.ofSeconds(300);

    /** The faults of this suite. */
    enum Kind {
        /**
         * A worker is paused with its ledger entry written in the open transaction while the leader of
         * one of the input, output, ledger, {@code __transaction_state} and {@code __share_group_state}
         * partitions is SIGKILLed (a broker that leads several of them at once covers them all); it goes on
         * during the failover; the broker is restarted. Repeated until each of those partitions lost its
         * leader once, and at least {@code repetitions} times.
         */
        LEADER_KILLS,
        /**
         * Workers halt at every step of the commit: before begin, after send, after staging, with the
         * ledger entry written, checked, inside commitTransaction (EndTxn sent to a frozen transaction
         * coordinator, which is then resumed or killed), committed, acknowledged, during a snapshot and
         * during its deleteRecords.
         */
        HALTS,
        /** A worker stalls past its lock with its ledger entry written; another member takes the records over. */
        LOCK_EXPIRY_AFTER_ENTRY
    }

    /** The halt points of {@link Kind#HALTS}, in order; inside-commit twice (coordinator resumed, then killed). */
    static final List<String> HALT_POINTS = List.of("before-begin", "after-send", "after-stage", "ledger-written", "checked",
            "inside-commit", "committed", "acknowledged", "snapshot-written", "snapshot-delete-issued", "inside-commit");

    private final EmbeddedKafka kafka;
    private final Kind kind;
    private final int repetitions;
    private final Random random;
    private final String name;
    private final String input;
    private final String output;
    private final String group;
    private final ShareRunTopics topics;
    private final Path logDir = Path.of("target", "e2e-logs");
    private final WorkerProcess[] workers = new WorkerProcess[SLOTS];
    private final Map<String, Integer> eventCounts = new TreeMap<>();
    private final List<String> injections = new ArrayList<>();
    private final ExecutorService recovery = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "broker-recovery");
        t.setDaemon(true);
        return t;
    });
    private Future<?> recovering;
    private int generation;
    // Halt points not yet injected; a worker that died otherwise gives its point back.
    private final java.util.Deque<String> haltsToGo = new java.util.ArrayDeque<>();
    private final String[] haltOf = new String[SLOTS];
    private int injected;
    // LEADER_KILLS: the partitions whose leader has not been killed yet (a kill covers every one its node led).
    private final java.util.Set<TopicPartition> leadersToKill = new java.util.LinkedHashSet<>();
    private long archived;
    private boolean injecting = true;
    private boolean armed;

    ClusterFaultScenario(EmbeddedKafka kafka, Kind kind, int repetitions, long seed) {
        this.kafka = kafka;
        this.kind = kind;
        this.repetitions = repetitions;
        this.random = new Random(seed);
        this.name = TestTopics.unique(kind.name().toLowerCase().replace('_', '-'));
        this.input = name + "-in";
        this.output = name + "-out";
        this.group = name + "-group";
        this.topics = new ShareRunTopics(kafka, input, PARTITIONS, output, group);
        if (kind == Kind.LEADER_KILLS) {
            leadersToKill.addAll(killTargets());
        }
        if (kind == Kind.HALTS) {
            for (int round = 0; round < Math.max(1, repetitions / HALT_POINTS.size()); round++) {
                haltsToGo.addAll(HALT_POINTS);
            }
        }
    }

    /** What a run leaves behind, as a user would check it. */
    record Result(int produced, Map<String, Integer> outputCounts, boolean allAcknowledged, int injected, long archived,
                  List<String> injections, List<String> leadersNotKilled, Map<String, Integer> events, Duration took) {

        static boolean rejected(int i) {
            return i % REJECT_EVERY == 0;
        }

        int rejectedCount() {
            int n = 0;
            for (int i = 0; i < produced; i++) {
                n += rejected(i) ? 1 : 0;
            }
            return n;
        }

        /** Accepted records with no output: lost (archived without output, or acknowledged without it). */
        List<String> missing() {
            List<String> m = new ArrayList<>();
            for (int i = 0; i < produced; i++) {
                if (!rejected(i) && !outputCounts.containsKey("v" + i)) {
                    m.add("v" + i);
                }
            }
            return m;
        }

        /** Records in the output more than once, or REJECTed records in it at all. */
        Map<String, Integer> duplicates() {
            Map<String, Integer> d = new TreeMap<>();
            outputCounts.forEach((v, n) -> {
                if (n > 1 || rejected(Integer.parseInt(v.substring(1)))) {
                    d.put(v, n);
                }
            });
            return d;
        }

        @Override
        public String toString() {
            return "produced=" + produced + " (rejected " + rejectedCount() + "), distinct out=" + outputCounts.size() + ", missing="
                    + missing() + ", duplicates=" + duplicates() + ", allAcknowledged=" + allAcknowledged + ", injected=" + injected
                    + " " + injections + ", leadersNotKilled=" + leadersNotKilled + ", archivedByDeliveryLimit=" + archived + ", took=" + took.toSeconds() + "s, events=" + events;
        }
    }

    Result run() throws Exception {
        long began = System.nanoTime();
        Files.createDirectories(logDir);
        topics.create(LOCK_MS, DELIVERY_LIMIT);
        WorkerProcess.prepareArchive(List.of("bootstrap=" + kafka.bootstrapServers(), "input=" + input, "output=" + output,
                "group=" + name + "-warmup", "txn=" + name + "-warmup", "id=" + name + "-warmup",
                "fallback=" + GaplessShareConfig.FALLBACK_EMULATE));
        topics.produce(30);
        for (int i = 0; i < SLOTS; i++) {
            workers[i] = startWorker(i);
        }
        long deadline = System.nanoTime() + RUN_LIMIT.toNanos();
        long nextLagCheck = 0;
        boolean drained = false;
        try {
            while (System.nanoTime() < deadline) {
                supervise();
                if (injecting && kind == Kind.LEADER_KILLS) {
                    armForTheNextKill();
                }
                if (injecting && injected >= repetitions && leadersToKill.isEmpty() && (recovering == null || recovering.isDone())) {
                    stopInjecting();
                }
                if (System.nanoTime() >= nextLagCheck) {
                    nextLagCheck = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(500);
                    long lag = topics.lag();
                    if (injecting && lag >= 0 && lag <= 9) {
                        topics.produce(15);
                    } else if (!injecting && lag == 0 && topics.committedValues().size() >= topics.produced() - rejectedSoFar()) {
                        drained = true;
                        break;
                    }
                }
                Thread.sleep(50);
            }
        } finally {
            for (WorkerProcess w : workers) {
                w.kill();
            }
            for (WorkerProcess w : workers) {
                w.awaitExit();
            }
            if (recovering != null) {
                recovering.get(120, TimeUnit.SECONDS);
            }
            recovery.shutdownNow();
        }
        Map<String, Integer> counts = new TreeMap<>();
        for (String v : topics.committedValues()) {
            counts.merge(v, 1, Integer::sum);
        }
        return new Result(topics.produced(), counts, drained && topics.lag() == 0, injected, archived, injections,
                leadersToKill.stream().map(TopicPartition::toString).toList(), eventCounts,
                Duration.ofNanos(System.nanoTime() - began));
    }

    private int rejectedSoFar() {
        int n = 0;
        for (int i = 0; i < topics.produced(); i++) {
            n += Result.rejected(i) ? 1 : 0;
        }
        return n;
    }

    private void supervise() throws Exception {
        for (int i = 0; i < SLOTS; i++) {
            WorkerProcess w = workers[i];
            String event;
            while ((event = w.events.poll()) != null) {
                onEvent(i, w, event);
            }
            if (!w.alive()) {
                if (haltOf[i] != null) {
                    if (w.process.exitValue() == ShareCtpWorker.HALT_EXIT) {
                        injected++;
                    } else {
                        haltsToGo.addFirst(haltOf[i]);
                    }
                    haltOf[i] = null;
                }
                if (i == 0) {
                    armed = false;
                }
                workers[i] = startWorker(i);
            }
        }
    }

    private void onEvent(int slot, WorkerProcess w, String event) throws Exception {
        String label = event.split("[ :]")[0];
        eventCounts.merge(label.equals("ABORTED") || label.equals("HALT") || label.equals("STALLED") ? event.split("[:(]")[0].trim()
                : label, 1, Integer::sum);
        java.util.regex.Matcher archivedWarning = ARCHIVED_WARNING.matcher(event);
        if (event.startsWith("ARCHIVED-WARN ") && archivedWarning.find()) {
            archived += Long.parseLong(archivedWarning.group(1));
            injections.add("ARCHIVED (slot " + slot + "): " + event.substring(event.indexOf(" - ") + 3));
        }
        if (event.startsWith("PAUSED ledger-written")) {
            killALeaderMidTransaction(w);
        } else if (event.startsWith("FREEZE")) {
            endTxnWithoutAnswer(w);
        } else if (event.startsWith("STALLED ledger-written") && injecting) {
            injected++;
            injections.add("stall past the lock after the ledger entry (slot " + slot + ")");
        } else if (event.startsWith("HALT ") && !event.startsWith("HALT inside-commit") && injecting) {
            // (endTxnWithoutAnswer records the inside-commit halts itself.)
            injections.add(event.substring(5));
        }
    }

    /** The partitions whose leaders {@link Kind#LEADER_KILLS} kills, in turn. */
    private List<TopicPartition> killTargets() {
        return List.of(new TopicPartition(input, 0), new TopicPartition(output, 0),
                new TopicPartition(StateTopics.forGroup(GaplessShareConfig.LEDGER_TOPIC_PREFIX_DEFAULT, group), 0),
                new TopicPartition("__transaction_state", 0), new TopicPartition("__share_group_state", 0));
    }

    private void armForTheNextKill() {
        if (!armed && (recovering == null || recovering.isDone()) && (injected < repetitions || !leadersToKill.isEmpty())
                && workers[0].alive()) {
            workers[0].command("arm");
            armed = true;
        }
    }

    // The paused worker has its ledger entry written in an open transaction: kill a leader now, let it go on during the failover.
    private void killALeaderMidTransaction(WorkerProcess w) throws Exception {
        armed = false;
        if (!injecting) {
            w.command("go");
            return;
        }
        // The next partition whose leader was not killed yet; once all were, round robin.
        TopicPartition target = leadersToKill.isEmpty() ? killTargets().get(injected % killTargets().size())
                : leadersToKill.iterator().next();
        int leader = kafka.leaderOf(target);
        KafkaNode node = kafka.node(leader);
        List<TopicPartition> led = killTargets().stream().filter(tp -> kafka.leaderOf(tp) == leader).toList();
        node.kill();
        led.forEach(leadersToKill::remove);
        injected++;
        injections.add("node " + leader + " killed, leader of " + led);
        w.command("go");
        recovering = recovery.submit(() -> {
            kafka.awaitLeader(target, id -> id != leader);
            node.start();
            for (TopicPartition tp : killTargets()) {
                kafka.awaitFullyInSync(tp);
            }
            return null;
        });
    }

    // The worker stopped before commitTransaction(): freeze its transaction coordinator, let the EndTxn go out unanswered.
    private void endTxnWithoutAnswer(WorkerProcess w) throws Exception {
        int coordinator = kafka.leaderOf(new TopicPartition("__transaction_state", 0));
        KafkaNode node = kafka.node(coordinator);
        node.pause();
        w.command("go " + coordinator);
        boolean halted = w.process.waitFor(30, TimeUnit.SECONDS);
        // Alternately the coordinator answers late (the commit completes with nobody to acknowledge) or dies (it times out).
        boolean kill = injections.stream().filter(s -> s.startsWith("inside-commit:")).count() % 2 == 1;
        if (kill) {
            node.kill();
            recovering = recovery.submit(() -> {
                node.start();
                for (TopicPartition tp : killTargets()) {
                    kafka.awaitFullyInSync(tp);
                }
                return null;
            });
        } else {
            node.resume();
        }
        injections.add("inside-commit: EndTxn sent to node " + coordinator + (halted ? "" : " (worker did not halt)") + ", coordinator "
                + (kill ? "killed" : "resumed"));
        if (kill) {
            recovering.get(120, TimeUnit.SECONDS);
        }
    }

    private void stopInjecting() {
        injecting = false;
        for (WorkerProcess w : workers) {
            w.command("clean");
            // A worker paused for a kill that will not come goes on.
            w.command("go");
        }
    }

    private WorkerProcess startWorker(int slot) throws Exception {
        int incarnation = ++generation;
        List<String> args = new ArrayList<>(List.of(
                "bootstrap=" + kafka.bootstrapServers(), "input=" + input, "output=" + output, "group=" + group,
                // A fresh transactional.id per incarnation: nothing but the SDK fences a dead predecessor.
                "txn=" + name + "-txn-" + slot + "-" + incarnation, "id=" + name + "-" + slot + "-" + incarnation,
                "fallback=" + GaplessShareConfig.FALLBACK_EMULATE, "seed=" + random.nextLong(), "reject=" + REJECT_EVERY,
                "snapshotBytes=1024"));
        if (injecting) {
            switch (kind) {
                case LEADER_KILLS -> {
                    if (slot == 0) {
                        args.add("pause=ledger-written");
                    }
                }
                case HALTS -> {
                    String point = nextHaltPoint(slot);
                    haltOf[slot] = point;
                    if (point != null) {
                        args.add("halt=" + point);
                        args.add("after=" + (1 + random.nextInt(2)));
                    }
                }
                case LOCK_EXPIRY_AFTER_ENTRY -> {
                    args.add("stallAt=ledger-written:" + (LOCK_MS + 1500));
                    args.add("after=" + (1 + random.nextInt(2)));
                }
            }
        }
        WorkerProcess w = WorkerProcess.start(slot, args, logDir.resolve(name + "-slot" + slot + ".log"));
        if (slot == 0 && kind == Kind.LEADER_KILLS) {
            armed = false;
        }
        return w;
    }

    // Inside-commit freezes the one transaction coordinator: only slot 0 gets it, so two freezes never overlap.
    private String nextHaltPoint(int slot) {
        for (java.util.Iterator<String> it = haltsToGo.iterator(); it.hasNext(); ) {
            String point = it.next();
            if (!point.equals("inside-commit") || slot == 0) {
                it.remove();
                return point;
            }
        }
        return null;
    }
}
