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

import io.gapless.kafka.share.GaplessShareConfig;
import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.TestTopics;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.common.TopicPartition;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Issue 22's contention run with real kills: two worker JVMs of one share group alive at once
 * (consumer and transactional producer each), 1 s locks, delivery limit 2, a ledger snapshot after
 * every commit, commits now and then stalled past the lock (the other worker gets the records, the
 * stale holder commits late), workers SIGKILLed at random points and replaced, and
 * {@code deleteRecords} on the input while they run. Every worker prints each poll's offsets and
 * delivery counts, so that a record missing from the output can be told apart: gone below a
 * truncation, archived by the delivery limit (with the SDK's WARN, or while its last holder was
 * being killed) or lost.
 */
final class ContentionKillScenario {
    private static final int SLOTS = 2;
    private static final int LOCK_MS = 1000;
    private static final int DELIVERY_LIMIT = 2;
    private static final Pattern ARCHIVED = Pattern.compile("-0@(\\d+) \\(delivery");

    private final EmbeddedKafka kafka;
    private final String ack;
    /** deleteRecords into the batch just written (records unread or acquired), or only up to the group's start offset. */
    private final boolean intoInFlight;
    private final int records;
    private final int kills;
    private final Duration runLimit;
    private final Random random;
    private final String name;
    private final String input;
    private final String output;
    private final String group;
    private final String ledger;
    private final Path logDir = Path.of("target", "e2e-logs");
    private final ShareRunTopics topics;
    private final WorkerProcess[] workers = new WorkerProcess[SLOTS];
    private final List<WorkerProcess> dying = new ArrayList<>();
    private final Set<WorkerProcess> killedByTest = new HashSet<>();
    /** Workers that exited during the run on their own (a fenced worker halts). */
    private final Set<WorkerProcess> died = new HashSet<>();
    /** offset -> highest delivery count a worker reported; offset -> the worker process of that delivery. */
    private final Map<Long, Integer> deliveries = new HashMap<>();
    private final Map<Long, WorkerProcess> lastHolder = new HashMap<>();
    private final Set<Long> warnedArchived = new TreeSet<>();
    private final Map<String, Integer> eventCounts = new TreeMap<>();
    /** Each worker's last event kind: POLLING when it was killed inside a poll. */
    private final Map<WorkerProcess, String> lastEvent = new HashMap<>();
    /** A ready worker's time to be killed (System.nanoTime()). */
    private final Map<WorkerProcess, Long> killAt = new HashMap<>();
    private int generation;
    private int killed;
    private long truncatedBelow;
    private int truncations;
    private String diagnosis = "";

    ContentionKillScenario(EmbeddedKafka kafka, String ack, boolean intoInFlight, int records, int kills, Duration runLimit,
                           long seed) {
        this.kafka = kafka;
        this.intoInFlight = intoInFlight;
        this.ack = ack;
        this.records = records;
        this.kills = kills;
        this.runLimit = runLimit;
        this.random = new Random(seed);
        this.name = TestTopics.unique("contention-kill-" + ack);
        this.input = name + "-in";
        this.output = name + "-out";
        this.group = name + "-group";
        this.ledger = name + "-ledger";
        this.topics = new ShareRunTopics(kafka, input, 1, output, group);
    }

    /** What a run leaves behind: the read_committed output and how every missing input went. */
    record Result(int produced, long truncatedBelow, Map<String, Integer> outputCounts, Set<Long> warnedArchived,
                  Set<Long> archivedWhileKilled, List<Long> archivedWithoutWarn, List<Long> archivedInKilledPolls,
                  int killedInPoll, List<Long> lost, int killed, int truncations,
                  boolean drained, String diagnosis, Map<String, Integer> events) {
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
            return "produced=" + produced + ", truncated below " + truncatedBelow + " (" + truncations + " deleteRecords)"
                    + ", distinct out=" + outputCounts.size() + ", duplicates=" + duplicates() + ", archived with WARN="
                    + warnedArchived.size() + " " + warnedArchived + ", archived while the holder was killed or halted="
                    + archivedWhileKilled.size() + " " + archivedWhileKilled + ", archived without WARN=" + archivedWithoutWarn
                    + ", never reported in their last deliveries (killed inside a poll: " + killedInPoll + ")="
                    + archivedInKilledPolls + ", lost=" + lost + ", killed=" + killed + ", drained=" + drained + (drained ? "" : " (" + diagnosis + ")")
                    + ", events=" + events;
        }
    }

    Result run() throws Exception {
        Files.createDirectories(logDir);
        topics.create(LOCK_MS, DELIVERY_LIMIT);
        WorkerProcess.prepareArchive(List.of("bootstrap=" + kafka.bootstrapServers(), "input=" + input, "output=" + output,
                "group=" + name + "-warmup", "ledger=" + ledger, "txn=" + name + "-warmup", "id=" + name + "-warmup",
                "fallback=" + GaplessShareConfig.FALLBACK_EMULATE));
        topics.produce(Math.min(records, 30));
        for (int i = 0; i < SLOTS; i++) {
            workers[i] = startWorker(i, true);
        }
        long deadline = System.nanoTime() + runLimit.toNanos();
        long nextLagCheck = 0;
        boolean injecting = true;
        boolean drained = false;
        try {
            while (System.nanoTime() < deadline) {
                supervise(injecting);
                if (injecting) {
                    killDue();
                }
                if (System.nanoTime() >= nextLagCheck) {
                    nextLagCheck = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(300);
                    long lag = topics.lag();
                    if (injecting && lag >= 0 && lag <= 6 && topics.produced() < records) {
                        topics.produce(Math.min(15, records - topics.produced()));
                        if (truncations < 2 && topics.produced() >= (truncations + 1) * records / 3) {
                            truncate();
                        }
                    }
                    if (injecting && killed >= kills && truncations >= 2 && topics.produced() >= records) {
                        injecting = false;
                        for (WorkerProcess w : workers) {
                            w.command("clean");
                        }
                    } else if (!injecting && lag == 0) {
                        drained = true;
                        break;
                    }
                }
                Thread.sleep(50);
            }
        } finally {
            if (!drained) {
                diagnosis = diagnose();
            }
            for (WorkerProcess w : workers) {
                w.kill();
            }
            for (WorkerProcess w : workers) {
                w.awaitExit();
            }
            for (WorkerProcess w : dying) {
                w.awaitExit();
            }
            for (WorkerProcess w : workers) {
                drain(w);
            }
            dying.forEach(this::drain);
        }
        return result(drained);
    }

    /**
     * A run that did not drain: Kafka's view of the group, then what a plain {@code KafkaShareConsumer} joining the
     * group gets in 10 s (records for it: the workers were wedged; none: the broker does not deliver them).
     */
    private String diagnose() {
        StringBuilder d = new StringBuilder();
        for (WorkerProcess w : workers) {
            if (w.alive()) {
                // The live workers' threads, next to their logs: where a member that delivers nothing waits.
                Path dump = logDir.resolve(name + "-slot" + w.slot + "-threads.txt");
                try {
                    new ProcessBuilder("jcmd", Long.toString(w.process.pid()), "Thread.print").redirectErrorStream(true)
                            .redirectOutput(dump.toFile()).start().waitFor(30, TimeUnit.SECONDS);
                    d.append("threads of a live worker in ").append(dump).append("; ");
                } catch (Exception e) {
                    d.append("no thread dump: ").append(e).append("; ");
                }
            }
        }
        try {
            d.append("group offsets ").append(kafka.admin()
                    .listShareGroupOffsets(Map.of(group, new org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec()))
                    .partitionsToOffsetInfo(group).get(10, TimeUnit.SECONDS));
            d.append(", log start ").append(kafka.admin().listOffsets(Map.of(new TopicPartition(input, 0),
                    org.apache.kafka.clients.admin.OffsetSpec.earliest())).all().get(10, TimeUnit.SECONDS));
        } catch (Exception e) {
            d.append("group offsets unknown: ").append(e);
        }
        Map<String, Object> cfg = new HashMap<>();
        cfg.put("bootstrap.servers", kafka.bootstrapServers());
        cfg.put("group.id", group);
        List<Long> got = new ArrayList<>();
        try (org.apache.kafka.clients.consumer.KafkaShareConsumer<String, String> plain = new org.apache.kafka.clients.consumer.KafkaShareConsumer<>(
                cfg, new org.apache.kafka.common.serialization.StringDeserializer(), new org.apache.kafka.common.serialization.StringDeserializer())) {
            plain.subscribe(List.of(input));
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (System.nanoTime() < until) {
                plain.poll(Duration.ofMillis(200)).forEach(r -> got.add(r.offset()));
            }
        }
        return d.append("; a plain KafkaShareConsumer joining the group got offsets ").append(got).toString();
    }

    /**
     * SIGKILLs (Process.destroyForcibly) a worker whose random time has come: 1 to 5 s after it was ready, and
     * only while the other slot's worker is ready too (two members of the group alive at once up to the kill).
     */
    private void killDue() {
        for (int i = 0; i < SLOTS; i++) {
            WorkerProcess victim = workers[i];
            Long at = killAt.get(victim);
            boolean othersReady = true;
            for (int j = 0; j < SLOTS; j++) {
                othersReady &= j == i || killAt.containsKey(workers[j]) && workers[j].alive();
            }
            if (at != null && System.nanoTime() >= at && othersReady && victim.alive()) {
                victim.kill();
                killAt.remove(victim);
                killedByTest.add(victim);
                killed++;
                return;
            }
        }
    }

    /** deleteRecords below a point among the records in flight: what is below is gone for every consumer alike. */
    private void truncate() throws Exception {
        long before;
        if (intoInFlight) {
            // Into the batch just written: some of it is gone unread, some is already acquired by a worker.
            before = topics.produced() - 4 - random.nextInt(8);
        } else {
            // Up to the group's start offset: what only stale holders (lock expired, archived, taken over) still hold.
            before = kafka.admin().listShareGroupOffsets(Map.of(group, new org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec()
                            .topicPartitions(List.of(new TopicPartition(input, 0)))))
                    .partitionsToOffsetInfo(group).get(10, TimeUnit.SECONDS).get(new TopicPartition(input, 0)).startOffset();
        }
        before = Math.max(truncatedBelow, before);
        kafka.admin().deleteRecords(Map.of(new TopicPartition(input, 0), RecordsToDelete.beforeOffset(before)))
                .all().get(30, TimeUnit.SECONDS);
        truncatedBelow = before;
        truncations++;
    }

    private void supervise(boolean injecting) throws Exception {
        for (int i = 0; i < SLOTS; i++) {
            drain(workers[i]);
            if (!workers[i].alive()) {
                died.add(workers[i]);
            }
            if (!workers[i].alive() && injecting) {
                dying.add(workers[i]);
                workers[i] = startWorker(i, true);
            } else if (!workers[i].alive()) {
                dying.add(workers[i]);
                workers[i] = startWorker(i, false);
            }
        }
        // A killed worker's last lines are still in its pipe.
        dying.forEach(this::drain);
    }

    private void drain(WorkerProcess w) {
        String event;
        while ((event = w.events.poll()) != null) {
            String kind = event.split("[ :]")[0];
            lastEvent.put(w, kind);
            if (kind.equals("POLLING")) {
                continue;
            }
            eventCounts.merge(kind, 1, Integer::sum);
            if (kind.equals("READY")) {
                killAt.put(w, System.nanoTime() + millis(1000, 5000));
            } else if (kind.equals("POLLED")) {
                for (String od : event.substring(7).split(",")) {
                    int colon = od.indexOf(':');
                    long offset = Long.parseLong(od.substring(0, colon));
                    deliveries.merge(offset, Integer.parseInt(od.substring(colon + 1)), Math::max);
                    lastHolder.put(offset, w);
                }
            } else if (kind.equals("ARCHIVED-WARN")) {
                Matcher m = ARCHIVED.matcher(event);
                while (m.find()) {
                    warnedArchived.add(Long.parseLong(m.group(1)));
                }
            }
        }
    }

    private Result result(boolean drained) throws Exception {
        // A worker killed with its transaction open holds the output's last stable offset until the broker aborts it
        // (transaction.timeout.ms, then the cleanup interval): read only once every transaction on it is decided.
        TopicPartition out = new TopicPartition(output, 0);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (System.nanoTime() < deadline && lastStable(out) < kafka.admin().listOffsets(Map.of(out,
                org.apache.kafka.clients.admin.OffsetSpec.latest())).all().get(10, TimeUnit.SECONDS).get(out).offset()) {
            Thread.sleep(500);
        }
        Map<String, Integer> counts = new TreeMap<>();
        for (String v : topics.committedValues()) {
            counts.merge(v, 1, Integer::sum);
        }
        Set<Long> whileKilled = new TreeSet<>();
        List<Long> withoutWarn = new ArrayList<>();
        List<Long> unreported = new ArrayList<>();
        int hiddenDeliveries = 0;
        int killedInPoll = 0;
        for (WorkerProcess w : killedByTest) {
            if ("POLLING".equals(lastEvent.get(w))) {
                killedInPoll++;
            }
        }
        // Single partition, one idempotent producer at a time, no transactions on the input: v<n> is at offset n.
        for (long offset = truncatedBelow; offset < topics.produced(); offset++) {
            if (counts.containsKey("v" + offset) || warnedArchived.contains(offset)) {
                continue;
            }
            if (deliveries.getOrDefault(offset, 0) >= DELIVERY_LIMIT) {
                WorkerProcess holder = lastHolder.get(offset);
                if (killedByTest.contains(holder) || died.contains(holder)) {
                    whileKilled.add(offset);
                } else {
                    withoutWarn.add(offset);
                }
            } else {
                // Its remaining deliveries can only have gone to workers killed inside a poll, before they reported.
                unreported.add(offset);
                hiddenDeliveries += DELIVERY_LIMIT - deliveries.getOrDefault(offset, 0);
            }
        }
        // A poll acquires at most max.poll.records (3) records: more hidden deliveries than that is a loss.
        List<Long> lost = hiddenDeliveries <= 3 * killedInPoll ? List.of() : unreported;
        return new Result(topics.produced(), truncatedBelow, counts, warnedArchived, whileKilled, withoutWarn, unreported,
                killedInPoll, lost, killed,
                truncations, drained, diagnosis, eventCounts);
    }

    private long lastStable(TopicPartition tp) throws Exception {
        return kafka.admin().listOffsets(Map.of(tp, org.apache.kafka.clients.admin.OffsetSpec.latest()),
                        new org.apache.kafka.clients.admin.ListOffsetsOptions(org.apache.kafka.common.IsolationLevel.READ_COMMITTED))
                .all().get(10, TimeUnit.SECONDS).get(tp).offset();
    }

    private WorkerProcess startWorker(int slot, boolean faulty) throws Exception {
        int incarnation = ++generation;
        List<String> args = new ArrayList<>(List.of(
                "bootstrap=" + kafka.bootstrapServers(), "input=" + input, "output=" + output, "group=" + group,
                "ledger=" + ledger, "txn=" + name + "-txn-" + incarnation, "id=" + name + "-" + slot + "-" + incarnation,
                "fallback=" + GaplessShareConfig.FALLBACK_EMULATE, "seed=" + random.nextLong(), "ack=" + ack, "trace=true",
                "snapshotBytes=1"));
        if (faulty) {
            args.addAll(List.of("stall=" + (LOCK_MS + millisPlain(100, 900)), "stallAgain=true", "stallOdds=4"));
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
