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

import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.SerializationException;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Binary form of ledger records: a version byte, a kind byte, then the entry, the snapshot or the
 * stand-alone confirmations.
 *
 * <p>A snapshot's claims (see {@link LedgerSnapshot}) follow its confirmations, within version 2:
 * readers before them stop after the confirmations and ignore the rest (they keep compacted
 * ranges as the committed ranges they are), and a snapshot without them was written before
 * compaction, so its watermarks are its claims.
 */
final class LedgerCodec {
    static final byte VERSION = 2;
    static final byte KIND_ENTRY = 1;
    static final byte KIND_SNAPSHOT = 2;
    static final byte KIND_CONFIRMATIONS = 3;

    private LedgerCodec() {
    }

    static byte[] encodeEntry(LedgerEntry entry) {
        return write(out -> {
            out.writeByte(KIND_ENTRY);
            out.writeUTF(entry.transactionalId());
            writeRanges(out, entry.ranges());
            writeConfirmations(out, entry.confirmations());
        });
    }

    /** Confirmations written outside a transaction (a closing producer's last ones). */
    static byte[] encodeConfirmations(List<LedgerConfirmation> confirmations) {
        return write(out -> {
            out.writeByte(KIND_CONFIRMATIONS);
            writeConfirmations(out, confirmations);
        });
    }

    static byte[] encodeSnapshot(LedgerSnapshot snapshot) {
        return write(out -> {
            out.writeByte(KIND_SNAPSHOT);
            out.writeLong(snapshot.coversBelow());
            out.writeInt(snapshot.watermarks().size());
            for (Map.Entry<ShareKey, Watermark> w : snapshot.watermarks().entrySet()) {
                writeKey(out, w.getKey());
                out.writeLong(w.getValue().offset());
                out.writeShort(w.getValue().maxDelivery());
            }
            // Ranges of several entries: each range keeps its own ledger offset and transactional id.
            out.writeInt(snapshot.ranges().size());
            for (Map.Entry<ShareKey, List<LedgerRange>> e : snapshot.ranges().entrySet()) {
                writeKey(out, e.getKey());
                out.writeInt(e.getValue().size());
                for (LedgerRange r : e.getValue()) {
                    out.writeLong(r.ledgerOffset());
                    out.writeUTF(r.transactionalId());
                    writeRange(out, r);
                }
            }
            out.writeInt(snapshot.confirmed().size());
            for (Map.Entry<ShareKey, Set<Long>> e : snapshot.confirmed().entrySet()) {
                writeKey(out, e.getKey());
                out.writeInt(e.getValue().size());
                for (long offset : e.getValue()) {
                    out.writeLong(offset);
                }
            }
            out.writeInt(snapshot.claimedBelow().size());
            for (Map.Entry<ShareKey, Long> c : snapshot.claimedBelow().entrySet()) {
                writeKey(out, c.getKey());
                out.writeLong(c.getValue());
            }
        });
    }

    /**
     * Decodes a ledger record read at {@code ledgerOffset}: a {@link LedgerEntry} (ranges carry the
     * offset), a {@link LedgerSnapshot} or a list of {@link LedgerConfirmation}s.
     */
    static Object decode(byte[] value, long ledgerOffset) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(value))) {
            byte version = in.readByte();
            if (version != VERSION) {
                throw new SerializationException("Unknown ack-ledger record version " + version + " at offset " + ledgerOffset);
            }
            byte kind = in.readByte();
            if (kind == KIND_ENTRY) {
                String txnId = in.readUTF();
                Map<ShareKey, List<LedgerRange>> ranges = readRanges(in, ledgerOffset, txnId);
                return new LedgerEntry(txnId, ranges, readConfirmations(in));
            }
            if (kind == KIND_CONFIRMATIONS) {
                return readConfirmations(in);
            }
            if (kind == KIND_SNAPSHOT) {
                return readSnapshot(in);
            }
            throw new SerializationException("Unknown ack-ledger record kind " + kind + " at offset " + ledgerOffset);
        } catch (IOException e) {
            throw new SerializationException("Corrupt ack-ledger record at offset " + ledgerOffset, e);
        }
    }

    private static LedgerSnapshot readSnapshot(DataInputStream in) throws IOException {
        long coversBelow = in.readLong();
        int nw = in.readInt();
        Map<ShareKey, Watermark> watermarks = new LinkedHashMap<>();
        for (int i = 0; i < nw; i++) {
            ShareKey key = readKey(in);
            watermarks.put(key, new Watermark(in.readLong(), in.readShort()));
        }
        int nk = in.readInt();
        Map<ShareKey, List<LedgerRange>> ranges = new LinkedHashMap<>();
        for (int i = 0; i < nk; i++) {
            ShareKey key = readKey(in);
            int nr = in.readInt();
            List<LedgerRange> list = new ArrayList<>(nr);
            for (int j = 0; j < nr; j++) {
                long off = in.readLong();
                String txn = in.readUTF();
                list.add(readRange(in, off, txn));
            }
            ranges.put(key, list);
        }
        int nc = in.readInt();
        Map<ShareKey, Set<Long>> confirmed = new LinkedHashMap<>();
        for (int i = 0; i < nc; i++) {
            ShareKey key = readKey(in);
            int n = in.readInt();
            Set<Long> offsets = new HashSet<>();
            for (int j = 0; j < n; j++) {
                offsets.add(in.readLong());
            }
            confirmed.put(key, offsets);
        }
        return new LedgerSnapshot(coversBelow, watermarks, ranges, confirmed, readClaims(in, watermarks));
    }

    // Absent in a snapshot written before compaction: it dropped the ranges below its watermarks, which it claims handled.
    private static Map<ShareKey, Long> readClaims(DataInputStream in, Map<ShareKey, Watermark> watermarks) throws IOException {
        Map<ShareKey, Long> claims = new LinkedHashMap<>();
        if (in.available() == 0) {
            watermarks.forEach((key, wm) -> {
                if (!Watermark.DEAD.equals(wm)) {
                    claims.put(key, wm.offset());
                }
            });
            return claims;
        }
        int n = in.readInt();
        for (int i = 0; i < n; i++) {
            claims.put(readKey(in), in.readLong());
        }
        return claims;
    }

    private static void writeConfirmations(DataOutputStream out, List<LedgerConfirmation> confirmations) throws IOException {
        out.writeInt(confirmations.size());
        for (LedgerConfirmation c : confirmations) {
            writeKey(out, c.key());
            out.writeLong(c.ledgerOffset());
        }
    }

    private static List<LedgerConfirmation> readConfirmations(DataInputStream in) throws IOException {
        int n = in.readInt();
        List<LedgerConfirmation> list = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            list.add(new LedgerConfirmation(readKey(in), in.readLong()));
        }
        return list;
    }

    private static void writeRanges(DataOutputStream out, Map<ShareKey, List<LedgerRange>> ranges) throws IOException {
        out.writeInt(ranges.size());
        for (Map.Entry<ShareKey, List<LedgerRange>> e : ranges.entrySet()) {
            writeKey(out, e.getKey());
            out.writeInt(e.getValue().size());
            for (LedgerRange r : e.getValue()) {
                writeRange(out, r);
            }
        }
    }

    private static Map<ShareKey, List<LedgerRange>> readRanges(DataInputStream in, long ledgerOffset, String txnId) throws IOException {
        int nk = in.readInt();
        Map<ShareKey, List<LedgerRange>> ranges = new LinkedHashMap<>();
        for (int i = 0; i < nk; i++) {
            ShareKey key = readKey(in);
            int nr = in.readInt();
            List<LedgerRange> list = new ArrayList<>(nr);
            for (int j = 0; j < nr; j++) {
                list.add(readRange(in, ledgerOffset, txnId));
            }
            ranges.put(key, list);
        }
        return ranges;
    }

    private static void writeKey(DataOutputStream out, ShareKey key) throws IOException {
        out.writeUTF(key.group());
        out.writeLong(key.topicId().getMostSignificantBits());
        out.writeLong(key.topicId().getLeastSignificantBits());
        out.writeUTF(key.topic());
        out.writeInt(key.partition());
    }

    private static ShareKey readKey(DataInputStream in) throws IOException {
        String group = in.readUTF();
        Uuid id = new Uuid(in.readLong(), in.readLong());
        String topic = in.readUTF();
        return new ShareKey(group, id, topic, in.readInt());
    }

    private static void writeRange(DataOutputStream out, LedgerRange r) throws IOException {
        out.writeLong(r.first());
        out.writeLong(r.last());
        out.writeByte(r.ackType());
        out.writeShort(r.deliveryCount());
    }

    private static LedgerRange readRange(DataInputStream in, long ledgerOffset, String txnId) throws IOException {
        long first = in.readLong();
        long last = in.readLong();
        byte type = in.readByte();
        short count = in.readShort();
        return new LedgerRange(ledgerOffset, txnId, first, last, type, count);
    }

    private interface Body {
        void write(DataOutputStream out) throws IOException;
    }

    private static byte[] write(Body body) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(128);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(VERSION);
            body.write(out);
        } catch (IOException e) {
            throw new SerializationException("Cannot encode ack-ledger record", e);
        }
        return bytes.toByteArray();
    }
}
