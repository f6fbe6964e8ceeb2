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

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Transactional ids interned by one {@link LedgerIndex}: each decoded entry brings its own copy of
 * a few ids (one per member's producer), held once here and referred to by number.
 */
final class TransactionalIds {
    private final Map<String, Integer> ids = new HashMap<>();
    private final List<String> names = new ArrayList<>();

    int intern(String name) {
        Integer id = ids.get(name);
        if (id != null) {
            return id;
        }
        int next = names.size();
        ids.put(name, next);
        names.add(name);
        return next;
    }

    String name(int id) {
        return names.get(id);
    }

    int size() {
        return names.size();
    }

    /** Keeps only the ids marked live; returns each old id's new number (-1 where dropped). */
    int[] retain(boolean[] live) {
        int[] renumbered = new int[names.size()];
        List<String> kept = new ArrayList<>();
        ids.clear();
        for (int i = 0; i < renumbered.length; i++) {
            if (live[i]) {
                renumbered[i] = kept.size();
                ids.put(names.get(i), kept.size());
                kept.add(names.get(i));
            } else {
                renumbered[i] = -1;
            }
        }
        names.clear();
        names.addAll(kept);
        return renumbered;
    }

    void clear() {
        ids.clear();
        names.clear();
    }
}
