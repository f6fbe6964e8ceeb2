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
import io.gapless.kafka.core.spi.ModeDecision.Fallback;
import io.gapless.kafka.share.ledger.AckLedger;
import io.gapless.kafka.share.ledger.LedgerSettings;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ShareGroupDescription;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Whether a share consumer that could run KIP-1289 natively may do so in its group: emulated and
 * native members never share a group. The group runs natively once it moved (the mode topic says
 * so); an empty group moves when its first native-capable member starts (the move is recorded,
 * then every ledger transaction still open is waited out); a group with live members that has not
 * moved stays emulated, with a WARN, until all its members are stopped. Taken once, at the
 * consumer's construction. See sdk-share/RATIONALE.md and MIGRATION.md.
 *
 * @since 0.1.0
 */
public final class NativeHandOver {
    private static final Logger log = LoggerFactory.getLogger(NativeHandOver.class);
    private static final long TIMEOUT_MS = 30_000;
    /** An open ledger transaction of a member that just stopped holds the ledger until its transaction.timeout.ms. */
    private static final long QUIET_TIMEOUT_MS = 120_000;

    /** What the consumer does: its path, and whether the group has ledger history to deduplicate redeliveries against. */
    public record Decision(AckPath path, boolean ledgerHistory) {
    }

    /** {@link #decide}, or a test's stand-in. */
    @FunctionalInterface
    public interface Decider {
        Decision decide(String group, String clientId, Map<String, Object> clientConfig, String modeTopicPrefix, LedgerSettings ledger,
                        Fallback fallback);
    }

    private NativeHandOver() {
    }

    /**
     * @param clientConfig the consumer's Kafka settings (connection and security are used), with its client id
     * @param fallback     what to do when the group cannot move: emulate, at-least-once, or fail
     * @throws UnsupportedVersionException with {@link Fallback#FAIL} when the group has live members and has not moved
     */
    public static Decision decide(String group, String clientId, Map<String, Object> clientConfig, String modeTopicPrefix,
                                  LedgerSettings ledger, Fallback fallback) {
        try (AckModeRegistry modes = new AckModeRegistry(clientConfig, modeTopicPrefix, ledger.replicationFactor());
             AckLedger ledgerTopics = new AckLedger(clientConfig, ledger, clientId + "-handover", null, phase -> { });
             Admin admin = Admin.create(ConnectionConfigs.from(clientConfig, "kip1289-handover"))) {
            boolean history = ledgerTopics.exists(group);
            var claim = modes.nativeClaim(group);
            if (claim.isPresent()) {
                log.info("Share consumer {}: {}; native", clientId, claim.get().describe());
                return new Decision(AckPath.NATIVE, history);
            }
            int members = liveMembers(admin, group);
            if (members == 0) {
                modes.claimNative(group, clientId);
                if (history) {
                    awaitLedgerQuiet(group, ledgerTopics);
                }
                log.info("Share consumer {}: share group {} was empty and moved to native KIP-1289 (recorded in {}){}", clientId, group,
                        modes.topicOf(group), history ? "; redelivered records are still checked against the ack ledger's commits" : "");
                return new Decision(AckPath.NATIVE, history);
            }
            String why = "share group " + group + " has " + members + " live member(s) and has not moved to native KIP-1289; its "
                    + "members may emulate it with the ack ledger, and emulated and native members cannot share a group";
            switch (fallback) {
                case FAIL -> throw new UnsupportedVersionException(why + ". Stop every member of the group, then start them "
                        + "(MIGRATION.md), or set " + ShareTransactionConfigs.FALLBACK_CONFIG + "=" + Fallback.EMULATE);
                case AT_LEAST_ONCE -> {
                    log.warn("Share consumer {}: {}; it stays at-least-once", clientId, why);
                    return new Decision(AckPath.AT_LEAST_ONCE, history);
                }
                default -> {
                    log.warn("Share consumer {}: {}; it keeps emulating with the ack ledger until every member has been "
                            + "stopped (MIGRATION.md, 'Moving to native')", clientId, why);
                    return new Decision(AckPath.LEDGER, history);
                }
            }
        }
    }

    private static int liveMembers(Admin admin, String group) {
        try {
            ShareGroupDescription d = admin.describeShareGroups(List.of(group)).describedGroups().get(group)
                    .get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
            return d.members().size();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof GroupIdNotFoundException) {
                return 0;
            }
            throw new KafkaException("Cannot describe share group " + group, e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaException("Interrupted while describing share group " + group, e);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new KafkaException("Timed out describing share group " + group, e);
        }
    }

    // Every ledger transaction written before the move must have its fate: an emulated commit that lands later would go unseen.
    private static void awaitLedgerQuiet(String group, AckLedger ledger) {
        TopicPartition p = ledger.partitionOf(group);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(QUIET_TIMEOUT_MS);
        ledger.uncommitted().catchUpToEnd(p, deadline);
        long end = ledger.uncommitted().position(p);
        ledger.committed().catchUpTo(p, end, deadline);
    }
}
