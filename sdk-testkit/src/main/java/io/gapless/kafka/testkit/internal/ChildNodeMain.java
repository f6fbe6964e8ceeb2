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
package io.gapless.kafka.testkit.internal;

import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.common.utils.Time;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

/**
 * Main of a child-JVM node ({@link ChildNode}): {@code ChildNodeMain <settings file> [<format request>]}.
 * The storage is formatted by the parent, or, given a format request, by this JVM on its first start
 * ({@link NodeStorage#formatIfRequested}). Prints {@code GAPLESS-NODE-READY} once the server started,
 * {@code GAPLESS-NODE-FAILED <reason>} before exiting with status 2 when it cannot start. When its
 * stdin reaches end of file (the parent closed it or died) it shuts the server down and exits,
 * halting after 20 s if the shutdown hangs (for example with no controller left to answer).
 */
public final class ChildNodeMain {
    private static final long SHUTDOWN_LIMIT_MS = 20_000;

    private ChildNodeMain() {
    }

    public static void main(String[] args) throws Exception {
        Properties props = new Properties();
        try (InputStream in = Files.newInputStream(Path.of(args[0]))) {
            props.load(in);
        }
        Map<String, String> config = new HashMap<>();
        props.stringPropertyNames().forEach(k -> config.put(k, props.getProperty(k)));
        KafkaRaftServer server;
        try {
            if (args.length > 1) {
                NodeStorage.formatIfRequested(Path.of(args[1]));
            }
            server = new KafkaRaftServer(new KafkaConfig(config, false), Time.SYSTEM);
            server.startup();
        } catch (Throwable t) {
            // Protocol line on stdout, read by the parent; the broker's own logging goes through SLF4J.
            System.out.println("GAPLESS-NODE-FAILED " + t);
            t.printStackTrace(System.out);
            System.out.flush();
            Runtime.getRuntime().halt(2);
            return;
        }
        KafkaRaftServer started = server;
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            started.shutdown();
            started.awaitShutdown();
        }, "gapless-node-shutdown"));
        Thread parentWatch = new Thread(() -> {
            try {
                while (System.in.read() >= 0) {
                    // The parent never writes; reading only detects end of file.
                }
            } catch (Exception ignored) {
                // A broken pipe means the parent is gone as well.
            }
            Thread limit = new Thread(() -> {
                try {
                    Thread.sleep(SHUTDOWN_LIMIT_MS);
                } catch (InterruptedException ignored) {
                    return;
                }
                Runtime.getRuntime().halt(3);
            }, "gapless-node-shutdown-limit");
            limit.setDaemon(true);
            limit.start();
            System.exit(0);
        }, "gapless-node-parent-watch");
        parentWatch.setDaemon(true);
        parentWatch.start();
        System.out.println("GAPLESS-NODE-READY");
        System.out.flush();
        server.awaitShutdown();
    }
}
