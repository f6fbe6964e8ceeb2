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
