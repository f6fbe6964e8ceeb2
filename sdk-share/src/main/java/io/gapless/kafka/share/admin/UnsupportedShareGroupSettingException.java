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

import org.apache.kafka.common.errors.UnsupportedVersionException;

import java.util.List;

/**
 * The broker does not know one or more share-group settings of an update (for example
 * {@code share.auto.offset.reset.new.partitions} on a Kafka 4.4 broker, which answers
 * {@code Unknown group config name}). Thrown before anything is changed: the other settings of
 * the same update are not applied either.
 *
 * @since 0.1.0
 */
public class UnsupportedShareGroupSettingException extends UnsupportedVersionException {
    private static final long serialVersionUID = 1L;

    /** The settings the broker does not know. */
    private final transient List<ShareGroupSetting> settings;
    /** Their config keys. */
    private final List<String> keys;
    /** The broker's release as far as it could be discovered. */
    private final String brokerVersion;

    /**
     * @param groupId       the share group the update was for
     * @param settings      the settings the broker does not know (known to this SDK)
     * @param keys          the config keys the broker does not know, as sent
     * @param brokerVersion what could be learned about the broker's release
     */
    public UnsupportedShareGroupSettingException(String groupId, List<ShareGroupSetting> settings, List<String> keys, String brokerVersion) {
        super(message(groupId, settings, keys, brokerVersion));
        this.settings = List.copyOf(settings);
        this.keys = List.copyOf(keys);
        this.brokerVersion = brokerVersion;
    }

    /** The settings the broker does not know. */
    public List<ShareGroupSetting> settings() {
        return settings;
    }

    /** The config keys the broker does not know. */
    public List<String> keys() {
        return keys;
    }

    /** The broker's release as far as it could be discovered (from its metadata.version levels). */
    public String brokerVersion() {
        return brokerVersion;
    }

    private static String message(String groupId, List<ShareGroupSetting> settings, List<String> keys, String brokerVersion) {
        StringBuilder names = new StringBuilder();
        for (String key : keys) {
            if (names.length() > 0) {
                names.append(", ");
            }
            names.append(key);
            ShareGroupSetting.forKey(key).flatMap(ShareGroupSetting::proposal).ifPresent(p -> names.append(" (").append(p).append(')'));
        }
        return "The broker does not support share group setting" + (keys.size() == 1 ? " " : "s ") + names
                + ": the broker is " + brokerVersion + " and does not know " + (keys.size() == 1 ? "this config" : "these configs")
                + ". Nothing was changed for share group '" + groupId + "'; the other settings of this update were not applied either.";
    }
}
