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
package io.gapless.kafka.streams;

import org.apache.kafka.common.serialization.LongSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.DBOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * Edits a stopped application's RocksDB stores the way faults leave them. Kafka Streams 4.4 keeps,
 * in each store's {@code offsets} column family, a {@code status} entry ({@code 1} while the store
 * is open, {@code 0} once it closed cleanly: under exactly-once a store found open raises
 * {@code TaskCorruptedException}, "didn't find a valid state") and the changelog offset the store
 * holds (restoration resumes after it; below the changelog's log start the restore consumer gets
 * an out-of-range error, which also raises {@code TaskCorruptedException}).
 */
final class CrashedStores {
    private static final byte[] OFFSETS_CF = "offsets".getBytes(StandardCharsets.UTF_8);
    private static final byte[] STATUS_KEY = "status".getBytes(StandardCharsets.UTF_8);
    private static final byte[] POSITION_KEY = "position".getBytes(StandardCharsets.UTF_8);
    private static final byte[] OPEN = new LongSerializer().serialize(null, 1L);

    private CrashedStores() {
    }

    /** Marks every RocksDB store of {@code applicationId} under the state directory of {@code props} as not closed; returns how many. */
    static int markUncleanlyClosed(Properties props, String applicationId) {
        return edit(props, applicationId, (db, offsets) -> db.put(offsets, STATUS_KEY, OPEN));
    }

    /** Sets the changelog offset every store of {@code applicationId} holds to {@code offset}; returns how many stores had one. */
    static int setChangelogOffsets(Properties props, String applicationId, long offset) {
        byte[] value = new LongSerializer().serialize(null, offset);
        return edit(props, applicationId, (db, offsets) -> {
            List<byte[]> keys = new ArrayList<>();
            try (org.rocksdb.RocksIterator it = db.newIterator(offsets)) {
                for (it.seekToFirst(); it.isValid(); it.next()) {
                    if (!Arrays.equals(it.key(), STATUS_KEY) && !Arrays.equals(it.key(), POSITION_KEY)) {
                        keys.add(it.key());
                    }
                }
            }
            if (keys.isEmpty()) {
                throw new RocksDBException("no changelog offset");
            }
            for (byte[] k : keys) {
                db.put(offsets, k, value);
            }
        });
    }

    private interface Edit {
        void apply(RocksDB db, ColumnFamilyHandle offsets) throws RocksDBException;
    }

    private static int edit(Properties props, String applicationId, Edit edit) {
        RocksDB.loadLibrary();
        Path appDir = Path.of(props.getProperty(StreamsConfig.STATE_DIR_CONFIG), applicationId);
        List<Path> stores;
        try (Stream<Path> files = Files.walk(appDir)) {
            stores = files.filter(f -> f.getFileName().toString().equals("CURRENT")).map(Path::getParent).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        int marked = 0;
        for (Path store : stores) {
            if (edit(store, edit)) {
                marked++;
            }
        }
        return marked;
    }

    private static boolean edit(Path store, Edit edit) {
        try (Options options = new Options(); DBOptions dbOptions = new DBOptions()) {
            List<byte[]> names = RocksDB.listColumnFamilies(options, store.toString());
            List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
            names.forEach(n -> descriptors.add(new ColumnFamilyDescriptor(n)));
            List<ColumnFamilyHandle> handles = new ArrayList<>();
            try (RocksDB db = RocksDB.open(dbOptions, store.toString(), descriptors, handles)) {
                boolean found = false;
                for (int i = 0; i < names.size(); i++) {
                    if (Arrays.equals(names.get(i), OFFSETS_CF)) {
                        try {
                            edit.apply(db, handles.get(i));
                            found = true;
                        } catch (RocksDBException e) {
                            found = false;
                        }
                    }
                }
                handles.forEach(ColumnFamilyHandle::close);
                return found;
            }
        } catch (RocksDBException e) {
            throw new IllegalStateException("Cannot open the RocksDB store in " + store, e);
        }
    }
}
