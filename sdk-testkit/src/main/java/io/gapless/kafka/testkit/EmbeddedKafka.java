package io.gapless.kafka.testkit;

import io.gapless.kafka.testkit.internal.BrokerNode;
import io.gapless.kafka.testkit.internal.FatalExitGuard;
import io.gapless.kafka.testkit.internal.FreePorts;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.Uuid;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

/**
 * A real Apache Kafka cluster (KRaft, combined broker and controller per node) running inside this
 * JVM, for tests, demos and users' own tests. No Docker engine and no external process is needed.
 *
 * <pre>{@code
 * try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
 *     kafka.createTopic("orders", 2);
 *     props.put("bootstrap.servers", kafka.bootstrapServers());
 *     ...
 * }
 * }</pre>
 *
 * <p>The defaults are tuned for fast tests: single-partition internal topics, 500 ms group
 * heartbeats, no initial rebalance delay and share-group record locks allowed down to one second.
 * Share groups and transactions work out of the box. A fatal broker fault throws
 * {@link EmbeddedKafkaFatalException} in the faulting thread instead of halting the JVM.
 *
 * <p>{@link #external(String)} wraps a cluster that runs elsewhere (for example the one named by
 * {@code GAPLESS_BOOTSTRAP_SERVERS}) behind the same helper methods; closing it leaves that cluster
 * running.
 */
public final class EmbeddedKafka implements AutoCloseable {

    /** Environment variable that points tests at an external cluster instead of an embedded one. */
    public static final String BOOTSTRAP_ENV = "GAPLESS_BOOTSTRAP_SERVERS";

    private static final Logger log = LoggerFactory.getLogger(EmbeddedKafka.class);
    private static final Duration OPERATION_TIMEOUT = Duration.ofSeconds(30);

    private final List<BrokerNode> nodes;
    private final Path baseDir;
    private final String bootstrapServers;
    private final Admin admin;
    private volatile boolean closed;

    private EmbeddedKafka(List<BrokerNode> nodes, Path baseDir, String bootstrapServers) {
        this.nodes = nodes;
        this.baseDir = baseDir;
        this.bootstrapServers = bootstrapServers;
        Properties adminProps = new Properties();
        adminProps.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        adminProps.put(AdminClientConfig.CLIENT_ID_CONFIG, "gapless-testkit-admin");
        this.admin = Admin.create(adminProps);
    }

    /** Starts a single-node cluster with the default test settings. */
    public static EmbeddedKafka start() {
        return builder().start();
    }

    /** A builder for node count, broker settings and feature levels. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Wraps an already running cluster. {@link #close()} then only closes this object's admin
     * client; topics it created stay.
     */
    public static EmbeddedKafka external(String bootstrapServers) {
        if (bootstrapServers == null || bootstrapServers.isBlank()) {
            throw new IllegalArgumentException("bootstrapServers must not be blank, got '" + bootstrapServers + "'");
        }
        return new EmbeddedKafka(List.of(), null, bootstrapServers);
    }

    /**
     * The cluster a test should use: the external one named by {@value #BOOTSTRAP_ENV} when that
     * variable is set, otherwise a freshly started embedded single-node cluster.
     */
    public static EmbeddedKafka forTests() {
        String external = System.getenv(BOOTSTRAP_ENV);
        return external != null && !external.isBlank() ? external(external) : start();
    }

    /** The {@code bootstrap.servers} value clients use to reach this cluster. */
    public String bootstrapServers() {
        return bootstrapServers;
    }

    /** Whether this object wraps a cluster that runs outside this JVM. */
    public boolean isExternal() {
        return nodes.isEmpty();
    }

    /** Number of nodes this cluster runs in this JVM (0 for an external cluster). */
    public int nodeCount() {
        return nodes.size();
    }

    /** A shared admin client; it is closed by {@link #close()}, so callers must not close it. */
    public Admin admin() {
        return admin;
    }

    /**
     * Creates a topic with the cluster's default replication factor and waits until every
     * partition has a leader.
     */
    public void createTopic(String name, int partitions) {
        createTopic(name, partitions, Map.of());
    }

    /** Creates a topic with the given topic configs and waits until every partition has a leader. */
    public void createTopic(String name, int partitions, Map<String, String> configs) {
        if (partitions < 1) {
            throw new IllegalArgumentException("partitions must be at least 1, got " + partitions + " for topic " + name);
        }
        NewTopic topic = new NewTopic(name, java.util.Optional.of(partitions), java.util.Optional.empty())
                .configs(configs);
        await(admin.createTopics(List.of(topic)).all(), "create topic " + name);
        awaitPartitions(name, partitions);
    }

    /**
     * Grows a topic to {@code totalPartitions} partitions (Kafka's {@code createPartitions}) and
     * waits until the new partitions have leaders.
     */
    public void addPartitions(String topic, int totalPartitions) {
        await(admin.createPartitions(Map.of(topic, NewPartitions.increaseTo(totalPartitions))).all(),
                "grow topic " + topic + " to " + totalPartitions + " partitions");
        awaitPartitions(topic, totalPartitions);
    }

    /** Deletes topics and waits until the deletion is acknowledged. */
    public void deleteTopics(String... topics) {
        await(admin.deleteTopics(List.of(topics)).all(), "delete topics " + List.of(topics));
    }

    /** The partition count of a topic as the cluster reports it now. */
    public int partitionCount(String topic) {
        return describe(topic).partitions().size();
    }

    /** The current topic id of a topic. */
    public Uuid topicId(String topic) {
        return describe(topic).topicId();
    }

    /**
     * Stops every node, waits for shutdown and deletes the data directories. Safe to call twice.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        admin.close(Duration.ofSeconds(5));
        // Brokers first would leave controllers without a quorum for a while; shut down in parallel.
        List<CompletableFuture<Void>> stops = nodes.stream()
                .map(node -> CompletableFuture.runAsync(node::shutdown))
                .collect(Collectors.toList());
        stops.forEach(CompletableFuture::join);
        if (baseDir != null) {
            deleteRecursively(baseDir);
        }
        log.info("Embedded Kafka at {} stopped", bootstrapServers);
    }

    private TopicDescription describe(String topic) {
        return await(admin.describeTopics(List.of(topic)).allTopicNames(), "describe topic " + topic).get(topic);
    }

    private void awaitPartitions(String topic, int expected) {
        waitFor(() -> {
            try {
                TopicDescription d = admin.describeTopics(List.of(topic)).allTopicNames()
                        .get(5, TimeUnit.SECONDS).get(topic);
                if (d.partitions().size() < expected
                        || !d.partitions().stream().map(TopicPartitionInfo::leader).allMatch(l -> l != null && !l.isEmpty())) {
                    return false;
                }
                // Metadata names a leader before the leader has the log: ListOffsets is served by the leader's log,
                // so it succeeding means a producer's first write will not be turned away (which trips the
                // idempotent producer of Kafka 4.4 into retrying until its delivery timeout).
                Map<org.apache.kafka.common.TopicPartition, org.apache.kafka.clients.admin.OffsetSpec> latest = new LinkedHashMap<>();
                for (int p = 0; p < d.partitions().size(); p++) {
                    latest.put(new org.apache.kafka.common.TopicPartition(topic, p), org.apache.kafka.clients.admin.OffsetSpec.latest());
                }
                admin.listOffsets(latest).all().get(5, TimeUnit.SECONDS);
                return true;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new KafkaException("Interrupted while waiting for topic " + topic, e);
            } catch (ExecutionException | TimeoutException e) {
                return false;
            }
        }, "partitions of " + topic + " to have leaders serving their logs");
    }

    private static void waitFor(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + OPERATION_TIMEOUT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new KafkaException("Timed out after " + OPERATION_TIMEOUT + " waiting for " + what);
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new KafkaException("Interrupted while waiting for " + what, e);
            }
        }
    }

    private static <T> T await(org.apache.kafka.common.KafkaFuture<T> future, String what) {
        try {
            return future.get(OPERATION_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaException("Interrupted during " + what, e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof KafkaException ke) {
                throw ke;
            }
            throw new KafkaException("Failed to " + what, cause);
        } catch (TimeoutException e) {
            throw new KafkaException("Timed out after " + OPERATION_TIMEOUT + " trying to " + what, e);
        }
    }

    private static void deleteRecursively(Path dir) {
        try (var paths = Files.walk(dir)) {
            paths.sorted(Collections.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            log.warn("Could not delete {}: {}", dir, e.toString());
        }
    }

    /** Builds an {@link EmbeddedKafka}: node count, broker settings, feature levels. */
    public static final class Builder {
        private int nodes = 1;
        private final Map<String, String> brokerProperties = new LinkedHashMap<>();
        private final Map<String, Short> featureLevels = new LinkedHashMap<>();

        private Builder() {
        }

        /** Number of combined broker+controller nodes (1 to 5); replication factors follow it. */
        public Builder nodes(int count) {
            if (count < 1 || count > 5) {
                throw new IllegalArgumentException("nodes must be between 1 and 5, got " + count);
            }
            this.nodes = count;
            return this;
        }

        /** Sets or overrides one broker setting on every node. */
        public Builder brokerProperty(String key, Object value) {
            brokerProperties.put(key, String.valueOf(value));
            return this;
        }

        /**
         * Formats the cluster with a feature at the given level, for example
         * {@code feature("share.version", (short) 0)} for a cluster without share groups.
         */
        public Builder feature(String name, short level) {
            featureLevels.put(name, level);
            return this;
        }

        /** Formats the storage, starts every node and waits until clients can use the cluster. */
        public EmbeddedKafka start() {
            FatalExitGuard.install();
            Path baseDir;
            try {
                baseDir = Files.createTempDirectory("gapless-kafka-");
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot create a data directory for the embedded broker", e);
            }
            String clusterId = Uuid.randomUuid().toString();
            KafkaException lastFailure = null;
            for (int attempt = 1; attempt <= 5; attempt++) {
                List<BrokerNode> started = new ArrayList<>();
                try {
                    List<BrokerNode> planned = plan(baseDir.resolve("attempt-" + attempt), clusterId);
                    List<CompletableFuture<Void>> startups = new ArrayList<>();
                    for (BrokerNode node : planned) {
                        node.format(featureLevels);
                        started.add(node);
                        startups.add(CompletableFuture.runAsync(node::startup));
                    }
                    CompletableFuture.allOf(startups.toArray(CompletableFuture[]::new)).join();
                    String bootstrap = planned.stream().map(BrokerNode::bootstrapAddress).collect(Collectors.joining(","));
                    EmbeddedKafka kafka = new EmbeddedKafka(planned, baseDir, bootstrap);
                    kafka.waitUntilReady();
                    log.info("Embedded Kafka with {} node(s) ready at {}", planned.size(), bootstrap);
                    return kafka;
                } catch (RuntimeException e) {
                    // A port taken between probing and binding is the usual cause: try new ports.
                    lastFailure = e instanceof KafkaException ke ? ke : new KafkaException("Embedded Kafka failed to start", e);
                    log.warn("Embedded Kafka start attempt {} failed: {}", attempt, e.toString());
                    started.forEach(BrokerNode::shutdownQuietly);
                }
            }
            deleteRecursively(baseDir);
            throw lastFailure;
        }

        private List<BrokerNode> plan(Path dir, String clusterId) {
            int[] ports = FreePorts.take(nodes * 2);
            StringBuilder voters = new StringBuilder();
            for (int i = 0; i < nodes; i++) {
                if (i > 0) {
                    voters.append(',');
                }
                voters.append(i).append("@localhost:").append(ports[nodes + i]);
            }
            List<BrokerNode> planned = new ArrayList<>();
            for (int i = 0; i < nodes; i++) {
                Map<String, String> props = BrokerNode.defaultProperties(i, ports[i], ports[nodes + i],
                        voters.toString(), dir.resolve("node-" + i), nodes);
                props.putAll(brokerProperties);
                planned.add(new BrokerNode(i, clusterId, props, ports[i]));
            }
            return planned;
        }
    }

    private void waitUntilReady() {
        waitFor(() -> {
            try {
                return admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).size() >= nodes.size();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new KafkaException("Interrupted while waiting for the embedded cluster", e);
            } catch (ExecutionException | TimeoutException e) {
                return false;
            }
        }, "all " + nodes.size() + " node(s) to register");
    }
}
