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
package io.gapless.kafka.testkit.legacy;

import io.gapless.kafka.testkit.internal.ChildJvm;
import io.gapless.kafka.testkit.internal.ClusterLayout;
import io.gapless.kafka.testkit.internal.FreePorts;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.Uuid;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A single-node KRaft Kafka broker of an OLDER release (by default 4.3.1, see
 * {@link #kafkaVersion()}) running in a child JVM, for tests that must see how such a broker
 * behaves while this JVM holds the current Kafka jars.
 *
 * <p>Tests can also declare a {@code LegacyKafka} parameter in a class annotated with
 * {@link LegacyKafkaTest}: one legacy broker per test JVM, shared by every such class.
 *
 * <pre>{@code
 * try (LegacyKafka legacy = LegacyKafka.start()) {
 *     props.put("bootstrap.servers", legacy.bootstrapServers());
 *     ...
 * }
 * }</pre>
 *
 * <p>The child's classpath holds only the older {@code kafka_2.13} and its dependencies, resolved
 * by the sdk-testkit build from {@code sdk-testkit/legacy-kafka/pom.xml}; nothing of that release
 * reaches this JVM's classpath. The broker uses the same fast test settings as
 * {@link io.gapless.kafka.testkit.EmbeddedKafka} (single-partition internal topics, 500 ms group
 * heartbeats, share locks down to one second). {@link #close()} stops the child and deletes its
 * data; a shutdown hook kills it when this JVM exits, and the child stops by itself when this JVM
 * dies without running hooks (its stdin reaches end of file).
 *
 * @since 0.1.0
 */
public final class LegacyKafka implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(LegacyKafka.class);
    /** The child's main, stored under another extension so no compiler or javadoc run picks it up. */
    private static final String MAIN_RESOURCE = "LegacyBrokerMain.java.src";
    private static final String MAIN_SOURCE = "LegacyBrokerMain.java";
    private static final int START_ATTEMPTS = 3;
    private static final Duration STOP_GRACE = Duration.ofSeconds(15);

    private final ChildJvm child;
    private final Path baseDir;
    private final String bootstrapServers;
    private final String kafkaVersion;
    private final String metadataVersion;
    private final Admin admin;
    private volatile boolean closed;

    private LegacyKafka(ChildJvm child, Path baseDir, String bootstrapServers, String kafkaVersion, String metadataVersion) {
        this.child = child;
        this.baseDir = baseDir;
        this.bootstrapServers = bootstrapServers;
        this.kafkaVersion = kafkaVersion;
        this.metadataVersion = metadataVersion;
        this.admin = Admin.create(adminProperties(bootstrapServers, "gapless-legacy-admin"));
    }

    /** Starts a legacy broker with the default test settings. */
    public static LegacyKafka start() {
        return builder().start();
    }

    /** A builder for broker settings and the start timeout. */
    public static Builder builder() {
        return new Builder();
    }

    /** The {@code bootstrap.servers} value clients use to reach the legacy broker. */
    public String bootstrapServers() {
        return bootstrapServers;
    }

    /** A shared admin client (kafka-clients of this JVM); closed by {@link #close()}, so callers must not close it. */
    public Admin admin() {
        return admin;
    }

    /** The Kafka release the child runs, for example {@code 4.3.1}. */
    public String kafkaVersion() {
        return kafkaVersion;
    }

    /** The metadata version the child formatted its storage with, for example {@code 4.3-IV0}. */
    public String metadataVersion() {
        return metadataVersion;
    }

    /** The child JVM's process id. */
    public long pid() {
        return child.pid();
    }

    /** Whether the child JVM is still running. */
    public boolean isRunning() {
        return child.isAlive();
    }

    /** Stops the broker (killing the child if it does not stop in 15 s) and deletes its data. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        admin.close(Duration.ofSeconds(5));
        child.stop(STOP_GRACE);
        deleteRecursively(baseDir);
        log.info("Legacy Kafka {} at {} stopped", kafkaVersion, bootstrapServers);
    }

    /** Builds a {@link LegacyKafka}. */
    public static final class Builder {
        private final Map<String, String> brokerProperties = new LinkedHashMap<>();
        private Duration startTimeout = Duration.ofSeconds(90);

        private Builder() {
        }

        /** Sets or overrides one broker setting; the older release must know it. */
        public Builder brokerProperty(String key, Object value) {
            if (key == null || key.isBlank()) {
                throw new IllegalArgumentException("broker property key must not be blank, got '" + key + "'");
            }
            brokerProperties.put(key, String.valueOf(value));
            return this;
        }

        /** How long one start attempt may take, from launching the child to a usable broker. */
        public Builder startTimeout(Duration timeout) {
            if (timeout == null || timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("startTimeout must be positive, got " + timeout);
            }
            this.startTimeout = timeout;
            return this;
        }

        /** Launches the child JVM and waits until the broker serves clients. */
        public LegacyKafka start() {
            LegacyClasspath classpath = LegacyClasspath.load();
            Path baseDir = createTempDir();
            Path mainSource = extractMainSource(baseDir);
            KafkaException lastFailure = null;
            for (int attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
                Path attemptDir = baseDir.resolve("attempt-" + attempt);
                int[] ports = FreePorts.take(2);
                Map<String, String> props = ClusterLayout.defaultProperties(0, ports[0], ports[1],
                        "0@localhost:" + ports[1], attemptDir.resolve("data"), 1);
                props.putAll(brokerProperties);
                Path propsFile = writeProperties(attemptDir, props);
                long started = System.nanoTime();
                ChildJvm child = ChildJvm.launch("Legacy broker", "GAPLESS-LEGACY",
                        List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:-UsePerfData"),
                        classpath.asArgument(),
                        List.of(mainSource.toString(), propsFile.toString(), Uuid.randomUuid().toString()),
                        attemptDir.resolve("broker.log"));
                String bootstrap = "localhost:" + ports[0];
                try {
                    String metadataVersion = child.awaitReady(startTimeout);
                    awaitClients(bootstrap, startTimeout);
                    log.info("Legacy Kafka {} ({}) ready at {} in {} ms (pid {})", classpath.version(), metadataVersion,
                            bootstrap, (System.nanoTime() - started) / 1_000_000, child.pid());
                    return new LegacyKafka(child, baseDir, bootstrap, classpath.version(), metadataVersion);
                } catch (KafkaException e) {
                    // A port taken between probing and binding is the usual cause: try new ports.
                    lastFailure = e;
                    log.warn("Legacy Kafka start attempt {} failed: {}", attempt, e.getMessage());
                    child.stop(Duration.ofSeconds(5));
                }
            }
            deleteRecursively(baseDir);
            throw lastFailure;
        }
    }

    private static Properties adminProperties(String bootstrap, String clientId) {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(AdminClientConfig.CLIENT_ID_CONFIG, clientId);
        return props;
    }

    private static void awaitClients(String bootstrap, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        try (Admin admin = Admin.create(adminProperties(bootstrap, "gapless-legacy-readiness"))) {
            while (true) {
                try {
                    if (!admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).isEmpty()) {
                        return;
                    }
                } catch (ExecutionException | TimeoutException e) {
                    if (System.nanoTime() > deadline) {
                        throw new KafkaException("Legacy broker at " + bootstrap + " did not answer within " + timeout, e);
                    }
                }
                Thread.sleep(50);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaException("Interrupted while waiting for the legacy broker at " + bootstrap, e);
        }
    }

    private static Path createTempDir() {
        try {
            return Files.createTempDirectory("gapless-legacy-kafka-");
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create a directory for the legacy broker", e);
        }
    }

    private static Path extractMainSource(Path dir) {
        Path target = dir.resolve(MAIN_SOURCE);
        try (InputStream in = LegacyKafka.class.getResourceAsStream(MAIN_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(MAIN_RESOURCE + " is missing from the sdk-testkit resources");
            }
            Files.copy(in, target);
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write " + target, e);
        }
    }

    private static Path writeProperties(Path dir, Map<String, String> props) {
        Properties p = new Properties();
        p.putAll(props);
        try {
            Files.createDirectories(dir);
            Path file = dir.resolve("server.properties");
            try (OutputStream out = Files.newOutputStream(file)) {
                p.store(out, "Gapless legacy broker");
            }
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write the legacy broker's properties in " + dir, e);
        }
    }

    private static void deleteRecursively(Path dir) {
        try (var paths = Files.walk(dir)) {
            paths.sorted(Collections.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            log.warn("Could not delete {}: {}", dir, e.toString());
        }
    }
}
