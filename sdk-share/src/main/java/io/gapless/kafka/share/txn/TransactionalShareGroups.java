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
import io.gapless.kafka.share.ledger.LedgerHistoryLostException;
import io.gapless.kafka.share.ledger.LedgerSettings;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.SharePartitionOffsetInfo;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.utils.Utils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Operator calls for a share group's KIP-1289 mode: whether it moved from the SDK's ack-ledger
 * emulation to Kafka's native transactional acknowledgements, and moving it back; and accepting
 * the loss of a group's ack ledger ({@link #acceptLedgerLoss}). A group moves
 * by itself when its first native-capable member starts while the group is empty (see
 * {@code MIGRATION.md}); from then on emulated members refuse to commit into it.
 *
 * <pre>{@code
 * Optional<Instant> since = TransactionalShareGroups.nativeSince(adminProps, "orders-workers");
 * // every member stopped:
 * TransactionalShareGroups.returnToEmulation(adminProps, "orders-workers");
 * }</pre>
 *
 * {@code config} takes the connection and security settings of any client of the cluster, and
 * {@code gapless.share.mode.topic.prefix} if the members set it.
 *
 * @since 0.1.0
 */
public final class TransactionalShareGroups {
    private static final Logger log = LoggerFactory.getLogger(TransactionalShareGroups.class);
    private static final ConfigDef CONFIG = ShareTransactionConfigs.addTo(new ConfigDef());

    private TransactionalShareGroups() {
    }

    /** When {@code group} moved to native KIP-1289, or empty while it runs on the emulation. */
    public static Optional<Instant> nativeSince(Map<String, Object> config, String group) {
        try (AckModeRegistry modes = registry(config)) {
            return modes.nativeClaim(Objects.requireNonNull(group, "group")).map(AckModeRegistry.NativeClaim::since);
        }
    }

    /** Same as {@link #nativeSince(Map, String)}. */
    public static Optional<Instant> nativeSince(Properties config, String group) {
        return nativeSince(Utils.propsToMap(config), group);
    }

    /**
     * Moves {@code group} back to the emulation (for a downgrade to a kafka-clients or broker
     * without KIP-1289). Stop every member first: native members still running would mix with the
     * emulated ones this lets in.
     */
    public static void returnToEmulation(Map<String, Object> config, String group) {
        try (AckModeRegistry modes = registry(config)) {
            modes.release(Objects.requireNonNull(group, "group"));
        }
    }

    /** Same as {@link #returnToEmulation(Map, String)}. */
    public static void returnToEmulation(Properties config, String group) {
        returnToEmulation(Utils.propsToMap(config), group);
    }

    /**
     * Accepts that the ack-ledger history of {@code group} is lost, and binds the group to the
     * ledger topic its clients are configured with ({@code gapless.ledger.topic} or
     * {@code gapless.ledger.topic.prefix} in {@code config}, as the members set them), creating it
     * with the SDK's settings if it does not exist. Until then every commit into a group whose bound
     * ledger was deleted, re-created or replaced fails with {@link LedgerHistoryLostException}
     * (sdk-share/RATIONALE.md, "A lost ledger"). The new ledger does not know what the old one
     * held: records the old ledger had committed whose acknowledgement was lost (those in flight,
     * in the returned ranges) may be processed a second time. If the old ledger still exists,
     * pointing the clients back at it loses nothing and needs no call. A configured ledger topic
     * with unsafe settings (one the broker auto-created with its defaults for a running producer's
     * entry) is refused: delete it first. Restart the clients afterwards: those that met the
     * refusal stay stopped.
     *
     * @return the loss accepted: the binding it replaces and, per share-partition of the group, the
     *         offsets whose records may be processed again
     * @throws org.apache.kafka.common.KafkaException if the cluster cannot be read or written
     * @since 0.1.0
     */
    public static LedgerLoss acceptLedgerLoss(Map<String, Object> config, String group) {
        Objects.requireNonNull(group, "group");
        Map<String, Object> c = new HashMap<>(config);
        c.putIfAbsent(CommonClientConfigs.CLIENT_ID_CONFIG, "gapless-operator");
        LedgerSettings settings = ShareTransactionConfigs.ledgerSettings(new AbstractConfig(CONFIG, c, false));
        try (AckModeRegistry modes = registry(c);
             AckLedger ledger = new AckLedger(c, settings, String.valueOf(c.get(CommonClientConfigs.CLIENT_ID_CONFIG)), null, phase -> { });
             Admin admin = Admin.create(ConnectionConfigs.from(c, "ledger-loss"))) {
            Optional<AckModeRegistry.LedgerBinding> before = modes.ledgerBinding(group, true);
            Map<TopicPartition, LedgerLoss.Window> inFlight = inFlight(admin, group);
            ledger.ensureSafe(group);
            Uuid id = ledger.topicId(group).orElseThrow(() -> new KafkaException("Ack-ledger topic " + ledger.topicOf(group)
                    + " vanished right after it was created"));
            modes.bind(group, ledger.topicOf(group), id, String.valueOf(c.get(CommonClientConfigs.CLIENT_ID_CONFIG)), true);
            LedgerLoss loss = new LedgerLoss(group, before.map(AckModeRegistry.LedgerBinding::describe).orElse("no ack ledger"),
                    ledger.topicOf(group), id, inFlight);
            log.warn("Share group {}: the loss of its ack-ledger history was accepted ({} replaced by {}, topic id {}); records in flight "
                    + "may be processed again: {}", group, loss.replaced(), loss.ledgerTopic(), id, inFlight);
            return loss;
        }
    }

    /** Same as {@link #acceptLedgerLoss(Map, String)}. */
    public static LedgerLoss acceptLedgerLoss(Properties config, String group) {
        return acceptLedgerLoss(Utils.propsToMap(config), group);
    }

    // From the share-partition start offset (everything below is done) to the log end: what the lost ledger may have committed.
    private static Map<TopicPartition, LedgerLoss.Window> inFlight(Admin admin, String group) {
        try {
            Map<TopicPartition, SharePartitionOffsetInfo> starts = admin.listShareGroupOffsets(Map.of(group, new ListShareGroupOffsetsSpec()))
                    .partitionsToOffsetInfo(group).get(30, TimeUnit.SECONDS);
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            starts.keySet().forEach(tp -> latest.put(tp, OffsetSpec.latest()));
            Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> ends = latest.isEmpty() ? Map.of()
                    : admin.listOffsets(latest).all().get(30, TimeUnit.SECONDS);
            Map<TopicPartition, LedgerLoss.Window> out = new TreeMap<>(Comparator.comparing(TopicPartition::toString));
            starts.forEach((tp, info) -> {
                if (info != null && ends.containsKey(tp)) {
                    out.put(tp, new LedgerLoss.Window(Math.max(0, info.startOffset()), ends.get(tp).offset()));
                }
            });
            return out;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaException("Interrupted while listing the offsets of share group " + group, e);
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new KafkaException("Cannot list the offsets of share group " + group + ": " + e, e);
        }
    }

    private static AckModeRegistry registry(Map<String, Object> config) {
        Map<String, Object> c = new HashMap<>(config);
        c.putIfAbsent(CommonClientConfigs.CLIENT_ID_CONFIG, "gapless-operator");
        Object prefix = c.getOrDefault(ShareTransactionConfigs.MODE_TOPIC_PREFIX_CONFIG, ShareTransactionConfigs.MODE_TOPIC_PREFIX_DEFAULT);
        return new AckModeRegistry(c, String.valueOf(prefix), (short) -1);
    }
}
