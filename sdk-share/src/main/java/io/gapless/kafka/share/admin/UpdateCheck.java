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

import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Every check of one {@link ShareGroupSettingsUpdate} that needs the broker, in the order that
 * lets a failing update change nothing: settings the broker does not know, values against the
 * broker's bounds, session timeout above heartbeat interval, then the whole batch with
 * {@code validateOnly}. Returns the operations to send.
 */
final class UpdateCheck {
    private static final Logger log = LoggerFactory.getLogger(UpdateCheck.class);
    private static final Pattern UNKNOWN_CONFIG = Pattern.compile("Unknown group config name: ?([^\\s,;]+)");

    private final ShareGroupSettings settings;
    private final Map<ShareGroupSetting, String> sets;
    private final Set<ShareGroupSetting> unsets;

    UpdateCheck(ShareGroupSettings settings, Map<ShareGroupSetting, String> sets, Set<ShareGroupSetting> unsets) {
        this.settings = settings;
        this.sets = sets;
        this.unsets = unsets;
    }

    List<AlterConfigOp> run() {
        List<AlterConfigOp> ops = operations();
        if (ops.isEmpty()) {
            log.debug("Share group '{}': empty update, nothing to do", settings.groupId());
            return ops;
        }
        ShareGroupConfigSnapshot current = settings.describe();
        rejectUnknownToBroker(current);
        BrokerShareLimits limits = needsBrokerLimits() ? settings.brokerLimits() : BrokerShareLimits.unknown();
        sets.forEach((setting, value) -> SettingValues.checkBrokerBounds(setting, value, limits));
        checkSessionAboveHeartbeat(current);
        try {
            settings.alter(ops, true);
        } catch (InvalidConfigurationException e) {
            List<String> unknown = unknownNames(e);
            if (!unknown.isEmpty()) {
                throw unsupported(unknown);
            }
            throw e;
        }
        return ops;
    }

    private List<AlterConfigOp> operations() {
        List<AlterConfigOp> ops = new ArrayList<>();
        sets.forEach((s, v) -> ops.add(new AlterConfigOp(new ConfigEntry(s.key(), v), AlterConfigOp.OpType.SET)));
        unsets.forEach(s -> ops.add(new AlterConfigOp(new ConfigEntry(s.key(), null), AlterConfigOp.OpType.DELETE)));
        return ops;
    }

    private void rejectUnknownToBroker(ShareGroupConfigSnapshot current) {
        if (!current.isSupported(ShareGroupSetting.AUTO_OFFSET_RESET)) {
            // The broker listed no share settings at all: leave the verdict to validateOnly.
            return;
        }
        List<String> unknown = new ArrayList<>();
        for (ShareGroupSetting s : touched()) {
            if (!current.isSupported(s)) {
                unknown.add(s.key());
            }
        }
        if (!unknown.isEmpty()) {
            throw unsupported(unknown);
        }
    }

    private UnsupportedShareGroupSettingException unsupported(List<String> keys) {
        List<ShareGroupSetting> known = new ArrayList<>();
        keys.forEach(k -> ShareGroupSetting.forKey(k).ifPresent(known::add));
        return new UnsupportedShareGroupSettingException(settings.groupId(), known, keys, settings.brokerVersion().describe());
    }

    private void checkSessionAboveHeartbeat(ShareGroupConfigSnapshot current) {
        if (!sets.containsKey(ShareGroupSetting.SESSION_TIMEOUT_MS) && !sets.containsKey(ShareGroupSetting.HEARTBEAT_INTERVAL_MS)) {
            return;
        }
        Optional<Long> session = effective(ShareGroupSetting.SESSION_TIMEOUT_MS, current);
        Optional<Long> heartbeat = effective(ShareGroupSetting.HEARTBEAT_INTERVAL_MS, current);
        if (session.isPresent() && heartbeat.isPresent() && session.get() <= heartbeat.get()) {
            boolean sessionChanged = sets.containsKey(ShareGroupSetting.SESSION_TIMEOUT_MS);
            ShareGroupSetting offending = sessionChanged ? ShareGroupSetting.SESSION_TIMEOUT_MS : ShareGroupSetting.HEARTBEAT_INTERVAL_MS;
            throw new ConfigException(offending.key(), sets.get(offending), ShareGroupSetting.SESSION_TIMEOUT_MS.key() + " ("
                    + session.get() + ") must be greater than " + ShareGroupSetting.HEARTBEAT_INTERVAL_MS.key() + " (" + heartbeat.get() + ")");
        }
    }

    private Optional<Long> effective(ShareGroupSetting setting, ShareGroupConfigSnapshot current) {
        if (sets.containsKey(setting)) {
            return Optional.of(Long.parseLong(sets.get(setting)));
        }
        if (unsets.contains(setting)) {
            return Optional.empty();
        }
        return current.value(setting).filter(v -> !v.isBlank()).map(v -> Long.parseLong(v.trim()));
    }

    private boolean needsBrokerLimits() {
        return sets.keySet().stream().anyMatch(s -> s.brokerMinimumKey().isPresent() || s.brokerMaximumKey().isPresent());
    }

    private Set<ShareGroupSetting> touched() {
        Set<ShareGroupSetting> all = EnumSet.noneOf(ShareGroupSetting.class);
        all.addAll(sets.keySet());
        all.addAll(unsets);
        return all;
    }

    private static List<String> unknownNames(InvalidConfigurationException e) {
        List<String> names = new ArrayList<>();
        Matcher m = UNKNOWN_CONFIG.matcher(String.valueOf(e.getMessage()));
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }
}
