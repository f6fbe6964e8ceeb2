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

import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.utils.Utils;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

/**
 * How every command reaches the cluster, spelled as Kafka's own tools spell it: the same
 * {@code --bootstrap-server} and the same {@code --command-config} properties file (security
 * settings, and any {@code gapless.*} setting the group's clients use, such as
 * {@code gapless.baseline.topic} or {@code gapless.ledger.topic}).
 */
final class ConnectionOptions {
    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    @Option(names = "--bootstrap-server", required = true, paramLabel = "<server to connect to>",
            description = "REQUIRED: The server(s) to connect to, host:port[,host:port...].")
    String bootstrapServer;

    @Option(names = "--command-config", paramLabel = "<command config property file>",
            description = "Property file with client settings (security, gapless.* keys), as for Kafka's own tools.")
    Path commandConfig;

    private long timeoutMs = 30_000;

    @Option(names = "--timeout", paramLabel = "<ms>", defaultValue = "30000",
            description = "How long each call to the cluster may take, in ms (default: ${DEFAULT-VALUE}).")
    void timeoutMs(long ms) {
        if (ms <= 0) {
            throw new ParameterException(mixee.commandLine(), "--timeout must be a positive number of milliseconds, got " + ms);
        }
        this.timeoutMs = ms;
    }

    String bootstrapServer() {
        return bootstrapServer;
    }

    Duration timeout() {
        return Duration.ofMillis(timeoutMs);
    }

    /** The command config's settings with {@code bootstrap.servers} from {@code --bootstrap-server}. */
    Map<String, Object> clientConfig() {
        Properties props;
        try {
            props = commandConfig == null ? new Properties() : Utils.loadProps(commandConfig.toString());
        } catch (IOException e) {
            throw new CommandFailure("Cannot read the --command-config file " + commandConfig + ": " + e);
        }
        Map<String, Object> config = new HashMap<>(Utils.propsToMap(props));
        config.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServer);
        return config;
    }

    /**
     * An admin client whose every call ends within {@code --timeout}: a call given up on leaves
     * nothing for {@code close} to wait for.
     */
    Admin admin() {
        Map<String, Object> config = new HashMap<>();
        clientConfig().forEach((k, v) -> {
            if (AdminClientConfig.configNames().contains(k)) {
                config.put(k, v);
            }
        });
        config.putIfAbsent(CommonClientConfigs.CLIENT_ID_CONFIG, "gapless-cli");
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) Math.min(Integer.MAX_VALUE, timeoutMs));
        config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) Math.min(30_000, timeoutMs));
        return Admin.create(config);
    }
}
