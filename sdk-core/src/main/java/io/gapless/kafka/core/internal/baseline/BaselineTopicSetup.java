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
package io.gapless.kafka.core.internal.baseline;

import io.gapless.kafka.core.BaselineUnavailableException;
import io.gapless.kafka.core.spi.BaselineTopic;
import io.gapless.kafka.core.spi.StateTopicProvisioner;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.TopicConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * How a baseline topic is set up: compacted (one record per key, kept for good: a baseline that
 * expired with retention would let old partitions be classified as new) and stamped with the
 * broker's time (group creation times then come from one clock). Created and checked by the
 * {@link StateTopicProvisioner}, as every state topic of the SDK.
 */
final class BaselineTopicSetup {
    private static final Logger log = LoggerFactory.getLogger(BaselineTopicSetup.class);

    private BaselineTopicSetup() {
    }

    /** The provisioner's view of {@code topic}: each wait bounded by {@code timeout}. */
    static StateTopicProvisioner.Spec spec(BaselineTopic topic, Duration timeout) {
        return new StateTopicProvisioner.Spec(topic.name(), "group baseline topic", topic.partitionsWhenCreated(), Optional.empty(),
                Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT,
                        TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG, "LogAppendTime"),
                timeout, (description, config, brokers) -> verify(topic.name(), config));
    }

    /** Refuses a topic that is not compact only; warns where it is not stamped with the broker's time. */
    private static void verify(String topic, Config config) {
        ConfigEntry cleanup = config.get(TopicConfig.CLEANUP_POLICY_CONFIG);
        if (cleanup == null || !cleanup.value().contains(TopicConfig.CLEANUP_POLICY_COMPACT)
                || cleanup.value().contains(TopicConfig.CLEANUP_POLICY_DELETE)) {
            throw new BaselineUnavailableException("Group baseline topic " + topic + " has cleanup.policy="
                    + (cleanup == null ? "unknown" : cleanup.value()) + "; it must be compact only, or baselines expire"
                    + " with retention and old partitions would be classified as new");
        }
        ConfigEntry tsType = config.get(TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG);
        if (tsType != null && !"LogAppendTime".equals(tsType.value())) {
            log.warn("Group baseline topic {} has message.timestamp.type={}; group creation times then come from client"
                    + " clocks instead of the broker's (LogAppendTime recommended)", topic, tsType.value());
        }
    }
}
