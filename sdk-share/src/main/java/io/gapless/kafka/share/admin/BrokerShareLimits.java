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

import java.util.Map;
import java.util.OptionalLong;

/**
 * The broker settings that bound a share group's values (for example
 * {@code group.share.min.record.lock.duration.ms}), as one broker reported them through
 * {@code describeConfigs}. Empty when the broker could not be asked (for example without
 * DESCRIBE_CONFIGS permission on the cluster); the broker still checks the bounds then.
 */
final class BrokerShareLimits {
    private static final BrokerShareLimits UNKNOWN = new BrokerShareLimits(Map.of(), null);

    private final Map<String, String> brokerConfig;
    private final String brokerId;

    private BrokerShareLimits(Map<String, String> brokerConfig, String brokerId) {
        this.brokerConfig = Map.copyOf(brokerConfig);
        this.brokerId = brokerId;
    }

    static BrokerShareLimits of(String brokerId, Map<String, String> brokerConfig) {
        return new BrokerShareLimits(brokerConfig, brokerId);
    }

    static BrokerShareLimits unknown() {
        return UNKNOWN;
    }

    boolean known() {
        return brokerId != null;
    }

    /** A numeric broker setting, empty when unknown, unset or not a number. */
    OptionalLong value(String brokerKey) {
        String v = brokerConfig.get(brokerKey);
        if (v == null || v.isBlank()) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(Long.parseLong(v.trim()));
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    @Override
    public String toString() {
        return known() ? "broker " + brokerId + " limits" : "unknown broker limits";
    }
}
