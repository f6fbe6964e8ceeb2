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

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.gapless.kafka.share.ledger.AckLedger;
import io.gapless.kafka.share.ledger.LedgerHistoryLostException;
import org.apache.kafka.common.Uuid;

import java.time.Duration;
import java.util.Optional;

/**
 * Keeps a share group on the ack ledger that holds its history (issue 22, finding 8). The group's
 * first ledger commit binds it, in its mode topic (durable, compacted, the SDK's own), to its
 * ledger topic by name and topic id; every client checks the binding before its first commit
 * into the group and every few minutes after. A bound ledger that is gone, re-created (another
 * id) or not the one this client is configured with is refused with a
 * {@link LedgerHistoryLostException}: the new ledger cannot know which records the old one holds,
 * and committing on would commit again every record whose acknowledgement was lost. The ledger is
 * not created while the group is bound to another. An operator lifts the refusal with
 * {@link TransactionalShareGroups#acceptLedgerLoss}, or by pointing the clients back at the bound
 * ledger.
 */
final class LedgerBindingCheck {
    private static final Duration RECHECK = Duration.ofMinutes(5);

    private final AckModeRegistry modes;
    private final AckLedger ledger;
    private final String clientId;
    private final Cache<String, AckModeRegistry.LedgerBinding> checked = Caffeine.newBuilder().expireAfterWrite(RECHECK).build();

    LedgerBindingCheck(AckModeRegistry modes, AckLedger ledger, String clientId) {
        this.modes = modes;
        this.ledger = ledger;
        this.clientId = clientId;
    }

    /**
     * Before records of {@code group} are committed through this client's ledger: binds the group
     * on its first ledger commit (creating the ledger topic), else checks the binding.
     *
     * @throws LedgerHistoryLostException naming the group, the bound ledger and the one found
     */
    void check(String group) {
        if (checked.getIfPresent(group) != null) {
            return;
        }
        String topic = ledger.topicOf(group);
        Optional<AckModeRegistry.LedgerBinding> bound = modes.ledgerBinding(group, true);
        if (bound.isEmpty()) {
            // The group's first ledger commit (or its first since the SDK binds ledgers): this ledger is its history.
            ledger.ensureSafe(group);
            Uuid id = ledger.topicId(group).orElseThrow(() -> new LedgerHistoryLostException("Ack-ledger topic " + topic
                    + " of share group " + group + " vanished right after it was checked"));
            // Written in the background: the first commit (its records' locks running) does not wait for it. Write on the mode
            // topic was not needed before bindings: without it the callback WARNs and the group commits, unprotected.
            checked.put(group, modes.bind(group, topic, id, clientId, false));
            return;
        }
        AckModeRegistry.LedgerBinding b = bound.get();
        if (!b.topic().equals(topic)) {
            throw lost(group, b, "this client is configured with ack-ledger topic " + topic
                    + ", which does not hold the group's history; set " + ShareTransactionConfigs.LEDGER_TOPIC_CONFIG + " (or the prefix) "
                    + "back so that the clients use " + b.topic());
        }
        Optional<Uuid> id = ledger.topicId(group);
        if (id.isEmpty()) {
            // Never created again here, nor left to the broker's auto-creation with its defaults.
            throw lost(group, b, "that topic does not exist any more (it was deleted)");
        }
        if (!id.get().equals(b.topicId())) {
            throw lost(group, b, "topic " + topic + " now has topic id " + id.get() + ": it was deleted and re-created, empty");
        }
        ledger.ensureSafe(group);
        checked.put(group, b);
    }

    /** The ledger showed a loss (a reader found it shorter than it had read): check the binding again before the next commit. */
    void recheck(String group) {
        checked.invalidate(group);
        ledger.recheck(group);
    }

    static LedgerHistoryLostException lost(String group, AckModeRegistry.LedgerBinding bound, String found) {
        return new LedgerHistoryLostException("Share group " + group + " is bound to " + bound.describe() + ", but " + found
                + ". A new ledger cannot know which records the old one holds: committing on would commit a second time every record "
                + "whose acknowledgement was lost after its commit, so no transaction of this group commits and its consumers stop. "
                + "If the old ledger still exists, point every client back at it; otherwise an operator accepts the loss with "
                + "TransactionalShareGroups.acceptLedgerLoss (records in flight at that moment may then be processed again; "
                + "sdk-share/RATIONALE.md, \"A lost ledger\"), and the clients are restarted");
    }
}
