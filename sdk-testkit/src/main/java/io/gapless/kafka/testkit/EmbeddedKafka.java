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
package io.gapless.kafka.testkit;

import io.gapless.kafka.testkit.internal.BrokerNode;
import io.gapless.kafka.testkit.internal.ChildNode;
import io.gapless.kafka.testkit.internal.ClusterLayout;
import io.gapless.kafka.testkit.internal.ClusterLayout.NodePlan;
import io.gapless.kafka.testkit.internal.ClusterSecrets;
import io.gapless.kafka.testkit.internal.FatalExitGuard;
import io.gapless.kafka.testkit.internal.NodeProcess;
import io.gapless.kafka.testkit.internal.NodeStorage;
import io.gapless.kafka.testkit.internal.TestcontainersKafka;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AccessControlEntryFilter;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
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
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.IntPredicate;
import java.util.function.Predicate;
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
 * <p>Tests of failures reach each node through {@link #nodes()} / {@link #node(int)}: stop and
 * start it, and with {@link Builder#childProcesses(boolean)} kill (SIGKILL) or freeze (SIGSTOP) its
 * JVM; {@link #leaderOf(TopicPartition)}, {@link #awaitLeader(TopicPartition, IntPredicate)} and
 * {@link #awaitFullyInSync(TopicPartition)} follow the partition leaderships meanwhile.
 *
 * <p>{@link Builder#security(KafkaSecurity)} secures the client listener (SASL_PLAINTEXT, SSL,
 * SASL_SSL) with Kafka's StandardAuthorizer on; {@link #addUser(String, String)},
 * {@link #clientProperties(String)} and {@link #allow(String, ResourceType, String, AclOperation...)}
 * give tests principals with exactly the rights they grant.
 *
 * <p>{@link #external(String)} wraps a cluster that runs elsewhere (for example the one named by
 * {@code GAPLESS_BOOTSTRAP_SERVERS}) behind the same helper methods; closing it leaves that cluster
 * running.
 *
 * @since 0.1.0
 */
public final class EmbeddedKafka implements AutoCloseable {

    /** Environment variable that points tests at an external cluster instead of an embedded one. */
    public static final String BOOTSTRAP_ENV = "GAPLESS_BOOTSTRAP_SERVERS";

    /**
     * System property choosing what {@link #forTests()} starts: {@code embedded} (the default) or
     * {@code testcontainers} (a Docker container, see {@link #testcontainers()}; the Maven profile
     * {@code -Ptestcontainers} sets it).
     */
    public static final String BACKEND_PROPERTY = "gapless.testkit.backend";

    /**
     * System property that replaces the classpath of child-JVM nodes (default: this JVM's
     * {@code java.class.path}, which must hold Kafka's broker jars and sdk-testkit). It may hold
     * another Kafka release than this JVM: the children then format their storage themselves, with
     * the release that runs them, and this JVM needs no broker jar at all (only kafka-clients,
     * any 4.x).
     */
    public static final String CHILD_CLASSPATH_PROPERTY = "gapless.testkit.child.classpath";

    /**
     * System property that, set to {@code true}, makes {@link Builder#childProcesses(boolean)}
     * default to {@code true}: every cluster of this JVM, also those of {@link #forTests()} and
     * {@link EmbeddedKafkaTest}, runs its nodes in child JVMs. With {@value #CHILD_CLASSPATH_PROPERTY}
     * this is how a test JVM holding an older kafka-clients talks to the current broker (the
     * compatibility matrix of the {@code compat} module).
     */
    public static final String CHILD_PROCESSES_PROPERTY = "gapless.testkit.childProcesses";

    /** System property with extra JVM options for child-JVM nodes, separated by spaces (for example {@code -Xmx512m}). */
    public static final String CHILD_JVM_OPTIONS_PROPERTY = ChildNode.EXTRA_OPTIONS_PROPERTY;

    private static final Logger log = LoggerFactory.getLogger(EmbeddedKafka.class);
    private static final Duration OPERATION_TIMEOUT = Duration.ofSeconds(30);
    /** Failover after a kill waits for the broker session timeout; leave room for a busy machine. */
    private static final Duration FAILOVER_TIMEOUT = Duration.ofSeconds(60);

    private final List<ClusterNode> nodes;
    private final Path baseDir;
    private final String bootstrapServers;
    private final Admin admin;
    private final KafkaSecurity security;
    private final ClusterSecrets secrets;
    private final AutoCloseable owned;
    private volatile boolean closed;

    private EmbeddedKafka(List<ClusterNode> nodes, Path baseDir, String bootstrapServers, KafkaSecurity security,
                          ClusterSecrets secrets) {
        this(nodes, baseDir, bootstrapServers, security, secrets, null);
    }

    private EmbeddedKafka(List<ClusterNode> nodes, Path baseDir, String bootstrapServers, KafkaSecurity security,
                          ClusterSecrets secrets, AutoCloseable owned) {
        this.owned = owned;
        this.nodes = nodes;
        this.baseDir = baseDir;
        this.bootstrapServers = bootstrapServers;
        this.security = security;
        this.secrets = secrets;
        Properties adminProps = clientProperties();
        adminProps.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        adminProps.put(AdminClientConfig.CLIENT_ID_CONFIG, "gapless-testkit-admin");
        // A paused (SIGSTOPped) node accepts connections and never answers: give up on it sooner.
        adminProps.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 15_000);
        this.admin = Admin.create(adminProps);
        nodes.forEach(node -> node.awaitRegistrationWith(this::awaitRegistered));
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
     *
     * @throws IllegalArgumentException if {@code bootstrapServers} is blank
     */
    public static EmbeddedKafka external(String bootstrapServers) {
        if (bootstrapServers == null || bootstrapServers.isBlank()) {
            throw new IllegalArgumentException("bootstrapServers must not be blank, got '" + bootstrapServers + "'");
        }
        return new EmbeddedKafka(List.of(), null, bootstrapServers, null, null);
    }

    /**
     * Starts a single-node Kafka in a Docker container with the same fast-test settings, through
     * {@code org.testcontainers:testcontainers-kafka} (optional: add it to the test classpath) and
     * the {@code apache/kafka} image of this JVM's Kafka version ({@code -Dgapless.testkit.kafka.image}
     * names another). Node control, child processes and security are not available on it;
     * {@link #close()} stops the container.
     *
     * @throws IllegalStateException naming the reason when Testcontainers or a Docker engine is missing
     */
    public static EmbeddedKafka testcontainers() {
        // Same contract as an embedded cluster for tests that provoke Kafka's halt path in this JVM.
        FatalExitGuard.install();
        TestcontainersKafka.Started started = TestcontainersKafka.start();
        return new EmbeddedKafka(List.of(), null, started.bootstrapServers(), null, null, started.container());
    }

    /**
     * The cluster a test should use: the external one named by {@value #BOOTSTRAP_ENV} when that
     * variable is set, else a container when {@value #BACKEND_PROPERTY} is {@code testcontainers},
     * else a freshly started embedded single-node cluster.
     */
    public static EmbeddedKafka forTests() {
        String external = System.getenv(BOOTSTRAP_ENV);
        if (external != null && !external.isBlank()) {
            return external(external);
        }
        return usesTestcontainers() ? testcontainers() : start();
    }

    /**
     * Whether {@value #BACKEND_PROPERTY} asks for containers.
     *
     * @throws IllegalArgumentException for a value other than {@code embedded} or {@code testcontainers}
     */
    static boolean usesTestcontainers() {
        String backend = System.getProperty(BACKEND_PROPERTY, "embedded").trim();
        if (!backend.equals("embedded") && !backend.equals("testcontainers")) {
            throw new IllegalArgumentException(BACKEND_PROPERTY + " must be 'embedded' or 'testcontainers', got '" + backend + "'");
        }
        return backend.equals("testcontainers");
    }

    /** The {@code bootstrap.servers} value clients use to reach this cluster. */
    public String bootstrapServers() {
        return bootstrapServers;
    }

    /** How the client listener is secured; empty for a PLAINTEXT or external cluster. */
    public Optional<KafkaSecurity> security() {
        return Optional.ofNullable(security);
    }

    /**
     * The client settings that connect as the test kit's super user ({@value KafkaSecurity#SUPER_USER}):
     * {@code bootstrap.servers} plus, on a secured cluster, {@code security.protocol},
     * {@code sasl.*} and {@code ssl.*}. {@link TestClients} starts from these.
     */
    public Properties clientProperties() {
        return secrets == null ? withBootstrap(Map.of()) : clientProperties(ClusterSecrets.SUPER_USER);
    }

    /**
     * The client settings that connect as {@code user}: {@code bootstrap.servers},
     * {@code security.protocol}, {@code sasl.mechanism} and {@code sasl.jaas.config} for SASL, the
     * truststore ({@code ssl.truststore.type=PEM}, inline) for TLS and the client certificate
     * ({@code ssl.keystore.*}, PEM) for SSL. Put them over a client's other settings.
     *
     * @throws IllegalStateException on a cluster without {@link Builder#security(KafkaSecurity)}
     * @throws IllegalArgumentException for a user never added
     */
    public Properties clientProperties(String user) {
        return withBootstrap(requireSecrets("clientProperties").clientProperties(user));
    }

    /**
     * Adds a principal with a random password (SASL) or a new client certificate {@code CN=<user>}
     * (SSL) and waits until every running broker accepts it. It may do nothing until ACLs allow it.
     */
    public void addUser(String user) {
        ClusterSecrets s = requireSecrets("addUser");
        if (s.usesSasl()) {
            addUser(user, ClusterSecrets.newPassword());
        } else {
            checkUserName(user);
            s.register(user, null);
        }
    }

    /**
     * Adds a SASL principal with this password (SCRAM credentials through
     * {@code alterUserScramCredentials}, 4096 iterations) and waits until every running broker
     * accepts its login. Adding a known user again changes its password.
     *
     * @throws IllegalStateException on an unsecured cluster or an SSL one (use {@link #addUser(String)})
     * @throws IllegalArgumentException for a blank name, a name with {@code " , = \} or an empty
     *                                  password or one with {@code "} or {@code \} (the message never quotes it)
     */
    public void addUser(String user, String password) {
        ClusterSecrets s = requireSecrets("addUser");
        if (!s.usesSasl()) {
            throw new IllegalStateException("SSL principals authenticate with a client certificate, not a password: addUser(\""
                    + user + "\") issues one");
        }
        checkUserName(user);
        if (password == null || password.isEmpty() || password.indexOf('"') >= 0 || password.indexOf('\\') >= 0) {
            throw new IllegalArgumentException("The password of '" + user + "' must be non-empty without \" or \\");
        }
        ScramMechanism mechanism = ScramMechanism.fromMechanismName(security.saslMechanism().orElseThrow());
        await(admin.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion(user,
                new ScramCredentialInfo(mechanism, 4096), password))).all(), "add SCRAM credentials for " + user);
        s.register(user, password);
        awaitLogin(user);
    }

    /**
     * Grants {@code user} the operations on one resource (a LITERAL pattern; name {@code "*"} for
     * every resource of the type), from any host, and waits until the brokers have the ACLs. For
     * other patterns use {@link #allow(String, ResourcePattern, AclOperation...)}; {@link #revoke}
     * takes them away again.
     *
     * <pre>{@code
     * kafka.allow("alice", ResourceType.TOPIC, "orders", AclOperation.WRITE, AclOperation.DESCRIBE);
     * kafka.allow("alice", ResourceType.GROUP, "billing", AclOperation.READ);
     * }</pre>
     */
    public void allow(String user, ResourceType type, String name, AclOperation... operations) {
        allow(user, new ResourcePattern(type, name, PatternType.LITERAL), operations);
    }

    /**
     * Grants {@code user} the operations on every resource {@code pattern} matches (for example
     * {@code new ResourcePattern(TOPIC, "tenant-a.", PREFIXED)}), from any host, and waits until
     * the brokers have the ACLs.
     */
    public void allow(String user, ResourcePattern pattern, AclOperation... operations) {
        List<AclBinding> bindings = bindings("allow", user, pattern, operations);
        await(admin.createAcls(bindings).all(), "create ACLs for " + user + " on " + pattern);
        awaitAcls(pattern, acls -> acls.containsAll(bindings), "the ACLs of " + user + " on " + pattern);
    }

    /**
     * Removes ACLs {@link #allow} granted: {@code user}'s operations on one resource (a LITERAL
     * pattern), and waits until no broker applies them any more.
     */
    public void revoke(String user, ResourceType type, String name, AclOperation... operations) {
        revoke(user, new ResourcePattern(type, name, PatternType.LITERAL), operations);
    }

    /** Removes {@code user}'s ACLs for these operations on exactly {@code pattern}, and waits until no broker applies them. */
    public void revoke(String user, ResourcePattern pattern, AclOperation... operations) {
        List<AclBinding> bindings = bindings("revoke", user, pattern, operations);
        await(admin.deleteAcls(bindings.stream().map(AclBinding::toFilter).toList()).all(),
                "delete ACLs of " + user + " on " + pattern);
        awaitAcls(pattern, acls -> bindings.stream().noneMatch(acls::contains), "the removal of ACLs of " + user + " on " + pattern);
    }

    private List<AclBinding> bindings(String method, String user, ResourcePattern pattern, AclOperation... operations) {
        requireSecrets(method);
        if (operations.length == 0) {
            throw new IllegalArgumentException(method + " needs at least one operation for " + user + " on " + pattern);
        }
        return java.util.Arrays.stream(operations)
                .map(op -> new AclBinding(pattern, new AccessControlEntry("User:" + user, "*", op, AclPermissionType.ALLOW)))
                .toList();
    }

    /** Every broker has the metadata log past the change, and {@code describeAcls} shows it. */
    private void awaitAcls(ResourcePattern pattern, Predicate<java.util.Collection<AclBinding>> done, String what) {
        awaitMetadataOnEveryBroker();
        waitFor(() -> attempt(admin.describeAcls(new AclBindingFilter(pattern.toFilter(), AccessControlEntryFilter.ANY)).values())
                .map(done::test).orElse(false), OPERATION_TIMEOUT, what);
    }

    /** Whether this object wraps a cluster that runs outside this JVM. */
    public boolean isExternal() {
        return nodes.isEmpty();
    }

    /** Number of broker nodes of this cluster (0 for an external cluster). */
    public int nodeCount() {
        return nodes().size();
    }

    /**
     * The broker nodes (combined broker+controller unless {@link Builder#controllers(int)} was
     * set), by id 0..n-1; empty for an external cluster.
     */
    public List<KafkaNode> nodes() {
        return nodes.stream().filter(ClusterNode::isBroker).map(KafkaNode.class::cast).toList();
    }

    /** The dedicated controller-only nodes ({@link Builder#controllers(int)}), by id from 3000; usually empty. */
    public List<KafkaNode> controllers() {
        return nodes.stream().filter(n -> !n.isBroker()).map(KafkaNode.class::cast).toList();
    }

    /**
     * The node with this id.
     *
     * @throws IllegalArgumentException when the cluster has no such node
     */
    public KafkaNode node(int id) {
        return nodes.stream().filter(n -> n.id() == id).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("No node " + id + " in this cluster; its nodes are "
                        + nodes.stream().map(ClusterNode::id).toList()));
    }

    /**
     * The id of the current leader of a partition as the cluster's metadata says now, or -1 when it
     * has none. Works for internal topics too, for example {@code __transaction_state-0}.
     */
    public int leaderOf(TopicPartition partition) {
        Node leader = partitionInfo(partition).leader();
        return leader == null || leader.isEmpty() ? -1 : leader.id();
    }

    /** The ids of the in-sync replicas of a partition as the cluster's metadata says now. */
    public Set<Integer> inSyncReplicas(TopicPartition partition) {
        return ids(partitionInfo(partition).isr());
    }

    /** Waits up to 60 s until the partition has a leader and returns its id. */
    public int awaitLeader(TopicPartition partition) {
        return awaitLeader(partition, id -> true);
    }

    /**
     * Waits up to 60 s until the partition has a leader whose id passes {@code accept} (for example
     * {@code id -> id != oldLeader} after killing the old one) and returns its id.
     */
    public int awaitLeader(TopicPartition partition, IntPredicate accept) {
        int[] found = {-1};
        waitFor(() -> {
            int leader = leaderOrMinusOne(partition);
            found[0] = leader;
            return leader >= 0 && accept.test(leader);
        }, FAILOVER_TIMEOUT, "a leader of " + partition + " that passes the condition (last seen: " + found[0] + ")");
        return found[0];
    }

    /**
     * Waits up to 60 s until the in-sync replica set of a partition passes {@code accept} (for
     * example {@code isr -> isr.contains(restartedId)}) and returns it.
     */
    public Set<Integer> awaitInSyncReplicas(TopicPartition partition, Predicate<Set<Integer>> accept) {
        List<Set<Integer>> found = new ArrayList<>(List.of(Set.of()));
        waitFor(() -> {
            Set<Integer> isr = tryPartitionInfo(partition).map(p -> ids(p.isr())).orElse(null);
            if (isr == null) {
                return false;
            }
            found.set(0, isr);
            return accept.test(isr);
        }, FAILOVER_TIMEOUT, "the in-sync replicas of " + partition + " to pass the condition (last seen: " + found.get(0) + ")");
        return found.get(0);
    }

    /**
     * Waits up to 60 s until every replica of the partition is in sync and it has a leader, for
     * example after a restarted node has caught up.
     */
    public void awaitFullyInSync(TopicPartition partition) {
        waitFor(() -> tryPartitionInfo(partition)
                        .map(p -> p.leader() != null && !p.leader().isEmpty() && ids(p.isr()).equals(ids(p.replicas())))
                        .orElse(false),
                FAILOVER_TIMEOUT, "every replica of " + partition + " to be in sync");
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

    /**
     * Creates a topic with the given topic configs and waits until every partition has a leader.
     *
     * @throws IllegalArgumentException if {@code partitions} is less than 1
     */
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
        // An in-JVM broker's shutdown waits (up to 5 minutes) for a controller to approve it: bring back
        // controllers a test left stopped, then close broker-only nodes before the controllers.
        // Combined nodes close in parallel so that the quorum lasts until each has shut down.
        // (Only while a broker still runs: a lone combined node would block in start-up waiting for its quorum.)
        if (nodes.stream().anyMatch(n -> n.isBroker() && n.isRunning())) {
            nodes.stream().filter(n -> n.isController() && n.inThisJvm() && !n.isRunning()).forEach(ClusterNode::startQuietly);
        }
        closeInParallel(nodes.stream().filter(n -> !n.isController()).toList());
        closeInParallel(nodes.stream().filter(ClusterNode::isController).toList());
        if (baseDir != null) {
            deleteRecursively(baseDir);
        }
        if (owned != null) {
            try {
                owned.close();
            } catch (Exception e) {
                log.warn("Stopping the Kafka container failed: {}", e.toString());
            }
        }
        log.info("Embedded Kafka at {} stopped", bootstrapServers);
    }

    private TopicDescription describe(String topic) {
        return await(admin.describeTopics(List.of(topic)).allTopicNames(), "describe topic " + topic).get(topic);
    }

    private static void closeInParallel(List<ClusterNode> group) {
        CompletableFuture.allOf(group.stream().map(node -> CompletableFuture.runAsync(node::close))
                .toArray(CompletableFuture[]::new)).join();
    }

    private static void checkUserName(String user) {
        if (user == null || user.isBlank() || user.chars().anyMatch(c -> c == '"' || c == ',' || c == '=' || c == '\\')) {
            throw new IllegalArgumentException("user must be a non-blank name without \" , = or \\, got '" + user + "'");
        }
        if (ClusterSecrets.SUPER_USER.equals(user) || ClusterSecrets.BROKER_USER.equals(user)) {
            throw new IllegalArgumentException("'" + user + "' is reserved for the test kit's own principals");
        }
    }

    private ClusterSecrets requireSecrets(String method) {
        if (secrets == null) {
            throw new IllegalStateException(method + " needs a secured cluster: EmbeddedKafka.builder().security(...)");
        }
        return secrets;
    }

    private Properties withBootstrap(Map<String, String> settings) {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.putAll(settings);
        return props;
    }

    private List<ClusterNode> runningBrokers() {
        return nodes.stream().filter(n -> n.isBroker() && n.isRunning()).toList();
    }

    /** Each running broker has to accept the login itself: credentials reach brokers through their metadata. */
    private void awaitLogin(String user) {
        for (ClusterNode broker : runningBrokers()) {
            Properties props = clientProperties(user);
            props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapAddress());
            props.put(AdminClientConfig.CLIENT_ID_CONFIG, "gapless-testkit-login-check");
            waitFor(() -> {
                try (Admin probe = Admin.create(props)) {
                    probe.describeCluster().clusterId().get(5, TimeUnit.SECONDS);
                    return true;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new KafkaException("Interrupted while waiting for the login of " + user, e);
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof SaslAuthenticationException) {
                        return false;
                    }
                    throw new KafkaException("Login check of " + user + " on node " + broker.id() + " failed", e.getCause());
                } catch (TimeoutException e) {
                    return false;
                }
            }, OPERATION_TIMEOUT, "node " + broker.id() + " to accept the login of " + user);
        }
    }

    /** Waits until every running broker has fetched the metadata log up to the current high watermark. */
    private void awaitMetadataOnEveryBroker() {
        if (nodes.isEmpty()) {
            return;
        }
        long target = await(admin.describeMetadataQuorum().quorumInfo(), "describe the metadata quorum").highWatermark();
        Set<Integer> brokers = runningBrokers().stream().map(ClusterNode::id).collect(Collectors.toSet());
        waitFor(() -> attempt(admin.describeMetadataQuorum().quorumInfo()).map(quorum -> {
            Map<Integer, Long> ends = new java.util.HashMap<>();
            java.util.stream.Stream.concat(quorum.voters().stream(), quorum.observers().stream())
                    .forEach(r -> ends.merge(r.replicaId(), r.logEndOffset(), Math::max));
            return brokers.stream().allMatch(id -> ends.getOrDefault(id, -1L) >= target);
        }).orElse(false), OPERATION_TIMEOUT, "every broker to replicate the metadata log to offset " + target);
    }

    private TopicPartitionInfo partitionInfo(TopicPartition partition) {
        List<TopicPartitionInfo> partitions = describe(partition.topic()).partitions();
        if (partition.partition() < 0 || partition.partition() >= partitions.size()) {
            throw new IllegalArgumentException("Topic " + partition.topic() + " has " + partitions.size()
                    + " partitions, no partition " + partition.partition());
        }
        return partitions.get(partition.partition());
    }

    /** The partition's metadata, or empty while no broker answers (during a failover). */
    private Optional<TopicPartitionInfo> tryPartitionInfo(TopicPartition partition) {
        return attempt(admin.describeTopics(List.of(partition.topic())).allTopicNames())
                .map(topics -> topics.get(partition.topic()))
                .filter(d -> partition.partition() < d.partitions().size())
                .map(d -> d.partitions().get(partition.partition()));
    }

    private int leaderOrMinusOne(TopicPartition partition) {
        return tryPartitionInfo(partition).map(p -> p.leader() == null || p.leader().isEmpty() ? -1 : p.leader().id())
                .orElse(-1);
    }

    private static Set<Integer> ids(List<Node> nodes) {
        return nodes.stream().map(Node::id).collect(Collectors.toUnmodifiableSet());
    }

    /** Waits until a (re)started broker is registered and unfenced: clients can use it again. */
    private void awaitRegistered(int nodeId) {
        waitFor(() -> attempt(admin.describeCluster().nodes()).map(ns -> ns.stream().anyMatch(n -> n.id() == nodeId)).orElse(false),
                FAILOVER_TIMEOUT, "node " + nodeId + " to register with the controller");
    }

    private void awaitPartitions(String topic, int expected) {
        waitFor(() -> {
            TopicDescription d = attempt(admin.describeTopics(List.of(topic)).allTopicNames()).map(t -> t.get(topic)).orElse(null);
            if (d == null || d.partitions().size() < expected
                    || !d.partitions().stream().map(TopicPartitionInfo::leader).allMatch(l -> l != null && !l.isEmpty())) {
                return false;
            }
            // Metadata names a leader before the leader has the log: ListOffsets is served by the leader's log,
            // so it succeeding means a producer's first write will not be turned away (which trips the
            // idempotent producer of Kafka 4.4 into retrying until its delivery timeout).
            Map<TopicPartition, OffsetSpec> latest = new LinkedHashMap<>();
            for (int p = 0; p < d.partitions().size(); p++) {
                latest.put(new TopicPartition(topic, p), OffsetSpec.latest());
            }
            return attempt(admin.listOffsets(latest).all()).isPresent();
        }, OPERATION_TIMEOUT, "partitions of " + topic + " to have leaders serving their logs");
    }

    private static void waitFor(BooleanSupplier condition, Duration timeout, String what) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new KafkaException("Timed out after " + timeout + " waiting for " + what);
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new KafkaException("Interrupted while waiting for " + what, e);
            }
        }
    }

    /** One try of a request inside a wait: its result, or empty when it failed or took over 5 s. */
    private static <T> Optional<T> attempt(org.apache.kafka.common.KafkaFuture<T> future) {
        try {
            return Optional.ofNullable(future.get(5, TimeUnit.SECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaException("Interrupted while waiting for the embedded cluster", e);
        } catch (ExecutionException | TimeoutException e) {
            return Optional.empty();
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
        private int controllers;
        private boolean childProcesses = Boolean.getBoolean(CHILD_PROCESSES_PROPERTY);
        private KafkaSecurity security;
        private Duration childStartTimeout = Duration.ofSeconds(90);
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

        /**
         * Number of dedicated controller-only nodes (0 to 3; default 0: every node is a combined
         * broker+controller). With dedicated controllers the quorum survives any number of stopped
         * or killed brokers, which tests of unclean leader election need (two replicas out of the
         * way while the leader still advances); their ids start at 3000.
         */
        public Builder controllers(int count) {
            if (count < 0 || count > 3) {
                throw new IllegalArgumentException("controllers must be between 0 and 3, got " + count);
            }
            this.controllers = count;
            return this;
        }

        /**
         * Runs every node in its own child JVM (with this JVM's classpath) instead of inside this
         * JVM, so that tests can {@link KafkaNode#kill()} (SIGKILL) and {@link KafkaNode#pause()}
         * (SIGSTOP) it. {@link EmbeddedKafka#close()} kills the children; a shutdown hook kills them
         * when this JVM exits, and they stop by themselves when this JVM dies. Needs a Unix
         * {@code kill} command for pause and resume. Defaults to {@code true} when the system
         * property {@value EmbeddedKafka#CHILD_PROCESSES_PROPERTY} is {@code true}.
         */
        public Builder childProcesses(boolean enabled) {
            this.childProcesses = enabled;
            return this;
        }

        /**
         * Secures the client listener ({@link KafkaSecurity#saslPlaintext()}, {@link KafkaSecurity#ssl()},
         * {@link KafkaSecurity#saslSsl()}) and turns on the StandardAuthorizer; {@code null} for
         * PLAINTEXT (the default). {@link EmbeddedKafka#bootstrapServers()} then names the secured
         * listener; replication and the controllers use listeners of their own.
         */
        public Builder security(KafkaSecurity security) {
            this.security = security;
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
            if (!childProcesses) {
                // Only a broker in this JVM can halt it; the guard uses this JVM's (4.4) Exit class.
                FatalExitGuard.install();
            }
            Path baseDir;
            try {
                baseDir = Files.createTempDirectory("gapless-kafka-");
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot create a data directory for the embedded broker", e);
            }
            String clusterId = Uuid.randomUuid().toString();
            KafkaException lastFailure = null;
            long began = System.nanoTime();
            ClusterSecrets secrets = security == null ? null
                    : ClusterSecrets.create(security.protocol(), security.saslMechanism().orElse(null));
            for (int attempt = 1; attempt <= 5; attempt++) {
                List<ClusterNode> planned = new ArrayList<>();
                try {
                    Path dir = baseDir.resolve("attempt-" + attempt);
                    for (NodePlan plan : ClusterLayout.plan(nodes, controllers, dir, brokerProperties, secrets)) {
                        planned.add(new ClusterNode(plan, process(plan, dir, clusterId, secrets)));
                    }
                    CompletableFuture.allOf(planned.stream()
                            .map(node -> CompletableFuture.runAsync(node::startProcess))
                            .toArray(CompletableFuture[]::new)).join();
                    String bootstrap = planned.stream().filter(ClusterNode::isBroker)
                            .map(ClusterNode::bootstrapAddress).collect(Collectors.joining(","));
                    EmbeddedKafka kafka = new EmbeddedKafka(planned, baseDir, bootstrap, security, secrets);
                    kafka.waitUntilReady();
                    log.info("Embedded Kafka with {} broker(s){}{} ready at {} ({}) in {} ms", nodes,
                            controllers > 0 ? " and " + controllers + " controller(s)" : "",
                            childProcesses ? " in child JVMs" : "", bootstrap, security == null ? "PLAINTEXT" : security,
                            (System.nanoTime() - began) / 1_000_000);
                    return kafka;
                } catch (RuntimeException e) {
                    // A port taken between probing and binding is the usual cause: try new ports.
                    Throwable cause = e instanceof java.util.concurrent.CompletionException && e.getCause() != null ? e.getCause() : e;
                    lastFailure = cause instanceof KafkaException ke ? ke : new KafkaException("Embedded Kafka failed to start", cause);
                    log.warn("Embedded Kafka start attempt {} failed: {}", attempt, cause.toString());
                    planned.forEach(ClusterNode::close);
                }
            }
            deleteRecursively(baseDir);
            throw lastFailure;
        }

        /** Formats the node's storage (here, or in the child when it runs a classpath of its own) and plans its process. */
        private NodeProcess process(NodePlan plan, Path dir, String clusterId, ClusterSecrets secrets) {
            List<String> scram = secrets == null ? List.of() : secrets.scramBootstrap();
            String explicitClasspath = System.getProperty(CHILD_CLASSPATH_PROPERTY, "").trim();
            if (!childProcesses || explicitClasspath.isEmpty()) {
                NodeStorage.format(plan.id(), clusterId, plan.logDir().toString(), featureLevels, scram);
            }
            if (!childProcesses) {
                return new BrokerNode(plan.id(), plan.properties());
            }
            Path processes = dir.resolve("processes");
            if (explicitClasspath.isEmpty()) {
                return new ChildNode(plan.id(), plan.properties(), processes, System.getProperty("java.class.path"),
                        childStartTimeout);
            }
            Path request = processes.resolve("node-" + plan.id() + ".format");
            NodeStorage.writeRequest(request, plan.id(), clusterId, plan.logDir().toString(), featureLevels, scram);
            return new ChildNode(plan.id(), plan.properties(), processes, explicitClasspath, childStartTimeout, request);
        }
    }


    private void waitUntilReady() {
        waitFor(() -> attempt(admin.describeCluster().nodes()).map(ns -> ns.size() >= nodeCount()).orElse(false),
                FAILOVER_TIMEOUT, "all " + nodeCount() + " broker(s) to register");
    }
}
