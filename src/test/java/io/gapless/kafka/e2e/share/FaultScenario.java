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

import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.TestTopics;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * One fault-injection run: a share group of worker JVMs copying an input topic to an output topic
 * transactionally while one kind of fault is injected {@code repetitions} times with random
 * timings; then the faults stop, the group drains, and the output and the group are inspected.
 */
final class FaultScenario {
    private static final int SLOTS = 3;
    private static final int LOCK_MS = 1500;
    private static final Duration RUN_LIMIT = Duration.ofSeconds(150);

    private final EmbeddedKafka kafka;
    private final Fault fault;
    private final String fallback;
    private final int repetitions;
    private final Random random;
    private final String name;
    private final String input;
    private final String output;
    private final String group;
    private final String ledger;
    private final Path logDir;
    private final WorkerProcess[] workers = new WorkerProcess[SLOTS];
    private final WorkerProcess[] zombieOf = new WorkerProcess[SLOTS];
    private final List<WorkerProcess> zombies = new ArrayList<>();
    private final Map<String, Integer> eventCounts = new TreeMap<>();
    private final ShareRunTopics topics;
    private int injected;
    private int sigstops;
    private int generation;
    private boolean injecting = true;

    FaultScenario(EmbeddedKafka kafka, Fault fault, String fallback, int repetitions, long seed) {
        this.kafka = kafka;
        this.fault = fault;
        this.fallback = fallback;
        this.repetitions = repetitions;
        this.random = new Random(seed);
        this.name = TestTopics.unique(fault.name().toLowerCase().replace('_', '-'));
        this.input = name + "-in";
        this.output = name + "-out";
        this.group = name + "-group";
        this.ledger = name + "-ledger";
        this.logDir = Path.of("target", "e2e-logs");
        this.topics = new ShareRunTopics(kafka, input, 1, output, group);
    }

    /** What a run leaves behind, as a user would check it. */
    record Result(int produced, Map<String, Integer> outputCounts, boolean allAcknowledged, int injected, int sigstops,
                  Map<String, Integer> events) {
        List<String> missing() {
            List<String> m = new ArrayList<>();
            for (int i = 0; i < produced; i++) {
                if (!outputCounts.containsKey("v" + i)) {
                    m.add("v" + i);
                }
            }
            return m;
        }

        Map<String, Integer> duplicates() {
            Map<String, Integer> d = new TreeMap<>();
            outputCounts.forEach((v, n) -> {
                if (n > 1) {
                    d.put(v, n);
                }
            });
            return d;
        }

        @Override
        public String toString() {
            return "produced=" + produced + ", distinct out=" + outputCounts.size() + ", missing=" + missing()
                    + ", duplicates=" + duplicates() + ", allAcknowledged=" + allAcknowledged + ", injected=" + injected
                    + ", sigstops=" + sigstops + ", events=" + events;
        }
    }

    Result run() throws Exception {
        Files.createDirectories(logDir);
        topics.create(LOCK_MS, 10);
        WorkerProcess.prepareArchive(List.of("bootstrap=" + kafka.bootstrapServers(), "input=" + input, "output=" + output,
                "group=" + name + "-warmup", "ledger=" + ledger, "txn=" + name + "-warmup", "id=" + name + "-warmup",
                "fallback=" + fallback));
        topics.produce(18);
        for (int i = 0; i < SLOTS; i++) {
            workers[i] = startWorker(i, true);
        }
        long deadline = System.nanoTime() + RUN_LIMIT.toNanos();
        long nextChurn = System.nanoTime() + millis(400, 1200);
        long nextLagCheck = 0;
        boolean drained = false;
        try {
            while (System.nanoTime() < deadline) {
                superviseWorkers();
                superviseZombies();
                if (injecting && fault == Fault.MEMBER_CHURN && System.nanoTime() >= nextChurn) {
                    WorkerProcess victim = workers[random.nextInt(SLOTS)];
                    if (victim.alive()) {
                        victim.kill();
                        injected++;
                    }
                    nextChurn = System.nanoTime() + millis(300, 1500);
                }
                if (injecting && fault == Fault.LOCK_EXPIRY && sigstops < 2 && injected >= 3 * (sigstops + 1)) {
                    pauseWithSigstop();
                }
                if (injecting && injected >= repetitions) {
                    stopInjecting();
                }
                if (System.nanoTime() >= nextLagCheck) {
                    nextLagCheck = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(300);
                    long lag = topics.lag();
                    if (injecting && lag >= 0 && lag <= 6) {
                        topics.produce(9);
                    } else if (!injecting && lag == 0 && topics.committedValues().size() >= topics.produced()) {
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
            zombies.forEach(WorkerProcess::kill);
            for (WorkerProcess w : workers) {
                w.awaitExit();
            }
        }
        Map<String, Integer> counts = new TreeMap<>();
        for (String v : topics.committedValues()) {
            counts.merge(v, 1, Integer::sum);
        }
        return new Result(topics.produced(), counts, drained && topics.lag() == 0, injected, sigstops, eventCounts);
    }

    private void superviseWorkers() throws Exception {
        for (int i = 0; i < SLOTS; i++) {
            WorkerProcess w = workers[i];
            String event;
            while ((event = w.events.poll()) != null) {
                onEvent(i, w, event);
            }
            if (!w.alive() && zombieOf[i] != w) {
                int code = w.process.exitValue();
                if (fault.halts() && code == ShareCtpWorker.HALT_EXIT && injecting) {
                    injected++;
                }
                if (code == ShareCtpWorker.FENCED_EXIT && fault == Fault.LOCK_EXPIRY && injecting) {
                    injected++;
                }
                workers[i] = startWorker(i, injecting);
            }
        }
    }

    private void onEvent(int slot, WorkerProcess w, String event) {
        String kind = event.split(" ")[0];
        if (kind.equals("ABORTED")) {
            kind = event.split("[ :]")[0] + " " + event.split("[ :]")[1];
        }
        eventCounts.merge(kind, 1, Integer::sum);
        if (!injecting) {
            return;
        }
        switch (fault) {
            case EXPLICIT_ABORT -> {
                if (event.startsWith("ABORTED explicit")) {
                    injected++;
                }
            }
            case PARTIAL_PRODUCE_FAILURE -> {
                if (event.startsWith("PARTIAL")) {
                    injected++;
                }
            }
            case LOCK_EXPIRY -> {
                if (event.startsWith("ABORTED InvalidRecordStateException")) {
                    injected++;
                }
            }
            case FENCED_ZOMBIE -> {
                if (event.startsWith("STALLED") && zombieOf[slot] == null) {
                    // Start the successor with the same transactional.id while the zombie holds its transaction.
                    zombieOf[slot] = w;
                    zombies.add(w);
                    try {
                        workers[slot] = startWorker(slot, true);
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                } else if (event.startsWith("READY") && zombieOf[slot] != null && zombieOf[slot] != w) {
                    zombieOf[slot].command("go");
                    zombieOf[slot] = null;
                }
            }
            default -> {
            }
        }
    }

    private void superviseZombies() {
        for (Iterator<WorkerProcess> it = zombies.iterator(); it.hasNext(); ) {
            WorkerProcess z = it.next();
            String event;
            while ((event = z.events.poll()) != null) {
                eventCounts.merge("zombie " + event.split(" ")[0], 1, Integer::sum);
            }
            if (!z.alive()) {
                if (z.process.exitValue() == ShareCtpWorker.FENCED_EXIT && injecting) {
                    injected++;
                }
                it.remove();
            }
        }
    }

    /** SIGSTOP a worker past its lock, then SIGCONT: the same expiry seen from outside the process. */
    private void pauseWithSigstop() throws Exception {
        WorkerProcess victim = workers[random.nextInt(SLOTS)];
        if (!victim.alive()) {
            return;
        }
        victim.signal("STOP");
        sigstops++;
        // The pause length is the injected fault (longer than the lock), not a wait for a result.
        Thread.sleep(LOCK_MS + millisPlain(500, 1500));
        victim.signal("CONT");
    }

    private void stopInjecting() throws Exception {
        injecting = false;
        // From here on every worker is fault-free; a zombie still stalled is released (and fenced).
        for (int i = 0; i < SLOTS; i++) {
            if (zombieOf[i] != null) {
                zombieOf[i].command("go");
                zombieOf[i] = null;
            }
            workers[i].command("clean");
        }
    }

    private WorkerProcess startWorker(int slot, boolean faulty) throws Exception {
        List<String> args = new ArrayList<>(List.of(
                "bootstrap=" + kafka.bootstrapServers(), "input=" + input, "output=" + output, "group=" + group,
                "ledger=" + ledger, "txn=" + name + "-txn-" + slot, "id=" + name + "-" + slot + "-" + (++generation),
                "fallback=" + fallback, "seed=" + random.nextLong()));
        if (faulty) {
            for (String a : fault.workerArgs) {
                if (a.startsWith("stall=") && !a.equals("stall=stdin")) {
                    args.add("stall=" + (LOCK_MS + millisPlain(700, 2000)));
                } else {
                    args.add(a);
                }
            }
            args.add("after=" + random.nextInt(2));
        }
        return WorkerProcess.start(slot, args, logDir.resolve(name + "-slot" + slot + ".log"));
    }

    private long millis(int min, int max) {
        return TimeUnit.MILLISECONDS.toNanos(millisPlain(min, max));
    }

    private int millisPlain(int min, int max) {
        return min + random.nextInt(max - min);
    }
}
