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

import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.utils.Utils;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;

/**
 * Operator calls for a share group's KIP-1289 mode: whether it moved from the SDK's ack-ledger
 * emulation to Kafka's native transactional acknowledgements, and moving it back. A group moves
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

    private static AckModeRegistry registry(Map<String, Object> config) {
        Map<String, Object> c = new HashMap<>(config);
        c.putIfAbsent(CommonClientConfigs.CLIENT_ID_CONFIG, "gapless-operator");
        Object prefix = c.getOrDefault(ShareTransactionConfigs.MODE_TOPIC_PREFIX_CONFIG, ShareTransactionConfigs.MODE_TOPIC_PREFIX_DEFAULT);
        return new AckModeRegistry(c, String.valueOf(prefix), (short) -1);
    }
}
