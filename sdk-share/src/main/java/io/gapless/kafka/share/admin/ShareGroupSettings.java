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
package io.gapless.kafka.share.admin;

import io.gapless.kafka.core.spi.ClientCompatibility;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.AlterConfigsOptions;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.FeatureMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.config.ConfigResource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Typed, validated reads and writes of one share group's configs (KIP-932 group configs plus
 * KIP-1327's {@code share.auto.offset.reset.new.partitions} and KIP-1349's
 * {@code share.max.record.bytes.between.snapshots} where the broker knows them).
 *
 * <pre>{@code
 * ShareGroupSettings settings = ShareGroupSettings.forGroup(admin, "orders-workers");
 * settings.update()
 *         .autoOffsetReset(ResetPolicy.EARLIEST)
 *         .recordLockDuration(Duration.ofSeconds(45))
 *         .deliveryCountLimit(3)
 *         .apply();
 * ShareGroupConfigSnapshot now = settings.describe();
 * }</pre>
 *
 * <p>Writes use {@code Admin.incrementalAlterConfigs} on {@code ConfigResource(GROUP, groupId)}
 * and work before the group exists. An update is checked completely before anything changes:
 * values against their type and the broker's bounds ({@link org.apache.kafka.common.config.ConfigException}
 * naming key and value), settings the broker does not know
 * ({@link UnsupportedShareGroupSettingException} naming them and the broker's version), then the
 * whole batch with {@code validateOnly}; only then is it applied, in one request. This object is
 * thread-safe; it does not own the {@link Admin} and never closes it.
 *
 * <p>ACLs the admin's principal needs: DescribeConfigs on the group to read, AlterConfigs on the
 * group to update (Kafka lets AlterConfigs imply DescribeConfigs). DescribeConfigs on the cluster is
 * optional: without it the broker's bounds are checked by the broker alone. A refusal is Kafka's
 * {@link org.apache.kafka.common.errors.GroupAuthorizationException} naming the operation and the
 * group, and nothing of the update is applied.
 *
 * @since 0.1.0
 */
public final class ShareGroupSettings {
    /** How long each Admin call may take unless {@link #withTimeout(Duration)} says otherwise. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

    private static final Logger log = LoggerFactory.getLogger(ShareGroupSettings.class);

    private final Admin admin;
    private final String groupId;
    private final Duration timeout;

    private ShareGroupSettings(Admin admin, String groupId, Duration timeout) {
        this.admin = admin;
        this.groupId = groupId;
        this.timeout = timeout;
    }

    /**
     * The settings of share group {@code groupId}, read and written through {@code admin}.
     *
     * @throws IllegalArgumentException when the group id is blank
     * @throws NullPointerException when {@code admin} is null
     * @throws io.gapless.kafka.core.UnsupportedClientVersionException if the kafka-clients on the classpath is older than 4.1
     */
    public static ShareGroupSettings forGroup(Admin admin, String groupId) {
        ClientCompatibility.require(ClientCompatibility.EntryPoint.SHARE_GROUP_SETTINGS);
        Objects.requireNonNull(admin, "admin");
        if (groupId == null || groupId.isBlank()) {
            throw new IllegalArgumentException("groupId must not be blank, got '" + groupId + "'");
        }
        return new ShareGroupSettings(admin, groupId, DEFAULT_TIMEOUT);
    }

    /**
     * A copy that waits at most {@code timeout} for each Admin call.
     *
     * @throws IllegalArgumentException when {@code timeout} is null, zero or negative
     */
    public ShareGroupSettings withTimeout(Duration timeout) {
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive, got " + timeout);
        }
        return new ShareGroupSettings(admin, groupId, timeout);
    }

    /** The share group this object reads and writes. */
    public String groupId() {
        return groupId;
    }

    /** Starts an update; nothing is sent until {@link ShareGroupSettingsUpdate#apply()}. */
    public ShareGroupSettingsUpdate update() {
        return new ShareGroupSettingsUpdate(this);
    }

    /**
     * The group's effective settings as the broker describes them now.
     *
     * @throws KafkaException (Kafka's own subclasses) when the broker cannot be asked
     */
    public ShareGroupConfigSnapshot describe() {
        ConfigResource resource = resource();
        Config config = AdminCalls.await(admin.describeConfigs(List.of(resource)).values().get(resource), timeout,
                "describe the configs of share group " + groupId, "DescribeConfigs", groupId);
        Map<ShareGroupSetting, ConfigEntry> entries = new EnumMap<>(ShareGroupSetting.class);
        for (ConfigEntry entry : config.entries()) {
            ShareGroupSetting.forKey(entry.name()).ifPresent(s -> entries.put(s, entry));
        }
        return new ShareGroupConfigSnapshot(groupId, entries);
    }

    Duration timeout() {
        return timeout;
    }

    ConfigResource resource() {
        return new ConfigResource(ConfigResource.Type.GROUP, groupId);
    }

    /** The broker bounds for group values, or {@link BrokerShareLimits#unknown()} when they cannot be read. */
    BrokerShareLimits brokerLimits() {
        try {
            Collection<Node> nodes = AdminCalls.await(admin.describeCluster().nodes(), timeout, "describe the cluster");
            if (nodes.isEmpty()) {
                return BrokerShareLimits.unknown();
            }
            String brokerId = nodes.iterator().next().idString();
            ConfigResource broker = new ConfigResource(ConfigResource.Type.BROKER, brokerId);
            Config config = AdminCalls.await(admin.describeConfigs(List.of(broker)).values().get(broker), timeout,
                    "describe the configs of broker " + brokerId);
            Map<String, String> values = new HashMap<>();
            for (ConfigEntry e : config.entries()) {
                if (e.value() != null) {
                    values.put(e.name(), e.value());
                }
            }
            return BrokerShareLimits.of(brokerId, values);
        } catch (KafkaException e) {
            // Typically no DESCRIBE_CONFIGS on the cluster: the broker still enforces its bounds.
            log.debug("Cannot read the broker's share-group bounds for group {}: {}", groupId, e.toString());
            return BrokerShareLimits.unknown();
        }
    }

    /** The broker's release as far as {@code describeFeatures} tells it. */
    BrokerVersion brokerVersion() {
        try {
            FeatureMetadata features = AdminCalls.await(admin.describeFeatures().featureMetadata(), timeout, "describe the broker's features");
            return BrokerVersion.from(features);
        } catch (KafkaException e) {
            log.debug("Cannot describe the broker's features: {}", e.toString());
            return BrokerVersion.unknown();
        }
    }

    /** Sends the operations in one {@code incrementalAlterConfigs} request. */
    void alter(Collection<AlterConfigOp> ops, boolean validateOnly) {
        ConfigResource resource = resource();
        AdminCalls.await(admin.incrementalAlterConfigs(Map.of(resource, ops), new AlterConfigsOptions().validateOnly(validateOnly))
                        .values().get(resource), timeout,
                (validateOnly ? "validate" : "apply") + " the configs of share group " + groupId, "AlterConfigs", groupId);
    }
}
