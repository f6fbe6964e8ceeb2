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

import io.gapless.kafka.core.spi.ConnectionConfigs;
import io.gapless.kafka.share.ledger.AckLedger;
import io.gapless.kafka.share.ledger.LedgerSettings;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.ShareConsumer;
import org.apache.kafka.common.utils.Utils;

import java.util.HashMap;
import java.util.Map;

/**
 * For a native consumer of a group that used the ack-ledger emulation before it moved: a record
 * an emulated member committed whose acknowledgement never reached Kafka comes back, and a native
 * member must not process it again. Redelivered records ({@code deliveryCount() > 1}) are looked
 * up in the ledger's commits and acknowledged as recorded; if the lookup fails they are released.
 * First deliveries pass untouched. Used from the consumer's thread.
 *
 * @since 0.1.0
 */
public final class LedgerHistoryFilter<K, V> implements AutoCloseable {
    private final Map<String, Object> helperConfig;
    private final LedgerSettings settings;
    private final LedgerDedupFilter<K, V> dedup;
    private AckLedger ledger;
    private Admin admin;

    /** @param injectedIds the topic-id lookup, or null for one over an admin client */
    public LedgerHistoryFilter(String group, String clientId, Map<String, Object> kafkaConfig, LedgerSettings settings,
                               TopicIdResolver injectedIds) {
        this.helperConfig = new HashMap<>(kafkaConfig);
        helperConfig.put(CommonClientConfigs.CLIENT_ID_CONFIG, clientId);
        this.settings = settings;
        this.dedup = new LedgerDedupFilter<>(group, this::ledger, injectedIds == null ? new AdminTopicIdResolver(this::admin) : injectedIds,
                true);
    }

    private synchronized Admin admin() {
        if (admin == null) {
            admin = Admin.create(ConnectionConfigs.from(helperConfig, "topic-ids"));
        }
        return admin;
    }

    private AckLedger ledger() {
        if (ledger == null) {
            ledger = new AckLedger(helperConfig, settings, String.valueOf(helperConfig.get(CommonClientConfigs.CLIENT_ID_CONFIG)), null,
                    phase -> { });
        }
        return ledger;
    }

    /** {@code records} without the redeliveries a ledger commit already holds (those are acknowledged as recorded). */
    public ConsumerRecords<K, V> apply(ConsumerRecords<K, V> records, ShareConsumer<K, V> delegate) {
        return dedup.apply(records, delegate);
    }

    @Override
    public void close() {
        synchronized (this) {
            if (admin != null) {
                Utils.closeQuietly(admin, "topic-id admin");
            }
        }
        if (ledger != null) {
            Utils.closeQuietly(ledger, "ack ledger");
        }
    }
}
