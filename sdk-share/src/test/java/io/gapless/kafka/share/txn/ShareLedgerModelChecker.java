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
package io.gapless.kafka.share.txn;

import io.gapless.kafka.share.ledger.LedgerConfirmation;
import io.gapless.kafka.share.ledger.LedgerEntry;
import io.gapless.kafka.share.ledger.LedgerIndex;
import io.gapless.kafka.share.ledger.LedgerIndexes;
import io.gapless.kafka.share.ledger.LedgerRange;
import io.gapless.kafka.share.ledger.ShareKey;
import io.gapless.kafka.share.txn.LedgerCommitProtocol.Verdict;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.Uuid;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * An explicit-state explorer of the ack-ledger protocol against a model of Kafka 4.4's share
 * partitions and producer transactions. Every interleaving of the actions below is explored
 * depth-first up to the {@link Bounds}; the decisions are the SDK's own ({@link LedgerRules#CURRENT}
 * calls {@link LedgerCommitProtocol}) over real {@link LedgerIndex}es and snapshots built from the
 * modelled ledger log exactly as a reader builds them, and snapshots pruned as {@code AckLedger}
 * prunes them (live keys at their start offsets, keys of deleted topic ids dead).
 *
 * <p>The share partitions (each rule has a fact test against the 4.4 broker: sdk-share/RATIONALE.md,
 * "The model checker"): a poll acquires available records (delivery count + 1); a lock expires at
 * any time (the record becomes available, or archived at the delivery limit); an acknowledgement
 * (ACCEPT, REJECT, RELEASE, RENEW) by the current holder of that delivery is accepted (RENEW keeps
 * the record with its holder, REJECT archives it); one below the start offset (SPSO: the first
 * non-terminal offset) is reported as success and changes nothing; any other is refused, and so is
 * one for a deleted topic. {@code deleteRecords} on the input makes the records below it gone. A
 * group initialized at {@code latest} starts at the log end: the backlog is not delivered until an
 * offset reset backwards. An offset reset, or the group deleted and re-created (group empty: no lock
 * held), makes every record of the live topics available at delivery 0 again. The input topic may be
 * deleted and re-created: its records are gone, the new topic's (a new topic id, offsets from 0) are
 * delivered by the group's policy (earliest).
 *
 * <p>The producer side: a transaction stages what one or two consumers hold (ACCEPT, or REJECT for
 * the record the application rejects), writes one entry, reads the ledger back (step 2), waits for
 * the fates below its entry and decides (steps 3, 4), commits (outputs count), then acknowledges and
 * writes its confirmations. An open transaction may be fenced (only the entry holding the LSO) or
 * crash; a crashed transaction stays open until its timeout aborts it. After any commit a snapshot
 * may be written (pruned below the real SPSO), and the ledger may be truncated below it.
 *
 * <p>Invariants: no input's output is committed twice; no record is acknowledged without its output;
 * in every quiet state (no action enabled, entry budget not exhausted) each input's output is
 * committed exactly once, or the record was archived by the delivery limit after a lock expiry (what
 * the SDK counts and logs at WARN), or it is gone (deleteRecords, deleted topic) or was never
 * delivered by the group's policy (latest). An input archived because the SDK's own verdict released
 * its last delivery while it was never output is a loss.
 *
 * <p>Reductions, both sound for these invariants: the visited set holds 128-bit fingerprints of a
 * canonical text of each state (hash compaction: a collision could only hide states, with odds near
 * 2^-100 at these sizes), and the text is canonical under swapping the two consumer/producer pairs
 * (symmetry reduction: the pairs are interchangeable, the rules compare participants and
 * transactional ids only for equality, so a state and its mirror have mirrored futures). A snapshot
 * stays possible from a commit until one is written (no "skip it" step: skipping only removes
 * options, every behaviour with the skip is one without it).
 */
final class ShareLedgerModelChecker {
    /**
     * The bounds of one run: {@code partitions} share-partitions of the input (records spread over
     * them), {@code rejectLast} the application rejects the last record, {@code latestBacklog} records
     * exist before the group starts at {@code latest}, {@code recreatedTopic} records belong to the
     * input topic re-created under a new topic id, {@code strictLoss} an input archived by the check's
     * own release while never output is a violation (else: archived with a WARN and a metric).
     */
    record Bounds(int consumers, int records, int deliveryLimit, int maxEntries, int crashes, boolean snapshots, boolean offsetReset,
                  boolean deleteInput, int partitions, boolean rejectLast, int latestBacklog, int recreatedTopic, boolean strictLoss) {
        Bounds(int consumers, int records, int deliveryLimit, int maxEntries, int crashes, boolean snapshots, boolean offsetReset,
               boolean deleteInput) {
            this(consumers, records, deliveryLimit, maxEntries, crashes, snapshots, offsetReset, deleteInput, 1, false, 0, 0, true);
        }

        Bounds withPartitions(int n) {
            return new Bounds(consumers, records, deliveryLimit, maxEntries, crashes, snapshots, offsetReset, deleteInput, n, rejectLast,
                    latestBacklog, recreatedTopic, strictLoss);
        }

        Bounds withRejectLast() {
            return new Bounds(consumers, records, deliveryLimit, maxEntries, crashes, snapshots, offsetReset, deleteInput, partitions, true,
                    latestBacklog, recreatedTopic, strictLoss);
        }

        Bounds withLatestBacklog(int n) {
            return new Bounds(consumers, records, deliveryLimit, maxEntries, crashes, snapshots, offsetReset, deleteInput, partitions,
                    rejectLast, n, recreatedTopic, strictLoss);
        }

        Bounds withRecreatedTopic(int n) {
            return new Bounds(consumers, records, deliveryLimit, maxEntries, crashes, snapshots, offsetReset, deleteInput, partitions,
                    rejectLast, latestBacklog, n, strictLoss);
        }

        /**
         * Accepts an input archived by the check's own release at the delivery limit (counted in
         * records-archived-by-delivery-limit-total and logged at WARN, issue 22's invariant) instead of
         * calling it a loss: today's promise after an offset reset, which the stricter check breaks.
         */
        Bounds withVerdictArchivesWarned() {
            return new Bounds(consumers, records, deliveryLimit, maxEntries, crashes, snapshots, offsetReset, deleteInput, partitions,
                    rejectLast, latestBacklog, recreatedTopic, false);
        }
    }

    /** What one run found. */
    record Result(long states, long quietStates, long millis, String violation, List<String> trace) {
        boolean ok() {
            return violation == null;
        }
    }

    private static final int AVAILABLE = 0;
    private static final int ACQUIRED = 1;
    private static final int ACKED = 2;
    private static final int ARCHIVED = 3;
    private static final int GONE = 4;
    private static final int BELOW_INIT = 5;   // produced before the group started at latest: not delivered
    private static final int NOT_YET = 6;      // of the re-created topic, which does not exist yet
    private static final List<String> REC_STATES = List.of("available", "acquired", "acknowledged", "archived", "gone",
            "below the initial start (latest)", "not created yet");

    private static final int OPEN = 0;
    private static final int COMMITTED = 1;
    private static final int ABORTED = 2;

    private static final String GROUP = "g";
    private static final Uuid OLD_ID = Uuid.fromString("AAAAAAAAAAAAAAAAAAAAAQ");
    private static final Uuid NEW_ID = Uuid.fromString("AAAAAAAAAAAAAAAAAAAAAg");

    private final Bounds bounds;
    private final LedgerRules rules;
    private final List<ShareAckParticipant> participants;
    // The layout: record r is offset offsetOf[r] of share-partition tips.get(tipOf[r]).
    private final List<TopicIdPartition> tips = new ArrayList<>();
    private final List<ShareKey> keys = new ArrayList<>();
    private final int[] tipOf;
    private final int[] offsetOf;
    private final boolean[] newTopic;     // per tip: of the re-created topic

    ShareLedgerModelChecker(Bounds bounds, LedgerRules rules, List<ShareAckParticipant> participants) {
        if (bounds.consumers < 1 || bounds.consumers > 2 || bounds.partitions < 1 || bounds.recreatedTopic >= bounds.records
                || bounds.latestBacklog + bounds.recreatedTopic > bounds.records) {
            throw new IllegalArgumentException("Unsupported bounds " + bounds);
        }
        this.bounds = bounds;
        this.rules = rules;
        this.participants = participants;
        int n = bounds.records;
        tipOf = new int[n];
        offsetOf = new int[n];
        int old = n - bounds.recreatedTopic;
        for (int p = 0; p < Math.min(bounds.partitions, old); p++) {
            tips.add(new TopicIdPartition(OLD_ID, p, "in"));
        }
        for (int r = 0; r < old; r++) {
            tipOf[r] = r % bounds.partitions;
            offsetOf[r] = r / bounds.partitions;
        }
        if (bounds.recreatedTopic > 0) {
            tips.add(new TopicIdPartition(NEW_ID, 0, "in"));
            for (int r = old; r < n; r++) {
                tipOf[r] = tips.size() - 1;
                offsetOf[r] = r - old;
            }
        }
        newTopic = new boolean[tips.size()];
        if (bounds.recreatedTopic > 0) {
            newTopic[tips.size() - 1] = true;
        }
        tips.forEach(tip -> keys.add(ShareKey.of(GROUP, tip)));
    }

    private AcknowledgeType typeOf(int r) {
        return bounds.rejectLast && r == bounds.records - 1 ? AcknowledgeType.REJECT : AcknowledgeType.ACCEPT;
    }

    /** One record of the modelled ledger log. */
    private sealed interface Log permits Entry, Snapshot, Confirmations {
    }

    /** One staged record: the input, the delivery held, and its range as written in the entry. */
    private record Staged(int record, int delivery, LedgerRange range) {
    }

    /** A transactional entry: its writer (producer slot and generation), what it holds per consumer, its fate. */
    private record Entry(int producer, int generation, Map<Integer, List<Staged>> byConsumer, int fate) implements Log {
        Entry withFate(int f) {
            return new Entry(producer, generation, byConsumer, f);
        }
    }

    /** A snapshot record, with its text for the state's fingerprint. */
    private record Snapshot(Object snapshot, long coversBelow, String text) implements Log {
    }

    private record Confirmations(List<LedgerConfirmation> confirmations) implements Log {
    }

    /** A producer's transaction: its participants' staged records, its entry's offset, its phase. */
    private record Txn(int phase, Map<Integer, List<Staged>> staged, int entry) {
    }

    private static final int STAGED_WAITING = 1;   // entry written, step 2 passed, waiting for the fates below it
    private static final int COMMITTED_UNACKED = 2; // committed on Kafka, acknowledgements not sent yet

    private final class State {
        int[] rec;
        int[] delivery;
        int[] holder;
        int[] output;
        boolean[] droppedByVerdict;         // archived because the SDK's verdict released its last delivery
        int[][] held;                       // per consumer and record: the delivery count it holds in memory, 0 for none
        Txn[] txn;                          // per producer; null when idle
        int[] generation;                   // per producer: transactional.id generation (a crash restarts with a new id)
        boolean[] crashedOpen;              // per producer generation: an open entry left by a crash (aborted by its timeout)
        List<Log> log = new ArrayList<>();
        int logStart;
        int entries;
        int crashes;
        boolean snapshotDue;
        boolean resetDone;
        boolean deleteDone;
        boolean recreated;

        State copy() {
            State s = new State();
            s.rec = rec.clone();
            s.delivery = delivery.clone();
            s.holder = holder.clone();
            s.output = output.clone();
            s.droppedByVerdict = droppedByVerdict.clone();
            s.held = new int[held.length][];
            for (int c = 0; c < held.length; c++) {
                s.held[c] = held[c].clone();
            }
            s.txn = txn.clone();
            s.generation = generation.clone();
            s.crashedOpen = crashedOpen.clone();
            s.log = new ArrayList<>(log);
            s.logStart = logStart;
            s.entries = entries;
            s.crashes = crashes;
            s.snapshotDue = snapshotDue;
            s.resetDone = resetDone;
            s.deleteDone = deleteDone;
            s.recreated = recreated;
            return s;
        }

        /** The state's text with consumer/producer slot c written as perm[c]. */
        void key(int[] perm, StringBuilder b) {
            int n = perm.length;
            int[] inv = new int[n];
            for (int c = 0; c < n; c++) {
                inv[perm[c]] = c;
            }
            for (int r = 0; r < rec.length; r++) {
                b.append(rec[r]).append(delivery[r]).append(holder[r] < 0 ? '-' : (char) ('0' + perm[holder[r]])).append(output[r])
                        .append(droppedByVerdict[r] ? 'd' : '.');
            }
            for (int c = 0; c < n; c++) {
                b.append('H');
                for (int d : held[inv[c]]) {
                    b.append(d);
                }
                Txn t = txn[inv[c]];
                if (t == null) {
                    b.append('-');
                } else {
                    b.append(t.phase).append('/').append(t.entry);
                }
                b.append('g').append(generation[inv[c]]);
                int g = generations();
                for (int i = 0; i < g; i++) {
                    b.append(crashedOpen[inv[c] * g + i] ? '1' : '0');
                }
            }
            b.append('|').append(logStart).append(',').append(entries).append(',').append(crashes).append(snapshotDue ? 's' : '.')
                    .append(resetDone ? 'r' : '.').append(deleteDone ? 'x' : '.').append(recreated ? 'n' : '.');
            for (Log l : log) {
                if (l instanceof Entry e) {
                    b.append('E').append(perm[e.producer]).append(e.generation).append(e.fate);
                    for (int c = 0; c < n; c++) {
                        List<Staged> list = e.byConsumer.get(inv[c]);
                        if (list != null) {
                            b.append(c).append(':');
                            list.forEach(x -> b.append(x.record).append('@').append(x.delivery).append(','));
                        }
                    }
                } else if (l instanceof Snapshot s) {
                    b.append('S').append(s.coversBelow).append(s.text);
                } else if (l instanceof Confirmations c) {
                    b.append('C');
                    c.confirmations.forEach(x -> b.append(keys.indexOf(x.key())).append('@').append(x.ledgerOffset()).append(','));
                }
            }
        }

        boolean live(int tip) {
            return newTopic[tip] == recreated;
        }

        /** The share-partition start offset of tip: its first offset neither acknowledged, archived nor gone. */
        int spso(int tip) {
            int end = 0;
            int first = Integer.MAX_VALUE;
            for (int r = 0; r < rec.length; r++) {
                if (tipOf[r] == tip) {
                    end = Math.max(end, offsetOf[r] + 1);
                    if ((rec[r] == AVAILABLE || rec[r] == ACQUIRED) && offsetOf[r] < first) {
                        first = offsetOf[r];
                    }
                }
            }
            return Math.min(first, end);
        }

        int firstOpen() {
            for (int i = logStart; i < log.size(); i++) {
                if (log.get(i) instanceof Entry e && e.fate == OPEN) {
                    return i;
                }
            }
            return log.size();
        }

        boolean busy(int consumer) {
            for (Txn t : txn) {
                if (t != null && t.staged.containsKey(consumer)) {
                    return true;
                }
            }
            return false;
        }
    }

    /** A reader's index of the log from its start up to {@code below} (exclusive): the "all" view, or the "committed" one. */
    private record View(LedgerIndex index, boolean complete) {
    }

    private View read(State s, int below, boolean committedOnly) {
        LedgerIndex index = new LedgerIndex();
        boolean complete = s.logStart == 0;
        for (int i = s.logStart; i < Math.min(below, s.log.size()); i++) {
            Log l = s.log.get(i);
            if (l instanceof Entry e) {
                if (!committedOnly || e.fate == COMMITTED) {
                    index.addEntry(new LedgerEntry("p" + e.producer + "." + e.generation, ours(e.byConsumer)), 1);
                }
            } else if (l instanceof Snapshot snap) {
                LedgerIndexes.apply(index, snap.snapshot);
                if (snap.coversBelow >= s.logStart) {
                    complete = true;
                }
            } else if (l instanceof Confirmations c) {
                LedgerIndexes.confirmAll(index, c.confirmations);
            }
        }
        return new View(index, complete);
    }

    // The all view reads past its own entry to the covering snapshot when it restarted above 0 (read_uncommitted is not held).
    private View readAll(State s, int own) {
        View v = read(s, own, false);
        if (v.complete) {
            return v;
        }
        View further = read(s, s.log.size(), false);
        return further.complete ? further : v;
    }

    private Map<ShareKey, List<LedgerRange>> ours(Map<Integer, List<Staged>> staged) {
        Map<ShareKey, List<LedgerRange>> m = new LinkedHashMap<>();
        staged.values().forEach(list -> list.forEach(x -> m.computeIfAbsent(keys.get(tipOf[x.record]), k -> new ArrayList<>()).add(x.range)));
        return m;
    }

    private Map<ShareAckParticipant, Map<TopicIdPartition, List<LedgerRange>>> asParticipants(Map<Integer, List<Staged>> staged) {
        Map<ShareAckParticipant, Map<TopicIdPartition, List<LedgerRange>>> m = new LinkedHashMap<>();
        staged.forEach((c, list) -> {
            Map<TopicIdPartition, List<LedgerRange>> byTip = new LinkedHashMap<>();
            list.forEach(x -> byTip.computeIfAbsent(tips.get(tipOf[x.record]), k -> new ArrayList<>()).add(x.range));
            m.put(participants.get(c), byTip);
        });
        return m;
    }

    // A producer's generation grows with each crash and each fence: at most once per entry written, plus the crashes.
    private int generations() {
        return bounds.maxEntries + bounds.crashes + 2;
    }

    // ---- exploration ----

    private final Fingerprints seen = new Fingerprints();
    // Successors of the last state expanded that are not optional environment steps (snapshots, truncation, reset, deleteRecords).
    private int progress;
    private long quiet;
    private String violation;
    private List<String> violationTrace = List.of();

    /** A step's text, built only for a trace. */
    private interface Step {
        String text();
    }

    /** A state on the depth-first stack, with the step that reached it and its parent (for the trace). */
    private record Node(State state, Object step, Node parent) {
        List<String> trace() {
            List<String> t = new ArrayList<>();
            for (Node n = this; n != null && n.step != null; n = n.parent) {
                t.add(0, n.step instanceof Step st ? st.text() : n.step.toString());
            }
            return t;
        }
    }

    Result run() {
        long start = System.nanoTime();
        State init = new State();
        int n = bounds.records;
        init.rec = new int[n];
        for (int r = 0; r < n; r++) {
            init.rec[r] = newTopic[tipOf[r]] ? NOT_YET : r < bounds.latestBacklog ? BELOW_INIT : AVAILABLE;
        }
        init.delivery = new int[n];
        init.holder = new int[n];
        Arrays.fill(init.holder, -1);
        init.output = new int[n];
        init.droppedByVerdict = new boolean[n];
        init.held = new int[bounds.consumers][n];
        init.txn = new Txn[bounds.consumers];
        init.generation = new int[bounds.consumers];
        init.crashedOpen = new boolean[bounds.consumers * generations()];
        Deque<Node> stack = new ArrayDeque<>();
        stack.push(new Node(init, null, null));
        visit(init);
        boolean progressLog = Boolean.getBoolean("gapless.model.progress");
        long nextReport = 500_000;
        while (!stack.isEmpty() && violation == null) {
            Node top = stack.pop();
            if (progressLog && seen.size() >= nextReport) {
                nextReport += 500_000;
                System.err.println(seen.size() + " states, stack " + stack.size() + ", " + (System.nanoTime() - start) / 1_000_000 + " ms");
            }
            State s = top.state;
            List<Object[]> next = successors(s);
            if (progress == 0) {
                quiet++;
                checkQuiet(s, top);
            }
            for (Object[] n2 : next) {
                State t = (State) n2[0];
                Node child = new Node(t, n2[1], top);
                String why = check(t);
                if (why != null && violation == null) {
                    violation = why;
                    violationTrace = child.trace();
                }
                if (violation == null && visit(t)) {
                    stack.push(child);
                }
            }
        }
        return new Result(seen.size(), quiet, (System.nanoTime() - start) / 1_000_000, violation, violationTrace);
    }

    private static final int[][] PERMS_1 = {{0}};
    private static final int[][] PERMS_2 = {{0, 1}, {1, 0}};

    private final StringBuilder keyA = new StringBuilder(512);
    private final StringBuilder keyB = new StringBuilder(512);

    // 128 bits of the state's canonical text (the least of its text and its mirror's): the visited set holds numbers, not texts.
    private boolean visit(State s) {
        keyA.setLength(0);
        s.key(PERMS_2[0].length == bounds.consumers ? PERMS_2[0] : PERMS_1[0], keyA);
        StringBuilder best = keyA;
        if (bounds.consumers == 2) {
            keyB.setLength(0);
            s.key(PERMS_2[1], keyB);
            if (CharSequence.compare(keyB, keyA) < 0) {
                best = keyB;
            }
        }
        long h1 = 1125899906842597L;
        long h2 = 0xcbf29ce484222325L;
        for (int i = 0; i < best.length(); i++) {
            char ch = best.charAt(i);
            h1 = 31 * h1 + ch;
            h2 = (h2 ^ ch) * 0x100000001b3L;
        }
        return seen.add(h1, h2);
    }

    /** An open-addressing set of 128-bit fingerprints (two longs a slot; 0/0 marks a free slot). */
    private static final class Fingerprints {
        private long[] slots = new long[2 << 16];
        private int size;

        boolean add(long a, long b) {
            if (a == 0 && b == 0) {
                b = 1;
            }
            if (2L * (size + 1) * 2 > slots.length) {
                grow();
            }
            int mask = slots.length / 2 - 1;
            int i = (int) (mix(a ^ b) & mask);
            while (true) {
                long x = slots[2 * i];
                long y = slots[2 * i + 1];
                if (x == 0 && y == 0) {
                    slots[2 * i] = a;
                    slots[2 * i + 1] = b;
                    size++;
                    return true;
                }
                if (x == a && y == b) {
                    return false;
                }
                i = (i + 1) & mask;
            }
        }

        int size() {
            return size;
        }

        private void grow() {
            long[] old = slots;
            slots = new long[old.length * 2];
            size = 0;
            for (int i = 0; i < old.length; i += 2) {
                if (old[i] != 0 || old[i + 1] != 0) {
                    add(old[i], old[i + 1]);
                }
            }
        }

        private static long mix(long z) {
            z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
            z = (z ^ (z >>> 33)) * 0xc4ceb9fe1a85ec53L;
            return z ^ (z >>> 33);
        }
    }

    private String check(State s) {
        for (int r = 0; r < bounds.records; r++) {
            if (s.output[r] > 1) {
                return "input " + r + " committed " + s.output[r] + " times";
            }
            if (s.rec[r] == ACKED && s.output[r] == 0) {
                return "input " + r + " acknowledged without output";
            }
            if (bounds.strictLoss && s.rec[r] == ARCHIVED && s.output[r] == 0 && s.droppedByVerdict[r]) {
                return "input " + r + " lost: never output, archived because the ack-ledger check released its last delivery";
            }
        }
        return null;
    }

    private void checkQuiet(State s, Node node) {
        if (s.entries >= bounds.maxEntries) {
            return; // cut by the bound, not quiet
        }
        for (int r = 0; r < bounds.records; r++) {
            String why = null;
            if (s.output[r] != 1 && s.rec[r] != ARCHIVED && s.rec[r] != GONE && s.rec[r] != BELOW_INIT && s.rec[r] != NOT_YET) {
                why = "quiet, but input " + r + " has " + s.output[r] + " outputs and is " + REC_STATES.get(s.rec[r]);
            }
            if (why != null) {
                violation = why;
                violationTrace = node.trace();
                return;
            }
        }
    }

    private List<Object[]> successors(State s) {
        List<Object[]> out = new ArrayList<>();
        int n = bounds.records;
        // Kafka: a lock expires.
        for (int r = 0; r < n; r++) {
            if (s.rec[r] == ACQUIRED) {
                State t = s.copy();
                t.rec[r] = t.delivery[r] >= bounds.deliveryLimit ? ARCHIVED : AVAILABLE;
                t.holder[r] = -1;
                int expired = r;
                out.add(new Object[]{t, (Step) () -> "lock of " + expired + " expires"});
            }
        }
        for (int c = 0; c < bounds.consumers; c++) {
            if (s.busy(c)) {
                continue;
            }
            // A poll: releases what no transaction took, then acquires the first available record, or all of them.
            for (boolean all : new boolean[]{false, true}) {
                State t = s.copy();
                releaseHeld(t, c);
                List<Integer> got = new ArrayList<>();
                for (int r = 0; r < n && (all || got.isEmpty()); r++) {
                    if (t.rec[r] == AVAILABLE && t.delivery[r] < bounds.deliveryLimit) {
                        t.rec[r] = ACQUIRED;
                        t.delivery[r]++;
                        t.holder[r] = c;
                        t.held[c][r] = t.delivery[r];
                        got.add(r);
                    }
                }
                if (!got.isEmpty() && (all || got.size() == 1)) {
                    int poller = c;
                    out.add(new Object[]{t, (Step) () -> "c" + poller + " polls " + got});
                }
                if (!all && got.isEmpty()) {
                    if (holds(s, c)) {
                        int poller = c;
                        out.add(new Object[]{t, (Step) () -> "c" + poller + " polls nothing, releases what it held"});
                    }
                    break;
                }
            }
        }
        for (int p = 0; p < bounds.consumers; p++) {
            Txn txn = s.txn[p];
            if (txn == null) {
                if (s.entries < bounds.maxEntries) {
                    stageAndWrite(s, p, out);
                }
            } else if (txn.phase == STAGED_WAITING) {
                decideWhenResolved(s, p, out);
                crash(s, p, out);
            } else if (txn.phase == COMMITTED_UNACKED) {
                acknowledge(s, p, out);
                crash(s, p, out);
            }
        }
        // A crashed producer's open entry is aborted by its transaction timeout (or by a fence: same effect on the model).
        for (int i = s.logStart; i < s.log.size(); i++) {
            if (s.log.get(i) instanceof Entry e && e.fate == OPEN && s.crashedOpen[e.producer * generations() + e.generation]) {
                State t = s.copy();
                t.log.set(i, e.withFate(ABORTED));
                int aborted = i;
                out.add(new Object[]{t, (Step) () -> "transaction timeout aborts entry " + aborted});
            }
        }
        progress = out.size();
        if (bounds.snapshots && s.snapshotDue) {
            snapshot(s, out);
        }
        if (bounds.deleteInput && !s.deleteDone && s.live(tipOf[0])) {
            State t = s.copy();
            t.deleteDone = true;
            if (t.rec[0] == AVAILABLE || t.rec[0] == ACQUIRED) {
                t.rec[0] = GONE;
                t.holder[0] = -1;
            }
            out.add(new Object[]{t, "deleteRecords on the input below 1"});
        }
        if (bounds.offsetReset && !s.resetDone && Arrays.stream(s.rec).noneMatch(x -> x == ACQUIRED)) {
            State t = s.copy();
            t.resetDone = true;
            for (int r = 0; r < n; r++) {
                if (t.rec[r] != GONE && t.rec[r] != NOT_YET && t.live(tipOf[r])) {
                    t.rec[r] = AVAILABLE;
                    t.delivery[r] = 0;
                }
            }
            out.add(new Object[]{t, "offsets reset to 0, or the group deleted and re-created at earliest (group empty)"});
        }
        if (bounds.recreatedTopic > 0 && !s.recreated) {
            State t = s.copy();
            t.recreated = true;
            for (int r = 0; r < n; r++) {
                if (newTopic[tipOf[r]]) {
                    t.rec[r] = AVAILABLE;
                } else if (t.rec[r] == AVAILABLE || t.rec[r] == ACQUIRED || t.rec[r] == BELOW_INIT) {
                    t.rec[r] = GONE;
                    t.holder[r] = -1;
                }
            }
            out.add(new Object[]{t, "input topic deleted and re-created (new topic id, delivered from offset 0)"});
        }
        return out;
    }

    // Kafka's answer to an acknowledgement of record r at delivery d by consumer c: whether it is reported as success.
    private boolean kafkaAcknowledge(State t, int c, int r, int d, AcknowledgeType type) {
        if (!t.live(tipOf[r])) {
            return false; // its topic was deleted: the share-partition is gone
        }
        if (t.rec[r] == ACQUIRED && t.holder[r] == c && t.delivery[r] == d) {
            t.holder[r] = -1;
            if (type == AcknowledgeType.ACCEPT || type == AcknowledgeType.REJECT) {
                t.rec[r] = type == AcknowledgeType.ACCEPT ? ACKED : ARCHIVED;
            } else if (type == AcknowledgeType.RELEASE) {
                t.rec[r] = d >= bounds.deliveryLimit ? ARCHIVED : AVAILABLE;
            } else {
                t.holder[r] = c; // RENEW
            }
            return true;
        }
        return offsetOf[r] < t.spso(tipOf[r]); // below the start offset: skipped, reported as success
    }

    private void releaseHeld(State t, int c) {
        for (int r = 0; r < bounds.records; r++) {
            if (t.held[c][r] > 0) {
                kafkaAcknowledge(t, c, r, t.held[c][r], AcknowledgeType.RELEASE);
            }
        }
        Arrays.fill(t.held[c], 0);
    }

    private static boolean holds(State s, int c) {
        for (int d : s.held[c]) {
            if (d > 0) {
                return true;
            }
        }
        return false;
    }

    private void stageAndWrite(State s, int p, List<Object[]> out) {
        // Participants: the producer's own consumer, the other consumers, or both (one transaction, two consumers).
        int consumers = bounds.consumers;
        for (int mask : consumers == 1 ? new int[]{1} : new int[]{1 << p, (1 << consumers) - 1}) {
            Map<Integer, List<int[]>> staged = new TreeMap<>();
            Set<Integer> records = new HashSet<>();
            boolean ok = true;
            for (int c = 0; c < consumers && ok; c++) {
                if ((mask & (1 << c)) == 0) {
                    continue;
                }
                if (s.busy(c) || !holds(s, c)) {
                    ok = false;
                    break;
                }
                List<int[]> list = new ArrayList<>();
                for (int r = 0; r < bounds.records; r++) {
                    if (s.held[c][r] == 0) {
                        continue;
                    }
                    if (!records.add(r)) {
                        ok = false; // staging refuses one record staged twice in one transaction (hole 2)
                    }
                    list.add(new int[]{r, s.held[c][r]});
                }
                staged.put(c, list);
            }
            if (!ok) {
                continue;
            }
            State t = s.copy();
            int own = t.log.size();
            String id = "p" + p + "." + t.generation[p];
            Map<Integer, List<Staged>> written = new TreeMap<>();
            staged.forEach((c, list) -> written.put(c, list.stream().map(x -> new Staged(x[0], x[1], new LedgerRange(own, id,
                    offsetOf[x[0]], offsetOf[x[0]], typeOf(x[0]).id, (short) x[1]))).toList()));
            t.log.add(new Entry(p, t.generation[p], written, OPEN));
            t.entries++;
            Step step = () -> id + " stages " + describe(written) + " and writes entry " + own;
            View all = readAll(t, own);
            Verdict verdict = new Verdict();
            List<LedgerRange> earlier = rules.staleHolder(all.index, ours(written), own, verdict);
            if (!verdict.clear()) {
                refuse(t, p, own, written, verdict);
                out.add(new Object[]{t, (Step) () -> step.text() + "; refused on the read-back " + verdict.reasons});
            } else if (!LedgerCommitProtocol.fatesMatter(earlier, all.complete)) {
                commit(t, p, own, written);
                out.add(new Object[]{t, (Step) () -> step.text() + "; shortcut, commits"});
            } else {
                t.txn[p] = new Txn(STAGED_WAITING, written, own);
                out.add(new Object[]{t, (Step) () -> step.text() + "; waits for the fates below it"});
            }
        }
    }

    private void decideWhenResolved(State s, int p, List<Object[]> out) {
        Txn txn = s.txn[p];
        int open = s.firstOpen();
        if (open < txn.entry) {
            // Fence the holder of the entry at the LSO (still open) when it overlaps ours.
            Entry e = (Entry) s.log.get(open);
            if (overlaps(e, txn.staged) && e.producer != p) {
                State t = s.copy();
                t.log.set(open, e.withFate(ABORTED));
                Txn fenced = t.txn[e.producer];
                if (fenced != null && fenced.entry == open) {
                    t.txn[e.producer] = null;      // its commit fails; the application aborts: records kept (RENEW), held again
                    t.generation[e.producer]++;
                }
                out.add(new Object[]{t, (Step) () -> "p" + p + " fences the holder of open entry " + open});
            }
            return;
        }
        State t = s.copy();
        View committed = read(t, txn.entry, true);
        if (!committed.complete) {
            abortKeeping(t, p, txn.entry);
            out.add(new Object[]{t, "p" + p + " times out waiting for a covering snapshot; aborts"});
            return;
        }
        Verdict verdict = new Verdict();
        rules.committedElsewhere(committed.index, ours(txn.staged), txn.entry, verdict);
        if (!verdict.clear()) {
            refuse(t, p, txn.entry, txn.staged, verdict);
            out.add(new Object[]{t, (Step) () -> "p" + p + " refused at the decision " + verdict.reasons});
        } else {
            commit(t, p, txn.entry, txn.staged);
            out.add(new Object[]{t, (Step) () -> "p" + p + " commits entry " + txn.entry});
        }
    }

    // "c0:{0@1 1@1/R}": per consumer, record@delivery (/R: rejected); records name the layout's share-partition and offset.
    private String describe(Map<Integer, List<Staged>> staged) {
        StringBuilder b = new StringBuilder();
        staged.forEach((c, list) -> {
            b.append(" c").append(c).append(":{");
            list.forEach(x -> b.append(x.record).append('@').append(x.delivery).append(typeOf(x.record) == AcknowledgeType.REJECT ? "/R" : "")
                    .append(' '));
            b.append('}');
        });
        return b.toString().trim();
    }

    private static boolean overlaps(Entry e, Map<Integer, List<Staged>> staged) {
        Set<Integer> mine = new HashSet<>();
        staged.values().forEach(l -> l.forEach(x -> mine.add(x.record)));
        return e.byConsumer.values().stream().flatMap(List::stream).anyMatch(x -> mine.contains(x.record));
    }

    private void commit(State t, int p, int entry, Map<Integer, List<Staged>> staged) {
        t.log.set(entry, ((Entry) t.log.get(entry)).withFate(COMMITTED));
        staged.values().forEach(l -> l.forEach(x -> t.output[x.record]++));
        t.txn[p] = new Txn(COMMITTED_UNACKED, staged, entry);
        t.snapshotDue = true;
    }

    private void acknowledge(State s, int p, List<Object[]> out) {
        State t = s.copy();
        Txn txn = t.txn[p];
        Map<ShareAckParticipant, Set<TopicIdPartition>> landed = new LinkedHashMap<>();
        txn.staged.forEach((c, list) -> {
            Map<TopicIdPartition, Boolean> byTip = new LinkedHashMap<>();
            for (Staged x : list) {
                boolean ok = kafkaAcknowledge(t, c, x.record, x.delivery, typeOf(x.record));
                byTip.merge(tips.get(tipOf[x.record]), ok, Boolean::logicalAnd);
                t.held[c][x.record] = 0;
            }
            Set<TopicIdPartition> ok = new HashSet<>();
            byTip.forEach((tip, all) -> {
                if (all) {
                    ok.add(tip);
                }
            });
            landed.put(participants.get(c), ok);
        });
        List<LedgerConfirmation> confirmations = rules.confirmations(asParticipants(txn.staged), landed, txn.entry);
        if (!confirmations.isEmpty()) {
            t.log.add(new Confirmations(confirmations));
        }
        t.txn[p] = null;
        out.add(new Object[]{t, (Step) () -> "p" + p + " acknowledges entry " + txn.entry + " (landed for " + landed.entrySet().stream()
                .filter(e -> !e.getValue().isEmpty()).map(e -> "c" + participants.indexOf(e.getKey()) + e.getValue().size()).toList() + ")"});
    }

    private void refuse(State t, int p, int entry, Map<Integer, List<Staged>> staged, Verdict verdict) {
        t.log.set(entry, ((Entry) t.log.get(entry)).withFate(ABORTED));
        staged.forEach((c, list) -> {
            for (Staged x : list) {
                AcknowledgeType type = verdict.settle.getOrDefault(keys.get(tipOf[x.record]), Map.of())
                        .getOrDefault((long) offsetOf[x.record], AcknowledgeType.RENEW);
                int before = t.rec[x.record];
                kafkaAcknowledge(t, c, x.record, x.delivery, type);
                if (type == AcknowledgeType.RELEASE && before == ACQUIRED && t.rec[x.record] == ARCHIVED && t.output[x.record] == 0) {
                    t.droppedByVerdict[x.record] = true;
                }
                if (type != AcknowledgeType.RENEW) {
                    t.held[c][x.record] = 0;
                }
            }
        });
        t.txn[p] = null;
    }

    private void abortKeeping(State t, int p, int entry) {
        t.log.set(entry, ((Entry) t.log.get(entry)).withFate(ABORTED));
        t.txn[p] = null;
    }

    private void crash(State s, int p, List<Object[]> out) {
        if (s.crashes >= bounds.crashes) {
            return;
        }
        State t = s.copy();
        t.crashes++;
        Txn txn = t.txn[p];
        if (txn.phase == STAGED_WAITING) {
            t.crashedOpen[p * generations() + t.generation[p]] = true;
        }
        // The producer's process dies with its consumers: what they held in memory is gone, their locks stay until they expire.
        txn.staged.keySet().forEach(c -> Arrays.fill(t.held[c], 0));
        Arrays.fill(t.held[p], 0);
        t.txn[p] = null;
        t.generation[p]++;
        out.add(new Object[]{t, "p" + p + " crashes (" + (txn.phase == STAGED_WAITING ? "entry open" : "committed, not acknowledged") + ")"});
    }

    private void snapshot(State s, List<Object[]> out) {
        State t = s.copy();
        t.snapshotDue = false;
        int position = t.firstOpen();   // the committed view's position: the last stable offset
        View committed = read(t, position, true);
        if (!committed.complete) {
            return;
        }
        // As AckLedger prunes: the start offsets Kafka reports for the live keys, keys of deleted topic ids dead.
        Object snap = LedgerIndexes.snapshotOfKeys(committed.index, position, key -> {
            int tip = keys.indexOf(key);
            return tip >= 0 && t.live(tip) ? Long.valueOf(t.spso(tip)) : null;
        }, key -> {
            int tip = keys.indexOf(key);
            return tip >= 0 && !t.live(tip);
        });
        t.log.add(new Snapshot(snap, position, snap.toString().replace(OLD_ID.toString(), "o").replace(NEW_ID.toString(), "n")));
        out.add(new Object[]{t, (Step) () -> "snapshot below " + position + " (SPSO " + spsos(t) + ")"});
        // Its writer then deletes the ledger below it (the deletion may also not happen: a crash, or a refusal).
        if (position > t.logStart) {
            State deleted = t.copy();
            deleted.logStart = position;
            out.add(new Object[]{deleted, (Step) () -> "snapshot below " + position + " (SPSO " + spsos(t) + "), deleteRecords on the ledger below it"});
        }
    }

    private String spsos(State t) {
        StringBuilder b = new StringBuilder();
        for (int tip = 0; tip < tips.size(); tip++) {
            if (t.live(tip)) {
                b.append(b.length() == 0 ? "" : " ").append(tips.get(tip).topicPartition()).append(tips.size() > 1 && newTopic[tip] ? "'" : "")
                        .append('=').append(t.spso(tip));
            }
        }
        return b.toString();
    }
}
