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
package io.gapless.kafka.share.ledger;

import java.util.Arrays;
import java.util.List;
import java.util.function.LongPredicate;

/**
 * The ranges one {@link LedgerIndex} holds for one share-partition, as parallel primitive arrays
 * ordered by first offset (then ledger offset): a lookup is a binary search for the first range
 * that can reach the asked offsets, {@code first >= asked - longest span}, then a walk while
 * {@code first <= asked last}. The ranges of one partition's committed entries are disjoint runs,
 * so that walk visits one or two; overlapping ranges (an aborted holder and the committed one, a
 * redelivery) are kept and found too. Transactional ids are held as ids interned by the index.
 * 31 bytes per range (plus at most a quarter of that as growth slack) instead of a {@link LedgerRange}
 * object, its list slot and its own transactional-id String.
 */
final class CommittedRuns {
    private static final int INITIAL = 8;

    private long[] first = new long[INITIAL];
    private long[] last = new long[INITIAL];
    private long[] ledgerOffset = new long[INITIAL];
    private int[] transactionalId = new int[INITIAL];
    private short[] deliveryCount = new short[INITIAL];
    private byte[] ackType = new byte[INITIAL];
    private int size;
    // The longest last - first held: no range starting before (asked first - maxSpan) can reach it.
    private long maxSpan;

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** Adds a range; {@code id} is its transactional id as interned. In order (the usual case) an append. */
    void add(LedgerRange r, int id) {
        if (size == first.length) {
            grow();
        }
        int at = size;
        if (size > 0 && before(r.first(), r.ledgerOffset(), size - 1)) {
            at = insertionPoint(r.first(), r.ledgerOffset());
            shift(at);
        }
        first[at] = r.first();
        last[at] = r.last();
        ledgerOffset[at] = r.ledgerOffset();
        transactionalId[at] = id;
        deliveryCount[at] = r.deliveryCount();
        ackType[at] = r.ackType();
        size++;
        maxSpan = Math.max(maxSpan, r.last() - r.first());
    }

    /** Appends to {@code out} the ranges below {@code belowLedgerOffset} that overlap [{@code from}, {@code to}], in ledger order. */
    void overlapping(long from, long to, long belowLedgerOffset, TransactionalIds ids, List<LedgerRange> out) {
        int start = out.size();
        long reach = from - maxSpan;
        if (reach > from) { // underflow
            reach = Long.MIN_VALUE;
        }
        for (int i = lowerBound(reach); i < size && first[i] <= to; i++) {
            if (last[i] >= from && ledgerOffset[i] < belowLedgerOffset) {
                out.add(range(i, ids));
            }
        }
        if (out.size() - start > 1) {
            // Callers read them in the order the entries were written.
            out.subList(start, out.size()).sort((a, b) -> a.ledgerOffset() != b.ledgerOffset()
                    ? Long.compare(a.ledgerOffset(), b.ledgerOffset()) : Long.compare(a.first(), b.first()));
        }
    }

    /** Drops the ranges whose ledger offset matches {@code drop}, keeping the order. */
    void removeIf(LongPredicate drop) {
        int kept = 0;
        long span = 0;
        for (int i = 0; i < size; i++) {
            if (drop.test(ledgerOffset[i])) {
                continue;
            }
            if (kept != i) {
                first[kept] = first[i];
                last[kept] = last[i];
                ledgerOffset[kept] = ledgerOffset[i];
                transactionalId[kept] = transactionalId[i];
                deliveryCount[kept] = deliveryCount[i];
                ackType[kept] = ackType[i];
            }
            span = Math.max(span, last[kept] - first[kept]);
            kept++;
        }
        size = kept;
        maxSpan = span;
    }

    /** Every range, in ledger order (as the entries were written). */
    LedgerRange[] inLedgerOrder(TransactionalIds ids) {
        LedgerRange[] out = new LedgerRange[size];
        for (int i = 0; i < size; i++) {
            out[i] = range(i, ids);
        }
        Arrays.sort(out, (a, b) -> a.ledgerOffset() != b.ledgerOffset()
                ? Long.compare(a.ledgerOffset(), b.ledgerOffset()) : Long.compare(a.first(), b.first()));
        return out;
    }

    /** The ledger offsets of the entries whose ranges are held, ascending, each once. */
    long[] entries() {
        long[] offsets = Arrays.copyOf(ledgerOffset, size);
        Arrays.sort(offsets);
        return Arrays.stream(offsets).distinct().toArray();
    }

    /** Adds the transactional ids held here to {@code live} (indexed by interned id). */
    void markIds(boolean[] live) {
        for (int i = 0; i < size; i++) {
            live[transactionalId[i]] = true;
        }
    }

    /** Renumbers the interned ids after the table was compacted ({@code renumbered[old] = new}). */
    void renumber(int[] renumbered) {
        for (int i = 0; i < size; i++) {
            transactionalId[i] = renumbered[transactionalId[i]];
        }
    }

    private LedgerRange range(int i, TransactionalIds ids) {
        return new LedgerRange(ledgerOffset[i], ids.name(transactionalId[i]), first[i], last[i], ackType[i], deliveryCount[i]);
    }

    // Whether (f, lo) sorts before the range at i.
    private boolean before(long f, long lo, int i) {
        return f < first[i] || (f == first[i] && lo < ledgerOffset[i]);
    }

    // The first index whose range sorts after (f, lo).
    private int insertionPoint(long f, long lo) {
        int low = 0;
        int high = size;
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (before(f, lo, mid)) {
                high = mid;
            } else {
                low = mid + 1;
            }
        }
        return low;
    }

    // The first index whose first offset is >= f.
    private int lowerBound(long f) {
        int low = 0;
        int high = size;
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (first[mid] < f) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return low;
    }

    private void shift(int at) {
        int n = size - at;
        System.arraycopy(first, at, first, at + 1, n);
        System.arraycopy(last, at, last, at + 1, n);
        System.arraycopy(ledgerOffset, at, ledgerOffset, at + 1, n);
        System.arraycopy(transactionalId, at, transactionalId, at + 1, n);
        System.arraycopy(deliveryCount, at, deliveryCount, at + 1, n);
        System.arraycopy(ackType, at, ackType, at + 1, n);
    }

    private void grow() {
        // A quarter more each time: at most a quarter of the arrays is slack (copies stay amortised O(1)).
        int capacity = first.length + Math.max(INITIAL, first.length >> 2);
        first = Arrays.copyOf(first, capacity);
        last = Arrays.copyOf(last, capacity);
        ledgerOffset = Arrays.copyOf(ledgerOffset, capacity);
        transactionalId = Arrays.copyOf(transactionalId, capacity);
        deliveryCount = Arrays.copyOf(deliveryCount, capacity);
        ackType = Arrays.copyOf(ackType, capacity);
    }
}
