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
package io.gapless.kafka.benchmarks;

import org.apache.kafka.common.Uuid;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * sdk-share's in-memory ack-ledger index ({@code io.gapless.kafka.share.ledger}), looked
 * up by reflection so that this module builds before (and whatever internal shape) it lands. Used
 * only to measure its heap and lookup cost; one reflective call per range added or looked up.
 */
final class LedgerInternals {
    private static final String PACKAGE = "io.gapless.kafka.share.ledger.";

    private final Constructor<?> index;
    private final Constructor<?> key;
    private final Constructor<?> range;
    private final Constructor<?> entry;
    private final Method addEntry;
    private final Method covering;

    private LedgerInternals(Constructor<?> index, Constructor<?> key, Constructor<?> range, Constructor<?> entry,
                            Method addEntry, Method covering) {
        this.index = index;
        this.key = key;
        this.range = range;
        this.entry = entry;
        this.addEntry = addEntry;
        this.covering = covering;
    }

    /** The index classes, or empty with what is missing appended to {@code missing}. */
    static Optional<LedgerInternals> load(StringBuilder missing) {
        try {
            Class<?> indexClass = Class.forName(PACKAGE + "LedgerIndex");
            Class<?> keyClass = Class.forName(PACKAGE + "ShareKey");
            Class<?> rangeClass = Class.forName(PACKAGE + "LedgerRange");
            Class<?> entryClass = Class.forName(PACKAGE + "LedgerEntry");
            return Optional.of(new LedgerInternals(indexClass.getConstructor(),
                    keyClass.getConstructor(String.class, Uuid.class, String.class, int.class),
                    rangeClass.getConstructor(long.class, String.class, long.class, long.class, byte.class, short.class),
                    entryClass.getConstructor(String.class, Map.class),
                    indexClass.getMethod("addEntry", entryClass, int.class),
                    indexClass.getMethod("covering", keyClass, long.class, long.class)));
        } catch (ClassNotFoundException | NoSuchMethodException e) {
            missing.append(e.getMessage());
            return Optional.empty();
        }
    }

    Object newIndex() {
        return create(index);
    }

    Object newKey(String group, Uuid topicId, String topic, int partition) {
        return create(key, group, topicId, topic, partition);
    }

    /** Adds one ledger entry of one transaction holding one ACCEPT range [first, last] of {@code shareKey}. */
    void addRange(Object ledgerIndex, Object shareKey, long ledgerOffset, String transactionalId, long first, long last) {
        Object r = create(range, ledgerOffset, transactionalId, first, last, (byte) 1, (short) 1);
        Object e = create(entry, transactionalId, Map.of(shareKey, List.of(r)));
        call(addEntry, ledgerIndex, e, 64);
    }

    /** Whether a committed range of {@code shareKey} covers {@code offset} (the redelivery lookup). */
    boolean covered(Object ledgerIndex, Object shareKey, long offset) {
        return !((List<?>) call(covering, ledgerIndex, shareKey, offset, Long.MAX_VALUE)).isEmpty();
    }

    private static Object create(Constructor<?> c, Object... args) {
        try {
            return c.newInstance(args);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException(e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Object call(Method m, Object target, Object... args) {
        try {
            return m.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException(e.getCause());
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }
}
