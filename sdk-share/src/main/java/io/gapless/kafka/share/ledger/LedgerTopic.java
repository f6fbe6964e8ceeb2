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

import io.gapless.kafka.core.spi.StateTopicProvisioner;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;

/**
 * Creates an ack-ledger topic on first use and refuses one that could lose or reorder committed
 * entries. A lost committed entry lets a redelivered record be committed a second time, so the
 * topic is created with {@code min(3, brokers)} replicas, {@code min.insync.replicas=2} (1 for a
 * single replica), no compaction, no time or size retention (the SDK deletes below its own
 * snapshots) and no unclean leader election; and it has one partition, whose offsets order every
 * entry of a group.
 */
final class LedgerTopic {
    private static final Logger log = LoggerFactory.getLogger(LedgerTopic.class);
    private static final long TIMEOUT_MS = 30_000;

    private LedgerTopic() {
    }

    /**
     * Creates {@code topic} unless it exists, waits until it has a leader and checks it (through
     * the SDK's one {@link StateTopicProvisioner}).
     *
     * @throws IllegalStateException naming the topic and the setting when an existing topic is unsafe
     */
    static void ensure(Admin admin, String topic, LedgerSettings settings) {
        try {
            StateTopicProvisioner.ensure(admin, spec(topic, settings));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaException("Interrupted while checking the ack-ledger topic " + topic, e);
        } catch (ExecutionException e) {
            throw new KafkaException("Cannot create or describe the ack-ledger topic " + topic + ": " + e.getCause(), e.getCause());
        } catch (java.util.concurrent.TimeoutException e) {
            throw new TimeoutException("Timed out creating or describing the ack-ledger topic " + topic, e);
        }
    }

    /** The provisioner's view of a ledger topic: one partition, no compaction, no retention, no unclean leader election. */
    static StateTopicProvisioner.Spec spec(String topic, LedgerSettings settings) {
        Optional<Short> rf = settings.replicationFactor() == -1 ? Optional.empty() : Optional.of(settings.replicationFactor());
        return new StateTopicProvisioner.Spec(topic, "ack-ledger topic", 1, rf, Map.of(
                TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_DELETE,
                TopicConfig.RETENTION_MS_CONFIG, "-1",
                TopicConfig.RETENTION_BYTES_CONFIG, "-1",
                TopicConfig.UNCLEAN_LEADER_ELECTION_ENABLE_CONFIG, "false"),
                Duration.ofMillis(TIMEOUT_MS), (description, config, brokers) -> check(description, config, settings, brokers));
    }

    /** Whether {@code topic} exists (the consumer only reads the ledger and never creates it). */
    static boolean exists(Admin admin, String topic) {
        try {
            return StateTopicProvisioner.exists(admin, topic, Duration.ofMillis(TIMEOUT_MS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaException("Interrupted while describing the ack-ledger topic " + topic, e);
        } catch (ExecutionException e) {
            throw new KafkaException("Cannot describe the ack-ledger topic " + topic + ": " + e.getCause(), e.getCause());
        } catch (java.util.concurrent.TimeoutException e) {
            throw new TimeoutException("Timed out describing the ack-ledger topic " + topic, e);
        }
    }

    /** The topic id of {@code topic}, or empty when it does not exist. */
    static Optional<Uuid> topicId(Admin admin, String topic) {
        try {
            return StateTopicProvisioner.topicId(admin, topic, Duration.ofMillis(TIMEOUT_MS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaException("Interrupted while describing the ack-ledger topic " + topic, e);
        } catch (ExecutionException e) {
            throw new KafkaException("Cannot describe the ack-ledger topic " + topic + ": " + e.getCause(), e.getCause());
        } catch (java.util.concurrent.TimeoutException e) {
            throw new TimeoutException("Timed out describing the ack-ledger topic " + topic, e);
        }
    }

    /** Refuses a ledger topic that could lose or reorder committed entries ({@code brokers} -1: not known, the replica check is skipped). */
    private static void check(TopicDescription d, Config config, LedgerSettings settings, int brokers) {
        String topic = d.name();
        int partitions = d.partitions().size();
        if (partitions != 1) {
            throw unsafe(topic, "partitions=" + partitions, "an ack-ledger topic must have exactly one partition: the offsets of one "
                    + "partition order every entry of a share group, and a transaction waits for the entries below its own");
        }
        int replicas = d.partitions().get(0).replicas().size();
        if (replicas == 1 && brokers > 1 && settings.replicationFactor() != 1) {
            throw unsafe(topic, "replication.factor=1", "on a cluster of " + brokers + " brokers one lost disk would lose committed "
                    + "entries (and let their records be committed again); re-create it replicated, or set "
                    + "gapless.ledger.replication.factor=1 to accept that");
        }
        String cleanup = value(config, TopicConfig.CLEANUP_POLICY_CONFIG);
        if (cleanup != null && cleanup.contains(TopicConfig.CLEANUP_POLICY_COMPACT)) {
            throw unsafe(topic, "cleanup.policy=" + cleanup, "compaction keeps one record per key and would drop committed entries");
        }
        for (String retention : List.of(TopicConfig.RETENTION_MS_CONFIG, TopicConfig.RETENTION_BYTES_CONFIG)) {
            String v = value(config, retention);
            if (v != null && !v.equals("-1")) {
                throw unsafe(topic, retention + "=" + v, "retention would delete committed entries that no snapshot holds; the SDK "
                        + "deletes below its own snapshots (set " + retention + "=-1)");
            }
        }
        if ("true".equalsIgnoreCase(value(config, TopicConfig.UNCLEAN_LEADER_ELECTION_ENABLE_CONFIG))) {
            throw unsafe(topic, "unclean.leader.election.enable=true", "an out-of-sync replica elected leader would lose committed entries");
        }
        String minIsr = value(config, TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG);
        if (replicas > 1 && minIsr != null && Integer.parseInt(minIsr) < 2) {
            log.warn("Ack-ledger topic {} has min.insync.replicas={} with {} replicas: a committed entry may be on one disk only", topic,
                    minIsr, replicas);
        }
    }

    private static String value(Config config, String name) {
        ConfigEntry e = config.get(name);
        return e == null ? null : e.value();
    }

    private static IllegalStateException unsafe(String topic, String setting, String why) {
        return new IllegalStateException("Ack-ledger topic " + topic + " has " + setting + ": " + why);
    }
}
