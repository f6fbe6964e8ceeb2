package io.gapless.kafka.cli;

import io.gapless.kafka.share.admin.ShareGroupConfigSnapshot;
import io.gapless.kafka.share.admin.ShareGroupSetting;
import io.gapless.kafka.share.admin.ShareGroupSettings;
import io.gapless.kafka.share.admin.ShareGroupSettingsUpdate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConfigEntry;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.concurrent.Callable;
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
    static final class Describe implements Callable<Integer> {
        @Spec
        CommandSpec spec;
        @Mixin
        ConnectionOptions connection;
        @Parameters(paramLabel = "<group>", description = "The share group (it need not exist yet).")
        String group;

        @Override
        public Integer call() {
            try (Admin admin = connection.admin()) {
                ShareGroupConfigSnapshot snapshot = settings(admin, group, connection.timeout()).describe();
                PrintWriter out = spec.commandLine().getOut();
                out.printf("Share group '%s'%n", group);
                print(out, snapshot);
            }
            return 0;
        }
    }

    @Command(name = "set", description = "Set settings, checked completely (types, the broker's bounds, settings the broker does not know)"
            + " before anything is changed; all or nothing.")
    static final class Set implements Callable<Integer> {
        @Spec
        CommandSpec spec;
        @Mixin
        ConnectionOptions connection;
        @Parameters(index = "0", paramLabel = "<group>", description = "The share group (it need not exist yet).")
        String group;
        @Parameters(index = "1..*", arity = "1..*", paramLabel = "key=value", description = "Settings, e.g. share.record.lock.duration.ms=45000.")
        LinkedHashMap<String, String> values;

        @Override
        public Integer call() {
            try (Admin admin = connection.admin()) {
                ShareGroupSettings settings = settings(admin, group, connection.timeout());
                ShareGroupSettingsUpdate update = settings.update();
                values.forEach((key, value) -> update.set(setting(key), value));
                update.apply();
                PrintWriter out = spec.commandLine().getOut();
                out.printf("Updated share group '%s': %s%n", group, update.values().entrySet().stream()
                        .map(e -> e.getKey().key() + "=" + e.getValue()).collect(Collectors.joining(", ")));
                print(out, settings.describe());
            }
            return 0;
        }
    }

    @Command(name = "unset", description = "Remove the group's own values, so that the broker's defaults apply again.")
    static final class Unset implements Callable<Integer> {
        @Spec
        CommandSpec spec;
        @Mixin
        ConnectionOptions connection;
        @Parameters(index = "0", paramLabel = "<group>", description = "The share group.")
        String group;
        @Parameters(index = "1..*", arity = "1..*", paramLabel = "key", description = "Settings, e.g. share.record.lock.duration.ms.")
        List<String> keys;

        @Override
        public Integer call() {
            try (Admin admin = connection.admin()) {
                ShareGroupSettings settings = settings(admin, group, connection.timeout());
                ShareGroupSettingsUpdate update = settings.update();
                keys.forEach(key -> update.unset(setting(key)));
                update.apply();
                PrintWriter out = spec.commandLine().getOut();
                out.printf("Removed from share group '%s': %s%n", group, String.join(", ", keys));
                print(out, settings.describe());
            }
            return 0;
        }
    }
}
