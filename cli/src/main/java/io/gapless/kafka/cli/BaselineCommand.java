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

import io.gapless.kafka.core.GaplessConsumerConfig;
import io.gapless.kafka.core.GroupBaselineDescription;
import io.gapless.kafka.core.GroupBaselines;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.Map;

/** {@code gapless baseline describe|forget <group>}: the group baselines of the KIP-1327 emulation, through {@link GroupBaselines}. */
@Command(name = "baseline", description = "The group baseline: what the SDK recorded when a group started (KIP-1327 emulation).",
        subcommands = {BaselineCommand.Describe.class, BaselineCommand.Forget.class})
final class BaselineCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "Missing required subcommand: describe or forget");
    }

    /** The SDK's settings for {@code GroupBaselines}: the command config's, with the call bound by {@code --timeout}. */
    static Map<String, Object> config(ConnectionOptions connection) {
        Map<String, Object> config = connection.clientConfig();
        config.put(GaplessConsumerConfig.BASELINE_TIMEOUT_MS_CONFIG, connection.timeout().toMillis());
        return config;
    }

    static CommandFailure noBaseline(GroupBaselineDescription d) {
        String settings = GaplessConsumerConfig.BASELINE_TOPIC_PREFIX_CONFIG + " or " + GaplessConsumerConfig.BASELINE_TOPIC_CONFIG;
        if (!d.topicExists()) {
            return new CommandFailure("Group '" + d.groupId() + "' has no baseline: its baseline topic " + d.topic()
                    + " does not exist (the group never ran with a new-partitions policy on this cluster, or " + settings
                    + " differs from the group's clients)");
        }
        if (!d.incarnation().isEmpty()) {
            return new CommandFailure("Group '" + d.groupId() + "' has no baseline in " + d.topic() + ": it was forgotten or reset"
                    + " (incarnation " + d.incarnation() + "); a new one starts when the group next runs");
        }
        return new CommandFailure("Group '" + d.groupId() + "' has no baseline in " + d.topic()
                + ": it never ran with a new-partitions policy (or " + settings + " differs from the group's clients)");
    }

    @Command(name = "describe", description = "Show when the group started, what it recorded then, and its members now.")
    static final class Describe extends ClusterCommand {
        @Parameters(paramLabel = "<group>", description = "The consumer group, Kafka Streams application.id or share group.")
        String group;

        @Override
        public Integer call() {
            GroupBaselineDescription d = GroupBaselines.describe(config(connection), group);
            if (!d.started()) {
                throw noBaseline(d);
            }
            PrintWriter out = out();
            out.printf("Group '%s': baseline in topic %s, partition %d%n", d.groupId(), d.topic(), d.partition().orElse(-1));
            row(out, "started", d.startedAt().orElseThrow() + (d.incarnation().isEmpty() ? "" : " (incarnation " + d.incarnation() + ")"));
            row(out, "adopted", d.adopted() ? "yes: the group had committed offsets then, so every partition existing then is pre-existing"
                    : "no: the group had no committed offsets when it started using the SDK");
            row(out, "snapshot", d.snapshotTopics().isPresent() ? d.snapshotTopics().getAsInt() + " topics existed when the group started"
                    : "none (written before topic snapshots; " + d.legacyTopicEntries() + " per-topic entries)");
            row(out, "progress", "committed offsets recorded for " + d.progressTopics() + " topic(s)");
            row(out, "start offsets", d.startOffsets() + " share-group partition(s) with a recorded start offset");
            row(out, "members now", Integer.toString(d.activeMembers()));
            return 0;
        }
    }

    @Command(name = "forget", description = "End the group's baseline, so that it counts as a new group when it next runs."
            + " Refused while the group has members.")
    static final class Forget extends ClusterCommand {
        @Parameters(paramLabel = "<group>", description = "The consumer group, Kafka Streams application.id or share group.")
        String group;

        @Override
        public Integer call() {
            Map<String, Object> config = config(connection);
            if (!GroupBaselines.forget(config, group)) {
                throw noBaseline(GroupBaselines.describe(config, group));
            }
            out().printf("Forgot the baseline of group '%s': it starts a new one when it next runs"
                    + " (the partitions existing then count as pre-existing).%n", group);
            return 0;
        }
    }

    static void row(PrintWriter out, String label, String value) {
        out.printf("  %-15s %s%n", label, value);
    }
}
