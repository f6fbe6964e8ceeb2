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
package io.gapless.kafka.core;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.FeatureMetadata;
import org.apache.kafka.clients.admin.FinalizedVersionRange;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.KafkaException;

import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * What the broker (finalized feature levels from {@code Admin.describeFeatures}) and the
 * kafka-clients on the classpath support. The SDK probes once per client and picks, per feature,
 * the native path, its emulation, or a fast failure.
 *
 * @since 0.1.0
 */
public final class BrokerCapabilities {
    /** KIP-1327 gates consumer-group classification on {@code group.version} 2 (GV_2). */
    public static final short GROUP_VERSION_NEW_PARTITIONS = 2;
    /** KIP-1327 gates share-group classification on {@code share.version} 3 (SV_3). */
    public static final short SHARE_VERSION_NEW_PARTITIONS = 3;
    /** KIP-1289 as Kafka ships it needs {@code share.version} 3 (its integration tests enable exactly that). */
    public static final short SHARE_VERSION_TRANSACTIONAL_ACKS = 3;
    /** ... and {@code transaction.version} 2. */
    public static final short TRANSACTION_VERSION_TRANSACTIONAL_ACKS = 2;

    private final Map<String, Short> finalizedLevels;
    private final boolean clientKnowsNewPartitionsConfig;
    private final boolean brokerProbed;

    private BrokerCapabilities(Map<String, Short> finalizedLevels, boolean clientKnowsNewPartitionsConfig, boolean brokerProbed) {
        this.finalizedLevels = Map.copyOf(finalizedLevels);
        this.clientKnowsNewPartitionsConfig = clientKnowsNewPartitionsConfig;
        this.brokerProbed = brokerProbed;
    }

    /** What the kafka-clients on the classpath supports, without asking any broker. */
    public static BrokerCapabilities clientOnly() {
        return new BrokerCapabilities(Map.of(), clientKnowsConsumerConfig(GaplessConsumerConfig.AUTO_OFFSET_RESET_NEW_PARTITIONS_CONFIG), false);
    }

    /**
     * Asks the broker for its finalized feature levels and combines them with what the client
     * supports.
     *
     * @throws KafkaException when the broker does not answer within {@code timeout}
     */
    public static BrokerCapabilities probe(Admin admin, Duration timeout) {
        try {
            FeatureMetadata features = admin.describeFeatures().featureMetadata().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            Map<String, Short> levels = new TreeMap<>();
            for (Map.Entry<String, FinalizedVersionRange> e : features.finalizedFeatures().entrySet()) {
                levels.put(e.getKey(), e.getValue().maxVersionLevel());
            }
            return new BrokerCapabilities(levels, clientOnly().clientKnowsNewPartitionsConfig, true);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaException("Interrupted while probing broker features", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new KafkaException("Could not probe the broker's features (describeFeatures) within " + timeout, e.getCause() == null ? e : e.getCause());
        }
    }

    /** Capabilities as given, for tests and for users who know their cluster. */
    public static BrokerCapabilities of(Map<String, Short> finalizedLevels, boolean clientKnowsNewPartitionsConfig) {
        return new BrokerCapabilities(finalizedLevels, clientKnowsNewPartitionsConfig, true);
    }

    /** Whether the kafka-clients on the classpath defines the consumer setting {@code key}. */
    public static boolean clientKnowsConsumerConfig(String key) {
        return ConsumerConfig.configNames().contains(key);
    }

    /** The finalized level of a broker feature, 0 when the broker does not finalize it (or was not asked). */
    public short finalizedLevel(String feature) {
        return finalizedLevels.getOrDefault(feature, (short) 0);
    }

    /** Every feature the broker finalizes, with its level (empty when the broker was not asked). */
    public Map<String, Short> finalizedLevels() {
        return new TreeMap<>(finalizedLevels);
    }

    /** Whether the broker was asked; {@link #clientOnly()} did not. */
    public boolean brokerProbed() {
        return brokerProbed;
    }

    /** Whether kafka-clients knows {@code auto.offset.reset.new.partitions}. */
    public boolean clientKnowsNewPartitionsConfig() {
        return clientKnowsNewPartitionsConfig;
    }

    /** KIP-1327 for consumer groups, natively: the client knows the setting and the broker classifies. */
    public boolean supportsNativeNewPartitions() {
        return clientKnowsNewPartitionsConfig && finalizedLevel("group.version") >= GROUP_VERSION_NEW_PARTITIONS;
    }

    /**
     * KIP-1289 on the broker side: {@code share.version} at least {@value #SHARE_VERSION_TRANSACTIONAL_ACKS}
     * and {@code transaction.version} at least {@value #TRANSACTION_VERSION_TRANSACTIONAL_ACKS}
     * finalized (Kafka 4.4 finalizes 2 and 2).
     */
    public boolean supportsNativeTransactionalShareAcks() {
        return finalizedLevel("share.version") >= SHARE_VERSION_TRANSACTIONAL_ACKS
                && finalizedLevel("transaction.version") >= TRANSACTION_VERSION_TRANSACTIONAL_ACKS;
    }

    /** Whether the broker runs the consumer group protocol (KIP-848, {@code group.version} at least 1). */
    public boolean supportsConsumerProtocol() {
        return finalizedLevel("group.version") >= 1;
    }

    /** Whether the broker runs the Kafka Streams group protocol (KIP-1071, {@code streams.version} at least 1). */
    public boolean supportsStreamsProtocol() {
        return finalizedLevel("streams.version") >= 1;
    }

    /** Whether the broker has share groups enabled ({@code share.version} at least 1). */
    public boolean supportsShareGroups() {
        return finalizedLevel("share.version") >= 1;
    }

    @Override
    public String toString() {
        return "BrokerCapabilities{finalized=" + (brokerProbed ? finalizedLevels : "not probed")
                + ", client knows " + GaplessConsumerConfig.AUTO_OFFSET_RESET_NEW_PARTITIONS_CONFIG + "=" + clientKnowsNewPartitionsConfig + "}";
    }
}
