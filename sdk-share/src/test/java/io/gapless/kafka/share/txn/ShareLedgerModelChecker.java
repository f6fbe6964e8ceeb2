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
 * partition and producer transactions. Every interleaving of the actions below is explored
 * depth-first up to the {@link Bounds}; the decisions are the SDK's own ({@link LedgerRules#CURRENT}
 * calls {@link LedgerCommitProtocol}) over real {@link LedgerIndex}es and snapshots built from the
 * modelled ledger log exactly as a reader builds them.
 *
 * <p>The share partition (facts measured in ShareAcknowledgeFactsIT and the fault suites): a poll
 * acquires available records (delivery count + 1); a lock expires at any time (the record becomes
 * available, or archived at the delivery limit); an acknowledgement by the current holder of that
 * delivery is accepted; one below the start offset (SPSO: the first non-terminal offset) is reported
 * as success and changes nothing; any other is refused. {@code deleteRecords} on the input makes the
 * records below it gone. An offset reset (group empty: no lock held) makes every record available at
 * delivery 0 again. A partition initialized at {@code latest} ({@link #latestStart}) starts with the
 * records below that start skipped: never delivered until a reset makes them available.
 *
 * <p>The producer side: a transaction stages what one or two consumers hold, writes one entry, reads
 * the ledger back (step 2), waits for the fates below its entry and decides (steps 3, 4), commits
 * (outputs count), then acknowledges and writes its confirmations. An open transaction may be
 * fenced (only the entry holding the LSO) or crash; a crashed transaction stays open until its
 * timeout aborts it. After any commit a snapshot may be written (pruned below the real SPSO), and
 * the ledger may be truncated below a written snapshot.
 *
 * <p>Invariants: no input's output is committed twice; no record is acknowledged without its output,
 * nor archived without it by the ledger's own release (a refusal that spends its last delivery);
 * in every quiet state (no action enabled, entry budget not exhausted) each input's output is
 * committed exactly once or the record was archived or deleted.
 */
final class ShareLedgerModelChecker {
    record Bounds(int consumers, int records, int deliveryLimit, int maxEntries, int crashes, boolean snapshots, boolean offsetReset,
                  boolean deleteInput) {
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
    private static final int SKIPPED = 5;   // below the start of a partition initialized at latest

    private static final int OPEN = 0;
    private static final int COMMITTED = 1;
    private static final int ABORTED = 2;

    private static final TopicIdPartition TIP = new TopicIdPartition(org.apache.kafka.common.Uuid.fromString("AAAAAAAAAAAAAAAAAAAAAQ"), 0, "in");
    private static final ShareKey KEY = ShareKey.of("g", TIP);

    private final Bounds bounds;
    private final LedgerRules rules;
    private final List<ShareAckParticipant> participants;
    private int latestStart;

    ShareLedgerModelChecker(Bounds bounds, LedgerRules rules, List<ShareAckParticipant> participants) {
        this.bounds = bounds;
        this.rules = rules;
        this.participants = participants;
    }

    /** The partition was initialized at {@code latest} with its start at {@code offset}: the records below it are skipped. */
    ShareLedgerModelChecker latestStart(int offset) {
        this.latestStart = offset;
        return this;
    }

    /** One record of the modelled ledger log. */
    private sealed interface Log permits Entry, Snapshot, Confirmations {
    }

    /** A transactional entry: its writer (producer slot and generation), its ranges per consumer, its fate. */
    private record Entry(int producer, int generation, Map<Integer, List<LedgerRange>> byConsumer, int fate) implements Log {
        Entry withFate(int f) {
            return new Entry(producer, generation, byConsumer, f);
        }
    }

    private record Snapshot(Object snapshot, long coversBelow) implements Log {
    }

    private record Confirmations(List<LedgerConfirmation> confirmations) implements Log {
    }

    /** A producer's transaction: its participants' staged ranges, its entry's offset, its phase. */
    private record Txn(int phase, Map<Integer, List<LedgerRange>> staged, int entry) {
    }

    private static final int STAGED_WAITING = 1;   // entry written, step 2 passed, waiting for the fates below it
    private static final int COMMITTED_UNACKED = 2; // committed on Kafka, acknowledgements not sent yet

    private final class State {
        int[] rec;
        int[] delivery;
        int[] holder;
        int[] output;
        List<Map<Integer, Integer>> held;   // per consumer: offset -> delivery count it holds (in memory)
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
        int archivedByRelease = -1;         // an input the ledger's release archived without output

        State copy() {
            State s = new State();
            s.rec = rec.clone();
            s.delivery = delivery.clone();
            s.holder = holder.clone();
            s.output = output.clone();
            s.held = new ArrayList<>();
            held.forEach(m -> s.held.add(new TreeMap<>(m)));
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
            s.archivedByRelease = archivedByRelease;
            return s;
        }

        String key() {
            StringBuilder b = new StringBuilder();
            b.append(Arrays.toString(rec)).append(Arrays.toString(delivery)).append(Arrays.toString(holder)).append(Arrays.toString(output))
                    .append(held);
            for (Txn t : txn) {
                b.append(t == null ? "-" : t.phase + "/" + t.entry);
            }
            b.append(Arrays.toString(generation)).append(Arrays.toString(crashedOpen))
                    .append(logStart).append(entries).append(crashes).append(snapshotDue).append(resetDone).append(deleteDone)
                    .append(archivedByRelease);
            for (Log l : log) {
                if (l instanceof Entry e) {
                    b.append('E').append(e.producer).append(e.generation).append(e.fate);
                    e.byConsumer.forEach((c, list) -> {
                        b.append(c).append(':');
                        list.forEach(r -> b.append(r.first()).append('@').append(r.deliveryCount()).append(','));
                    });
                } else if (l instanceof Snapshot s) {
                    b.append('S').append(s.coversBelow);
                } else if (l instanceof Confirmations c) {
                    b.append('C');
                    c.confirmations.forEach(x -> b.append(x.ledgerOffset()).append(','));
                }
            }
            return b.toString();
        }

        int spso() {
            for (int r = 0; r < bounds.records; r++) {
                if (rec[r] == AVAILABLE || rec[r] == ACQUIRED) {
                    return r;
                }
            }
            return bounds.records;
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
                    Map<ShareKey, List<LedgerRange>> ranges = new LinkedHashMap<>();
                    e.byConsumer.values().forEach(list -> ranges.computeIfAbsent(KEY, k -> new ArrayList<>()).addAll(list));
                    index.addEntry(new LedgerEntry("p" + e.producer + "." + e.generation, ranges), 1);
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

    private static Map<ShareKey, List<LedgerRange>> ours(Map<Integer, List<LedgerRange>> staged) {
        List<LedgerRange> all = new ArrayList<>();
        staged.values().forEach(all::addAll);
        return Map.of(KEY, all);
    }

    private Map<ShareAckParticipant, Map<TopicIdPartition, List<LedgerRange>>> asParticipants(Map<Integer, List<LedgerRange>> staged) {
        Map<ShareAckParticipant, Map<TopicIdPartition, List<LedgerRange>>> m = new LinkedHashMap<>();
        staged.forEach((c, list) -> m.put(participants.get(c), Map.of(TIP, list)));
        return m;
    }

    // A producer's generation grows with each crash and each fence: at most once per entry written, plus the crashes.
    private int generations() {
        return bounds.maxEntries + bounds.crashes + 2;
    }

    // ---- exploration ----

    private final Set<String> seen = new HashSet<>();  // fingerprints
    // Successors of the last state expanded that are not optional environment steps (snapshots, truncation, reset, deleteRecords).
    private int progress;
    private long quiet;
    private String violation;
    private List<String> violationTrace = List.of();

    /** A state on the depth-first stack, with the step that reached it and its parent (for the trace). */
    private record Node(State state, String step, Node parent) {
        List<String> trace() {
            List<String> t = new ArrayList<>();
            for (Node n = this; n != null && n.step != null; n = n.parent) {
                t.add(0, n.step);
            }
            return t;
        }
    }

    Result run() {
        long start = System.nanoTime();
        State init = new State();
        int n = bounds.records;
        init.rec = new int[n];
        init.delivery = new int[n];
        init.holder = new int[n];
        Arrays.fill(init.holder, -1);
        Arrays.fill(init.rec, 0, Math.min(latestStart, n), SKIPPED);
        init.output = new int[n];
        init.held = new ArrayList<>();
        for (int c = 0; c < bounds.consumers; c++) {
            init.held.add(new TreeMap<>());
        }
        init.txn = new Txn[bounds.consumers];
        init.generation = new int[bounds.consumers];
        init.crashedOpen = new boolean[bounds.consumers * generations()];
        Deque<Node> stack = new ArrayDeque<>();
        stack.push(new Node(init, null, null));
        seen.add(fingerprint(init.key()));
        boolean progressLog = Boolean.getBoolean("gapless.model.progress");
        while (!stack.isEmpty() && violation == null) {
            Node top = stack.pop();
            if (progressLog && seen.size() % 50_000 == 0) {
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
                Node child = new Node(t, (String) n2[1], top);
                String why = check(t);
                if (why != null && violation == null) {
                    violation = why;
                    violationTrace = child.trace();
                }
                if (violation == null && seen.add(fingerprint(t.key()))) {
                    stack.push(child);
                }
            }
        }
        return new Result(seen.size(), quiet, (System.nanoTime() - start) / 1_000_000, violation, violationTrace);
    }

    // 128 bits of the state's canonical text: the visited set holds numbers, not the texts.
    private static String fingerprint(String key) {
        long h1 = 1125899906842597L;
        long h2 = 0xcbf29ce484222325L;
        for (int i = 0; i < key.length(); i++) {
            char ch = key.charAt(i);
            h1 = 31 * h1 + ch;
            h2 = (h2 ^ ch) * 0x100000001b3L;
        }
        return Long.toHexString(h1) + Long.toHexString(h2);
    }

    private String check(State s) {
        for (int r = 0; r < bounds.records; r++) {
            if (s.output[r] > 1) {
                return "input " + r + " committed " + s.output[r] + " times";
            }
            if (s.rec[r] == ACKED && s.output[r] == 0) {
                return "input " + r + " acknowledged without output";
            }
        }
        if (s.archivedByRelease >= 0) {
            return "input " + s.archivedByRelease + " archived without output by the ledger's release";
        }
        return null;
    }

    private void checkQuiet(State s, Node node) {
        if (s.entries >= bounds.maxEntries) {
            return; // cut by the bound, not quiet
        }
        for (int r = 0; r < bounds.records; r++) {
            // Skipped at latest and never reset: plain Kafka never delivers it either.
            if (s.output[r] != 1 && s.rec[r] != ARCHIVED && s.rec[r] != GONE && s.rec[r] != SKIPPED) {
                violation = "quiet, but input " + r + " has " + s.output[r] + " outputs and is " + List.of("available", "acquired",
                        "acknowledged", "archived", "gone", "skipped").get(s.rec[r]);
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
                out.add(new Object[]{t, "lock of " + r + " expires"});
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
                        t.held.get(c).put(r, t.delivery[r]);
                        got.add(r);
                    }
                }
                if (!got.isEmpty() && (all || got.size() == 1)) {
                    out.add(new Object[]{t, "c" + c + " polls " + got});
                }
                if (!all && got.isEmpty()) {
                    if (!s.held.get(c).isEmpty()) {
                        out.add(new Object[]{t, "c" + c + " polls nothing, releases what it held"});
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
                out.add(new Object[]{t, "transaction timeout aborts entry " + i});
            }
        }
        progress = out.size();
        if (bounds.snapshots && s.snapshotDue) {
            snapshot(s, out);
        }
        if (bounds.deleteInput && !s.deleteDone) {
            State t = s.copy();
            t.deleteDone = true;
            if (t.rec[0] == AVAILABLE || t.rec[0] == ACQUIRED || t.rec[0] == SKIPPED) {
                t.rec[0] = GONE;
                t.holder[0] = -1;
            }
            out.add(new Object[]{t, "deleteRecords on the input below 1"});
        }
        if (bounds.offsetReset && !s.resetDone && Arrays.stream(s.rec).noneMatch(x -> x == ACQUIRED)) {
            State t = s.copy();
            t.resetDone = true;
            for (int r = 0; r < n; r++) {
                if (t.rec[r] != GONE) {
                    t.rec[r] = AVAILABLE;
                    t.delivery[r] = 0;
                }
            }
            out.add(new Object[]{t, "offsets reset to 0 (group empty)"});
        }
        return out;
    }

    // Kafka's answer to an acknowledgement of record r at delivery d by consumer c.
    private static boolean kafkaAcknowledge(State t, int c, int r, int d, AcknowledgeType type, int limit) {
        if (t.rec[r] == ACQUIRED && t.holder[r] == c && t.delivery[r] == d) {
            t.holder[r] = -1;
            if (type == AcknowledgeType.ACCEPT || type == AcknowledgeType.REJECT) {
                t.rec[r] = type == AcknowledgeType.ACCEPT ? ACKED : ARCHIVED;
            } else if (type == AcknowledgeType.RELEASE) {
                t.rec[r] = d >= limit ? ARCHIVED : AVAILABLE;
            } else {
                t.holder[r] = c; // RENEW
            }
            return true;
        }
        return r < t.spso(); // below the start offset: skipped, reported as success
    }

    private void releaseHeld(State t, int c) {
        for (Map.Entry<Integer, Integer> h : t.held.get(c).entrySet()) {
            kafkaAcknowledge(t, c, h.getKey(), h.getValue(), AcknowledgeType.RELEASE, bounds.deliveryLimit);
        }
        t.held.get(c).clear();
    }

    private void stageAndWrite(State s, int p, List<Object[]> out) {
        // Participants: the producer's own consumer, the other consumers, or both (one transaction, two consumers).
        int consumers = bounds.consumers;
        for (int mask : new int[]{1 << p, (1 << consumers) - 1}) {
            Map<Integer, List<LedgerRange>> staged = new TreeMap<>();
            Set<Integer> offsets = new HashSet<>();
            boolean ok = true;
            for (int c = 0; c < consumers && ok; c++) {
                if ((mask & (1 << c)) == 0) {
                    continue;
                }
                if (s.busy(c) || s.held.get(c).isEmpty()) {
                    ok = false;
                    break;
                }
                List<LedgerRange> list = new ArrayList<>();
                for (Map.Entry<Integer, Integer> h : s.held.get(c).entrySet()) {
                    if (!offsets.add(h.getKey())) {
                        ok = false; // staging refuses one record staged twice in one transaction (hole 2)
                    }
                    list.add(new LedgerRange(-1, "", h.getKey(), h.getKey(), AcknowledgeType.ACCEPT.id, (short) (int) h.getValue()));
                }
                staged.put(c, list);
            }
            if (!ok) {
                continue;
            }
            State t = s.copy();
            int own = t.log.size();
            String id = "p" + p + "." + t.generation[p];
            Map<Integer, List<LedgerRange>> written = new TreeMap<>();
            staged.forEach((c, list) -> written.put(c, list.stream()
                    .map(r -> new LedgerRange(own, id, r.first(), r.last(), r.ackType(), r.deliveryCount())).toList()));
            t.log.add(new Entry(p, t.generation[p], written, OPEN));
            t.entries++;
            String step = id + " stages " + describe(written) + " and writes entry " + own;
            View all = readAll(t, own);
            Verdict verdict = new Verdict();
            List<LedgerRange> earlier = rules.staleHolder(all.index, ours(written), own, verdict);
            if (!verdict.clear()) {
                refuse(t, p, own, written, verdict);
                out.add(new Object[]{t, step + "; refused on the read-back " + verdict.reasons});
            } else if (!LedgerCommitProtocol.fatesMatter(earlier, all.complete)) {
                commit(t, p, own, written);
                out.add(new Object[]{t, step + "; shortcut, commits"});
            } else {
                t.txn[p] = new Txn(STAGED_WAITING, written, own);
                out.add(new Object[]{t, step + "; waits for the fates below it"});
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
                out.add(new Object[]{t, "p" + p + " fences the holder of open entry " + open});
            }
            return;
        }
        State t = s.copy();
        View committed = read(t, txn.entry, true);
        if (!committed.complete) {
            abortKeeping(t, p, txn.entry, txn.staged);
            out.add(new Object[]{t, "p" + p + " times out waiting for a covering snapshot; aborts"});
            return;
        }
        Verdict verdict = new Verdict();
        rules.committedElsewhere(committed.index, ours(txn.staged), txn.entry, verdict);
        if (!verdict.clear()) {
            refuse(t, p, txn.entry, txn.staged, verdict);
            out.add(new Object[]{t, "p" + p + " refused at the decision " + verdict.reasons});
        } else {
            commit(t, p, txn.entry, txn.staged);
            out.add(new Object[]{t, "p" + p + " commits entry " + txn.entry});
        }
    }

    // "c0:{0@1,1@1}": per consumer, offset@delivery.
    private static String describe(Map<Integer, List<LedgerRange>> staged) {
        StringBuilder b = new StringBuilder();
        staged.forEach((c, list) -> {
            b.append(" c").append(c).append(":{");
            list.forEach(r -> b.append(r.first()).append('@').append(r.deliveryCount()).append(' '));
            b.append('}');
        });
        return b.toString().trim();
    }

    private static boolean overlaps(Entry e, Map<Integer, List<LedgerRange>> staged) {
        Set<Long> mine = new HashSet<>();
        staged.values().forEach(l -> l.forEach(r -> mine.add(r.first())));
        return e.byConsumer.values().stream().flatMap(List::stream).anyMatch(r -> mine.contains(r.first()));
    }

    private void commit(State t, int p, int entry, Map<Integer, List<LedgerRange>> staged) {
        t.log.set(entry, ((Entry) t.log.get(entry)).withFate(COMMITTED));
        staged.values().forEach(l -> l.forEach(r -> t.output[(int) r.first()]++));
        t.txn[p] = new Txn(COMMITTED_UNACKED, staged, entry);
        t.snapshotDue = true;
    }

    private void acknowledge(State s, int p, List<Object[]> out) {
        State t = s.copy();
        Txn txn = t.txn[p];
        Map<ShareAckParticipant, Set<TopicIdPartition>> landed = new LinkedHashMap<>();
        txn.staged.forEach((c, list) -> {
            boolean all = true;
            for (LedgerRange r : list) {
                all &= kafkaAcknowledge(t, c, (int) r.first(), r.deliveryCount(), AcknowledgeType.ACCEPT, bounds.deliveryLimit);
                t.held.get(c).remove((int) r.first());
            }
            landed.put(participants.get(c), all ? Set.of(TIP) : Set.of());
        });
        List<LedgerConfirmation> confirmations = rules.confirmations(asParticipants(txn.staged), landed, txn.entry);
        if (!confirmations.isEmpty()) {
            t.log.add(new Confirmations(confirmations));
        }
        t.txn[p] = null;
        out.add(new Object[]{t, "p" + p + " acknowledges entry " + txn.entry + " (landed for " + landed.entrySet().stream()
                .filter(e -> !e.getValue().isEmpty()).map(e -> "c" + participants.indexOf(e.getKey())).toList() + ")"});
    }

    private void refuse(State t, int p, int entry, Map<Integer, List<LedgerRange>> staged, Verdict verdict) {
        t.log.set(entry, ((Entry) t.log.get(entry)).withFate(ABORTED));
        Map<Long, AcknowledgeType> settle = verdict.settle.getOrDefault(KEY, Map.of());
        staged.forEach((c, list) -> {
            for (LedgerRange r : list) {
                AcknowledgeType type = settle.getOrDefault(r.first(), AcknowledgeType.RENEW);
                int before = t.rec[(int) r.first()];
                kafkaAcknowledge(t, c, (int) r.first(), r.deliveryCount(), type, bounds.deliveryLimit);
                if (type == AcknowledgeType.RELEASE && before != ARCHIVED && t.rec[(int) r.first()] == ARCHIVED && t.output[(int) r.first()] == 0) {
                    t.archivedByRelease = (int) r.first();
                }
                if (type != AcknowledgeType.RENEW) {
                    t.held.get(c).remove((int) r.first());
                }
            }
        });
        t.txn[p] = null;
    }

    private void abortKeeping(State t, int p, int entry, Map<Integer, List<LedgerRange>> staged) {
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
        txn.staged.keySet().forEach(c -> t.held.get(c).clear());
        t.held.get(p).clear();
        t.txn[p] = null;
        t.generation[p]++;
        out.add(new Object[]{t, "p" + p + " crashes (" + (txn.phase == STAGED_WAITING ? "entry open" : "committed, not acknowledged") + ")"});
    }

    private void snapshot(State s, List<Object[]> out) {
        // The trigger may not fire this time.
        State none = s.copy();
        none.snapshotDue = false;
        out.add(new Object[]{none, "no snapshot"});
        State t = s.copy();
        t.snapshotDue = false;
        int position = t.firstOpen();   // the committed view's position: the last stable offset
        View committed = read(t, position, true);
        if (!committed.complete) {
            return;
        }
        Object snap = LedgerIndexes.snapshot(committed.index, position, Map.of(KEY, (long) t.spso()));
        t.log.add(new Snapshot(snap, position));
        out.add(new Object[]{t, "snapshot below " + position + " (SPSO " + t.spso() + ")"});
        // Its writer then deletes the ledger below it (the deletion may also not happen: a crash, or a refusal).
        if (position > t.logStart) {
            State deleted = t.copy();
            deleted.logStart = position;
            out.add(new Object[]{deleted, "snapshot below " + position + " (SPSO " + t.spso() + "), deleteRecords on the ledger below it"});
        }
    }
}
