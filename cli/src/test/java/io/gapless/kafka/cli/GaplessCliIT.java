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

import io.gapless.kafka.core.GaplessConsumer;
import io.gapless.kafka.core.GaplessConsumerConfig;
import io.gapless.kafka.share.GaplessShareConfig;
import io.gapless.kafka.share.GaplessShareConsumer;
import io.gapless.kafka.share.admin.ShareGroupSettings;
import io.gapless.kafka.share.txn.ShareAcknowledgements;
import io.gapless.kafka.share.txn.TransactionalShareProducer;
import io.gapless.kafka.streams.GaplessStreams;
import io.gapless.kafka.streams.GaplessStreamsBuilder;
import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.EmbeddedKafkaTest;
import io.gapless.kafka.testkit.TestClients;
import io.gapless.kafka.testkit.TestTopics;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static io.gapless.kafka.cli.Cli.commandConfig;
import static io.gapless.kafka.cli.Cli.gapless;
import static io.gapless.kafka.cli.Cli.on;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every command of the tool against the embedded broker, with good and bad input; run in this JVM. */
@EmbeddedKafkaTest
class GaplessCliIT {
    private static final Duration WAIT = Duration.ofSeconds(45);
    private final EmbeddedKafka kafka;
    private final String bootstrap;

    GaplessCliIT(EmbeddedKafka kafka) {
        this.kafka = kafka;
        this.bootstrap = kafka.bootstrapServers();
    }

    private static void assertOk(Cli.Result r) {
        assertEquals(0, r.code(), r.toString());
        assertEquals("", r.err(), r.toString());
    }

    private static void assertFails(Cli.Result r, String... inErr) {
        assertEquals(1, r.code(), r.toString());
        for (String s : inErr) {
            assertTrue(r.err().contains(s), "stderr should say '" + s + "':\n" + r);
        }
    }

    // ---- baseline

    @Test
    void baselineDescribeShowsTheStartAndForgetIsRefusedWhileTheGroupRunsThenForgets() {
        String topic = TestTopics.unique("cli-baseline");
        String group = TestTopics.unique("cli-g");
        kafka.createTopic(topic, 2);
        Properties props = TestClients.consumerProps(kafka, group, "consumer");
        props.put("auto.offset.reset", "latest");
        props.put("auto.offset.reset.new.partitions", "earliest");
        try (GaplessConsumer<String, String> consumer = new GaplessConsumer<>(props)) {
            consumer.subscribe(List.of(topic));
            TestClients.pollUntil(consumer, WAIT, r -> consumer.assignment().size() == 2
                    && consumer.assignment().stream().allMatch(tp -> consumer.position(tp, WAIT) >= 0));

            Cli.Result live = gapless(on(bootstrap, null, "baseline", "describe", group));
            assertOk(live);
            assertTrue(live.out().contains("Group '" + group + "': baseline in topic __gapless_baseline." + group + ", partition 0"), live.out());
            assertTrue(live.out().matches("(?s).*started\\s+20\\d\\d-.*"), live.out());
            assertTrue(live.out().matches("(?s).*snapshot\\s+\\d+ topics existed when the group started.*"), live.out());
            assertTrue(live.out().matches("(?s).*members now\\s+1\\s.*"), live.out());

            assertFails(gapless(on(bootstrap, null, "baseline", "forget", group)),
                    "Error: Consumer group " + group + " has 1 active member(s); stop them before forgetting its baseline");
        }
        Cli.Result forgot = gapless(on(bootstrap, null, "baseline", "forget", group));
        assertOk(forgot);
        assertTrue(forgot.out().contains("Forgot the baseline of group '" + group + "'"), forgot.out());
        assertFails(gapless(on(bootstrap, null, "baseline", "describe", group)), "Error: Group '" + group + "' has no baseline",
                "forgotten or reset");
        assertFails(gapless(on(bootstrap, null, "baseline", "forget", group)), "has no baseline");
    }

    /** As Kafka's own {@code kafka-share-groups --delete}, forget refuses a share group that has members. */
    @Test
    void baselineForgetIsRefusedWhileAShareGroupRuns() {
        String topic = TestTopics.unique("cli-share-baseline");
        String group = TestTopics.unique("cli-sg");
        kafka.createTopic(topic, 1);
        Map<String, Object> cfg = new HashMap<>();
        cfg.put("bootstrap.servers", bootstrap);
        cfg.put("group.id", group);
        cfg.put("share.auto.offset.reset", "latest");
        cfg.put("share.auto.offset.reset.new.partitions", "earliest");
        try (GaplessShareConsumer<String, String> consumer = new GaplessShareConsumer<>(cfg, new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            await().atMost(WAIT).until(() -> {
                consumer.poll(Duration.ofMillis(100));
                return shareMembers(group) == 1 && kafka.admin().listTopics().names().get(30, TimeUnit.SECONDS)
                        .contains("__gapless_baseline." + group);
            });
            assertFails(gapless(on(bootstrap, null, "baseline", "forget", group)),
                    "Error: Share group " + group + " has 1 active member(s); stop them before forgetting its baseline");
        }
        await().atMost(WAIT).until(() -> shareMembers(group) == 0);
        assertOk(gapless(on(bootstrap, null, "baseline", "forget", group)));
    }

    /** A streams-protocol group (KIP-1071) is neither a consumer nor a share group: forget must still see its members. */
    @Test
    void baselineForgetIsRefusedWhileAStreamsProtocolApplicationRuns() throws Exception {
        String topic = TestTopics.unique("cli-streams-baseline");
        String app = TestTopics.unique("cli-app");
        kafka.createTopic(topic, 1);
        GaplessStreamsBuilder builder = new GaplessStreamsBuilder();
        builder.stream(topic).foreach((k, v) -> { });
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, app);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(StreamsConfig.GROUP_PROTOCOL_CONFIG, "streams");
        props.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        props.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        props.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 1);
        props.put(StreamsConfig.STATE_DIR_CONFIG, Files.createTempDirectory("gapless-cli-streams-").toString());
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
        props.put(GaplessConsumerConfig.AUTO_OFFSET_RESET_NEW_PARTITIONS_CONFIG, "earliest");
        try (KafkaStreams streams = GaplessStreams.create(builder, props)) {
            streams.start();
            await().atMost(WAIT).until(() -> streams.state() == KafkaStreams.State.RUNNING
                    && gapless(on(bootstrap, null, "baseline", "describe", app)).code() == 0);
            assertFails(gapless(on(bootstrap, null, "baseline", "forget", app)),
                    "Error: Streams group " + app + " has 1 active member(s); stop them before forgetting its baseline");
            streams.close(Duration.ofSeconds(30));
        }
    }

    private int shareMembers(String group) throws Exception {
        return kafka.admin().describeShareGroups(List.of(group)).describedGroups().get(group).get(30, TimeUnit.SECONDS).members().size();
    }

    @Test
    void baselineOfAnUnknownGroupOrAMissingTopicIsAnErrorAndCreatesNothing() throws Exception {
        String group = TestTopics.unique("cli-nobody");
        assertFails(gapless(on(bootstrap, null, "baseline", "describe", group)), "Error: Group '" + group + "' has no baseline: its baseline topic __gapless_baseline."
                + group + " does not exist");
        assertFalse(kafka.admin().listTopics().names().get(30, TimeUnit.SECONDS).contains("__gapless_baseline." + group),
                "describing an unknown group creates no topic for it");
        String absent = TestTopics.unique("cli-no-baselines");
        Path config = commandConfig(Map.of("gapless.baseline.topic", absent));
        assertFails(gapless(on(bootstrap, config, "baseline", "describe", group)), "its baseline topic " + absent + " does not exist");
        assertFails(gapless(on(bootstrap, config, "baseline", "forget", group)), "does not exist");
        assertFalse(kafka.admin().listTopics().names().get(30, TimeUnit.SECONDS).contains(absent));
    }

    // ---- ledger

    private void commitOneTransaction(String group, String input, String output) throws Exception {
        assertOk(gapless(on(bootstrap, null, "share-settings", "set", group, "share.auto.offset.reset=earliest")));
        try (KafkaProducer<String, String> p = TestClients.producer(kafka)) {
            for (int i = 0; i < 5; i++) {
                p.send(new ProducerRecord<>(input, 0, "k" + i, "v" + i));
            }
        }
        Map<String, Object> c = new HashMap<>();
        c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        c.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        c.put(GaplessShareConfig.ACKNOWLEDGEMENT_MODE_CONFIG, GaplessShareConfig.ACKNOWLEDGEMENT_MODE_TRANSACTIONAL);
        Map<String, Object> p = new HashMap<>();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, group + "-txn");
        try (GaplessShareConsumer<String, String> consumer = new GaplessShareConsumer<>(c, new StringDeserializer(), new StringDeserializer());
             TransactionalShareProducer<String, String> producer = new TransactionalShareProducer<>(p, new StringSerializer(), new StringSerializer())) {
            producer.initTransactions();
            consumer.subscribe(List.of(input));
            AtomicReference<ConsumerRecords<String, String>> got = new AtomicReference<>();
            await().pollInSameThread().atMost(WAIT).until(() -> {
                got.set(consumer.poll(Duration.ofMillis(200)));
                return !got.get().isEmpty();
            });
            producer.beginTransaction();
            got.get().forEach(r -> producer.send(new ProducerRecord<>(output, r.key(), r.value())));
            producer.sendShareAcknowledgementsToTransaction(ShareAcknowledgements.fromRecords(got.get(), AcknowledgeType.ACCEPT),
                    consumer.shareGroupMetadata());
            producer.commitTransaction();
        }
    }

    @Test
    void ledgerStatusAndDumpShowTheGroupsCommittedEntry() throws Exception {
        String group = TestTopics.unique("cli-share");
        String input = TestTopics.unique("cli-in");
        String output = TestTopics.unique("cli-out");
        kafka.createTopic(input, 1);
        kafka.createTopic(output, 1);
        commitOneTransaction(group, input, output);

        Cli.Result status = gapless(on(bootstrap, null, "ledger", "status", group));
        assertOk(status);
        assertTrue(status.out().contains("Share group '" + group + "': ack ledger __gapless_ledger." + group + ", partition 0"), status.out());
        assertTrue(status.out().matches("(?s).*entries\\s+1 \\(1 committed, of them [01] confirmed; 0 aborted, 0 open\\).*"), status.out());
        assertTrue(status.out().matches("(?s).*open transactions\\s+none.*"), status.out());
        assertTrue(status.out().matches("(?s).*bytes since snapshot\\s+\\d+ \\(a snapshot is written at 20971520.*"), status.out());

        Cli.Result dump = gapless(on(bootstrap, null, "ledger", "dump", group));
        assertOk(dump);
        assertTrue(dump.out().matches("(?s).*\\n\\d+\\s+entry\\s+committed\\+?\\s+" + group + "-txn\\s+" + input + "-0\\s+0-\\d+ accept \\(delivery 1\\).*"),
                dump.out());
    }

    @Test
    void ledgerAcceptLossBindsTheGroupToANewLedgerAndNamesWhatMayBeProcessedAgain() throws Exception {
        String group = TestTopics.unique("cli-share-lost");
        String input = TestTopics.unique("cli-in");
        String output = TestTopics.unique("cli-out");
        kafka.createTopic(input, 1);
        kafka.createTopic(output, 1);
        commitOneTransaction(group, input, output);
        String ledger = "__gapless_ledger." + group;
        kafka.deleteTopics(ledger);
        await().atMost(Duration.ofSeconds(30)).until(() -> !kafka.admin().listTopics().names().get(30, TimeUnit.SECONDS).contains(ledger));

        Cli.Result accepted = gapless(on(bootstrap, null, "ledger", "accept-loss", group));
        assertOk(accepted);
        assertTrue(accepted.out().contains("Share group '" + group + "': bound to ack ledger " + ledger + " (topic id "), accepted.out());
        assertTrue(accepted.out().contains("replaced ack-ledger topic " + ledger + " (topic id "), accepted.out());
        assertTrue(accepted.out().matches("(?s).*may be processed again\\s+" + input + "-0 offsets \\[\\d+, \\d+\\).*"), accepted.out());
        assertTrue(kafka.admin().listTopics().names().get(30, TimeUnit.SECONDS).contains(ledger), "created with the SDK's settings");
    }

    @Test
    void ledgerOfAnUnknownGroupOrAMissingTopicIsAnError() throws Exception {
        String group = TestTopics.unique("cli-share-none");
        String absent = TestTopics.unique("cli-no-ledger");
        assertFails(gapless(on(bootstrap, null, "ledger", "status", group)), "Error: Share group '" + group + "' has no ack ledger: its ledger topic "
                + "__gapless_ledger." + group + " does not exist");
        assertFalse(kafka.admin().listTopics().names().get(30, TimeUnit.SECONDS).contains("__gapless_ledger." + group));
        Path config = commandConfig(Map.of(GaplessShareConfig.LEDGER_TOPIC_CONFIG, absent));
        assertFails(gapless(on(bootstrap, config, "ledger", "status", group)), "its ledger topic " + absent + " does not exist");
        assertFalse(kafka.admin().listTopics().names().get(30, TimeUnit.SECONDS).contains(absent));

        String ledger = TestTopics.unique("cli-ledger");
        kafka.createTopic(ledger, 1);
        Path existing = commandConfig(Map.of(GaplessShareConfig.LEDGER_TOPIC_CONFIG, ledger));
        assertFails(gapless(on(bootstrap, existing, "ledger", "dump", group)), "Error: Share group '" + group + "' has no records in ack ledger "
                + ledger + "-0");
    }

    // ---- probe

    @Test
    void probeTellsWhatEachFeatureRunsAsOnThisBroker() {
        Cli.Result r = gapless(on(bootstrap, null, "probe"));
        assertOk(r);
        assertTrue(r.out().contains("finalized features") && r.out().contains("share.version=2"), r.out());
        assertRow(r, "KIP-1327 GaplessConsumer, group.protocol=classic", "emulated",
                "group.protocol=classic (Kafka applies auto.offset.reset.new.partitions only with group.protocol=consumer)");
        assertRow(r, "KIP-1327 GaplessConsumer, group.protocol=consumer", "emulated", "does not know auto.offset.reset.new.partitions");
        assertRow(r, "KIP-1327 Kafka Streams, group.protocol=classic", "emulated", "");
        assertRow(r, "KIP-1327 Kafka Streams, group.protocol=streams", "emulated", "");
        assertRow(r, "KIP-1327 share groups, share.auto.offset.reset.new.partitions", "emulated",
                "the broker does not know the group config share.auto.offset.reset.new.partitions");
        assertRow(r, "KIP-1289 transactional share acknowledgements", "emulated", "the ack ledger __gapless_ledger.<group> emulates it");
        assertRow(r, "KIP-1349 share.max.record.bytes.between.snapshots (group config)", "refused", "KIP-1349");
        assertRow(r, "KIP-1349 bytes-based snapshots of the SDK's ack ledger", "emulated", "every 20971520 bytes");
    }

    @Test
    void probeReadsTheClientsSettingsFromTheCommandConfig() {
        Path strict = commandConfig(Map.of("gapless.new.partitions.mode", "native", "gapless.share.transactional.fallback", "fail"));
        Cli.Result r = gapless(on(bootstrap, strict, "probe"));
        assertOk(r);
        assertRow(r, "KIP-1327 GaplessConsumer, group.protocol=classic", "refused", "native KIP-1327 support is missing");
        assertRow(r, "KIP-1327 Kafka Streams, group.protocol=streams", "refused", "native KIP-1327 support is missing");
        assertRow(r, "KIP-1327 share groups, share.auto.offset.reset.new.partitions", "refused", "use auto or emulate");
        assertRow(r, "KIP-1289 transactional share acknowledgements", "refused",
                "not supported by kafka-clients on the classpath (it has no ShareConsumer.acknowledgementsForTransaction()");
        assertRow(r, "KIP-1289 transactional share acknowledgements", "refused", "and gapless.share.transactional.fallback=fail");

        Cli.Result weak = gapless(on(bootstrap, commandConfig(Map.of("gapless.share.transactional.fallback", "at-least-once")), "probe"));
        assertOk(weak);
        assertRow(weak, "KIP-1289 transactional share acknowledgements", "at-least-once", "kafka-clients on the classpath");

        assertFails(gapless(on(bootstrap, commandConfig(Map.of("gapless.new.partitions.mode", "sometimes")), "probe")),
                "Error: Invalid value sometimes for configuration gapless.new.partitions.mode");
    }

    private static void assertRow(Cli.Result r, String feature, String runsAs, String why) {
        String row = r.out().lines().filter(l -> l.startsWith(feature + " ")).findFirst()
                .orElseThrow(() -> new AssertionError("no row for " + feature + ":\n" + r));
        assertTrue(row.substring(feature.length()).trim().startsWith(runsAs + " "), "'" + feature + "' should run as " + runsAs + ": " + row);
        assertTrue(row.contains(why), "'" + feature + "' should say why (" + why + "): " + row);
    }

    // ---- share-settings

    @Test
    void shareSettingsDescribeSetAndUnset() {
        String group = TestTopics.unique("cli-settings");
        Cli.Result before = gapless(on(bootstrap, null, "share-settings", "describe", group));
        assertOk(before);
        assertTrue(before.out().matches("(?s).*share\\.record\\.lock\\.duration\\.ms\\s+30000\\s+default.*"), before.out());
        assertTrue(before.out().matches("(?s).*share\\.auto\\.offset\\.reset\\.new\\.partitions\\s+-\\s+not known to this broker \\(KIP-1327\\).*"),
                before.out());

        Cli.Result set = gapless(on(bootstrap, null, "share-settings", "set", group, "share.record.lock.duration.ms=45000",
                "share.delivery.count.limit=3"));
        assertOk(set);
        assertTrue(set.out().contains("Updated share group '" + group + "': share.record.lock.duration.ms=45000, share.delivery.count.limit=3"),
                set.out());
        var snapshot = ShareGroupSettings.forGroup(kafka.admin(), group).describe();
        assertEquals(Duration.ofSeconds(45), snapshot.recordLockDuration().orElseThrow(), "the broker describes the new value");
        assertEquals(3, snapshot.deliveryCountLimit().getAsInt());

        Cli.Result unset = gapless(on(bootstrap, null, "share-settings", "unset", group, "share.delivery.count.limit"));
        assertOk(unset);
        assertTrue(unset.out().matches("(?s).*share\\.delivery\\.count\\.limit\\s+\\d+\\s+default.*"), unset.out());
        assertTrue(unset.out().matches("(?s).*share\\.record\\.lock\\.duration\\.ms\\s+45000\\s+set on the group.*"), unset.out());
    }

    @Test
    void shareSettingsBadInputIsRefusedAndNothingIsApplied() {
        String group = TestTopics.unique("cli-settings-bad");
        assertFails(gapless(on(bootstrap, null, "share-settings", "set", group, "share.record.lock.duration.ms")),
                "should be in KEY=VALUE format but was share.record.lock.duration.ms", "Usage: gapless share-settings set");
        assertFails(gapless(on(bootstrap, null, "share-settings", "set", group, "share.lock.duration=5")),
                "Error: Unknown share-group setting 'share.lock.duration'; the settings are: share.auto.offset.reset,");
        assertFails(gapless(on(bootstrap, null, "share-settings", "set", group, "share.record.lock.duration.ms=40000",
                "share.delivery.count.limit=1")), "Error: Invalid value 1 for configuration share.delivery.count.limit");
        assertFails(gapless(on(bootstrap, null, "share-settings", "set", group, "share.record.lock.duration.ms=40000",
                "share.auto.offset.reset.new.partitions=earliest")), "Error: ", "share.auto.offset.reset.new.partitions", "KIP-1327");
        assertFails(gapless(on(bootstrap, null, "share-settings", "set", group, "share.auto.offset.reset=none")),
                "share.auto.offset.reset");
        var snapshot = ShareGroupSettings.forGroup(kafka.admin(), group).describe();
        assertEquals(Duration.ofSeconds(30), snapshot.recordLockDuration().orElseThrow(), "no refused update changed anything");
    }

    // ---- connection and usage

    @Test
    void anUnreachableClusterFailsEveryCommandWithinItsTimeout() {
        String nowhere = Cli.unreachable();
        for (String[] command : List.of(new String[] {"baseline", "describe", "g"}, new String[] {"baseline", "forget", "g"},
                new String[] {"ledger", "status", "g"}, new String[] {"ledger", "dump", "g"}, new String[] {"probe"},
                new String[] {"share-settings", "describe", "g"}, new String[] {"share-settings", "set", "g", "share.delivery.count.limit=3"})) {
            String[] args = on(nowhere, null, command);
            String[] withTimeout = java.util.Arrays.copyOf(args, args.length + 2);
            withTimeout[args.length] = "--timeout";
            withTimeout[args.length + 1] = "1500";
            long start = System.nanoTime();
            Cli.Result r = gapless(withTimeout);
            long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertFails(r, "Error: ");
            assertTrue(r.err().toLowerCase(java.util.Locale.ROOT).contains("timed out") || r.err().contains("Timeout"),
                    String.join(" ", command) + " should say it timed out: " + r);
            assertTrue(tookMs < 15_000, String.join(" ", command) + " took " + tookMs + " ms with --timeout 1500");
        }
    }

    @Test
    void usageErrorsPrintTheUsageAndExitWithOne() {
        assertFails(gapless("baseline", "describe", "g"), "Missing required option: '--bootstrap-server=<server to connect to>'",
                "Usage: gapless baseline describe");
        assertFails(gapless(on(bootstrap, null, "baseline", "describe")), "Missing required parameter: '<group>'");
        assertFails(gapless(on(bootstrap, null, "baseline", "describe", "g", "--timeout", "0")),
                "--timeout must be a positive number of milliseconds, got 0");
        assertFails(gapless("baseline"), "Missing required subcommand");
        assertFails(gapless(on(bootstrap, null, "nonsense")), "Unmatched argument");
        assertFails(gapless(on(bootstrap, Path.of("/nonexistent/admin.properties"), "probe")),
                "Error: Cannot read the --command-config file /nonexistent/admin.properties");
        Cli.Result help = gapless("--help");
        assertEquals(0, help.code());
        assertTrue(help.out().contains("share-settings"), help.out());
    }
}
