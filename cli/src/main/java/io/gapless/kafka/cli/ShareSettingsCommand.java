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
package io.gapless.kafka.cli;

import io.gapless.kafka.share.admin.ShareGroupConfigSnapshot;
import io.gapless.kafka.share.admin.ShareGroupSetting;
import io.gapless.kafka.share.admin.ShareGroupSettings;
import io.gapless.kafka.share.admin.ShareGroupSettingsUpdate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConfigEntry;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Collectors;

/** {@code gapless share-settings describe|set|unset <group>}: a share group's configs (KIP-932, KIP-1327, KIP-1349) through {@link ShareGroupSettings}. */
@Command(name = "share-settings", description = "A share group's settings, read and changed with the SDK's validation (KIP-1349).",
        subcommands = {ShareSettingsCommand.Describe.class, ShareSettingsCommand.Set.class, ShareSettingsCommand.Unset.class})
final class ShareSettingsCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "Missing required subcommand: describe, set or unset");
    }

    static ShareGroupSetting setting(String key) {
        return ShareGroupSetting.forKey(key).orElseThrow(() -> new CommandFailure("Unknown share-group setting '" + key + "'; the settings are: "
                + Arrays.stream(ShareGroupSetting.values()).map(ShareGroupSetting::key).collect(Collectors.joining(", "))));
    }

    static ShareGroupSettings settings(Admin admin, String group, Duration timeout) {
        return ShareGroupSettings.forGroup(admin, group).withTimeout(timeout);
    }

    /** Builds one update with {@code changes}, applies it (all or nothing), then prints {@code done} and the settings now. */
    static int update(ClusterCommand command, String group, Consumer<ShareGroupSettingsUpdate> changes,
                      Function<ShareGroupSettingsUpdate, String> done) {
        try (Admin admin = command.connection.admin()) {
            ShareGroupSettings settings = settings(admin, group, command.connection.timeout());
            ShareGroupSettingsUpdate update = settings.update();
            changes.accept(update);
            update.apply();
            command.out().println(done.apply(update));
            print(command.out(), settings.describe());
        }
        return 0;
    }

    static void print(PrintWriter out, ShareGroupConfigSnapshot snapshot) {
        String format = "%-42s %-22s %s%n";
        out.printf(format, "SETTING", "VALUE", "SOURCE");
        for (ShareGroupSetting s : ShareGroupSetting.values()) {
            if (!snapshot.isSupported(s)) {
                out.printf(format, s.key(), "-", "not known to this broker" + s.proposal().map(p -> " (" + p + ")").orElse(""));
                continue;
            }
            String value = snapshot.value(s).filter(v -> !v.isEmpty()).orElse("\"\"");
            out.printf(format, s.key(), value, snapshot.isSetOnGroup(s) ? "set on the group"
                    : snapshot.source(s).map(ShareSettingsCommand::source).orElse("unknown"));
        }
    }

    private static String source(ConfigEntry.ConfigSource source) {
        return switch (source) {
            case DEFAULT_CONFIG -> "default";
            case STATIC_BROKER_CONFIG, DYNAMIC_DEFAULT_BROKER_CONFIG, DYNAMIC_BROKER_CONFIG -> "broker (" + source + ")";
            default -> source.toString();
        };
    }

    @Command(name = "describe", description = "The group's effective settings, where each value comes from, and the settings this broker does not know.")
    static final class Describe extends ClusterCommand {
        @Parameters(paramLabel = "<group>", description = "The share group (it need not exist yet).")
        String group;

        @Override
        public Integer call() {
            try (Admin admin = connection.admin()) {
                ShareGroupConfigSnapshot snapshot = settings(admin, group, connection.timeout()).describe();
                PrintWriter out = out();
                out.printf("Share group '%s'%n", group);
                print(out, snapshot);
            }
            return 0;
        }
    }

    @Command(name = "set", description = "Set settings, checked completely (types, the broker's bounds, settings the broker does not know)"
            + " before anything is changed; all or nothing.")
    static final class Set extends ClusterCommand {
        @Parameters(index = "0", paramLabel = "<group>", description = "The share group (it need not exist yet).")
        String group;
        @Parameters(index = "1..*", arity = "1..*", paramLabel = "key=value", description = "Settings, e.g. share.record.lock.duration.ms=45000.")
        LinkedHashMap<String, String> values;

        @Override
        public Integer call() {
            return update(this, group, update -> values.forEach((key, value) -> update.set(setting(key), value)),
                    update -> "Updated share group '" + group + "': " + update.values().entrySet().stream()
                            .map(e -> e.getKey().key() + "=" + e.getValue()).collect(Collectors.joining(", ")));
        }
    }

    @Command(name = "unset", description = "Remove the group's own values, so that the broker's defaults apply again.")
    static final class Unset extends ClusterCommand {
        @Parameters(index = "0", paramLabel = "<group>", description = "The share group.")
        String group;
        @Parameters(index = "1..*", arity = "1..*", paramLabel = "key", description = "Settings, e.g. share.record.lock.duration.ms.")
        List<String> keys;

        @Override
        public Integer call() {
            return update(this, group, update -> keys.forEach(key -> update.unset(setting(key))),
                    update -> "Removed from share group '" + group + "': " + String.join(", ", keys));
        }
    }
}
