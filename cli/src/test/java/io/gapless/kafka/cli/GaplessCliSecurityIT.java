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

import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.KafkaSecurity;
import io.gapless.kafka.testkit.TestTopics;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Properties;

import static io.gapless.kafka.cli.Cli.commandConfig;
import static io.gapless.kafka.cli.Cli.gapless;
import static io.gapless.kafka.cli.Cli.on;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code --command-config} takes the same client properties file as Kafka's tools: security settings reach every client the commands open. */
class GaplessCliSecurityIT {
    private static EmbeddedKafka kafka;

    @BeforeAll
    static void start() {
        kafka = EmbeddedKafka.builder().security(KafkaSecurity.saslPlaintext()).start();
    }

    @AfterAll
    static void stop() {
        kafka.close();
    }

    private static Path adminProperties() {
        Properties p = kafka.clientProperties();
        p.remove("bootstrap.servers");
        return commandConfig(p);
    }

    @Test
    void theCommandConfigAuthenticatesEveryCommand() {
        Path config = adminProperties();
        Cli.Result describe = gapless(on(kafka.bootstrapServers(), config, "share-settings", "describe", TestTopics.unique("sec")));
        assertEquals(0, describe.code(), describe.toString());

        Cli.Result probe = gapless(on(kafka.bootstrapServers(), config, "probe"));
        assertEquals(0, probe.code(), probe.toString());

        // The SDK's own helper clients (baseline store, ledger views) connect with it too: the answer is about the group, not the connection.
        String group = TestTopics.unique("sec-g");
        Cli.Result baseline = gapless(on(kafka.bootstrapServers(), config, "baseline", "describe", group));
        assertEquals(1, baseline.code(), baseline.toString());
        assertTrue(baseline.err().contains("Error: Group '" + group + "' has no baseline"), baseline.toString());
        Cli.Result ledger = gapless(on(kafka.bootstrapServers(), config, "ledger", "status", group));
        assertEquals(1, ledger.code(), ledger.toString());
        assertTrue(ledger.err().contains("has no ack ledger"), ledger.toString());
    }

    @Test
    void withoutTheCommandConfigTheClusterRefusesTheConnection() {
        String[] args = on(kafka.bootstrapServers(), null, "share-settings", "describe", "g");
        String[] withTimeout = java.util.Arrays.copyOf(args, args.length + 2);
        withTimeout[args.length] = "--timeout";
        withTimeout[args.length + 1] = "3000";
        Cli.Result r = gapless(withTimeout);
        assertEquals(1, r.code(), r.toString());
        assertTrue(r.err().startsWith("Error: "), r.toString());
    }
}
