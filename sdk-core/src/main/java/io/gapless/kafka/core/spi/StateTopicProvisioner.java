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
package io.gapless.kafka.core.spi;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.CreateTopicsResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.resource.ResourceType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Creates and checks the SDK's state topics (a group's baseline, a share group's ack ledger and
 * its KIP-1289 mode topic): the one place that decides how such a topic is created and refuses
 * one that is not fit. A topic is created on first use with {@code min(3, brokers)} replicas
 * (Kafka's own internal topics use three; an explicit factor where the user set one; the broker's
 * default where the cluster cannot be described) and {@code min.insync.replicas} 2 when
 * replicated (an acknowledged record is on two brokers), else 1. A refused Create, Describe or
 * DescribeConfigs comes back as Kafka's own {@link AuthorizationException} type naming the
 * operation and the topic ({@link Authorization}); an existing or just created topic is handed,
 * with its settings, to the caller's {@link Check}, which refuses what would lose the topic's records.
 *
 * <p>Where the topic exists (every restart) that is one round trip: its description, its settings
 * and the cluster's size are asked together. Where it is missing, the settings come back with the
 * CreateTopics response (KIP-525), so only the wait for its leaders follows.
 *
 * @since 0.1.0
 */
public final class StateTopicProvisioner {
    private static final Logger log = LoggerFactory.getLogger(StateTopicProvisioner.class);
    /** Replicas of a state topic the SDK creates, where the cluster has that many brokers. */
    private static final int MAX_CREATED_REPLICAS = 3;

    private StateTopicProvisioner() {
    }

    /**
     * Refuses a state topic whose settings would lose or reorder its records.
     */
    @FunctionalInterface
    public interface Check {
        /** No check, and the topic's settings are never asked for (no DescribeConfigs needed). */
        Check NONE = new Check() {
            @Override
            public void check(TopicDescription description, Config config, int brokers) {
            }

            @Override
            public boolean needsConfig() {
                return false;
            }
        };

        /**
         * @param description the topic as the cluster describes it
         * @param config      its settings
         * @param brokers     the cluster's brokers, -1 where not known
         * @throws RuntimeException of the caller's kind, naming the topic and the setting, when the topic is not fit
         */
        void check(TopicDescription description, Config config, int brokers);

        /**
         * @return whether {@link #check} needs the topic's settings
         */
        default boolean needsConfig() {
            return true;
        }
    }

    /**
     * One state topic.
     *
     * @param topic             its name
     * @param purpose           what it is, for the log ("group baseline topic", "ack-ledger topic", ...)
     * @param partitions        partitions it is created with
     * @param replicationFactor the user's replication factor; empty: {@code min(3, brokers)}
     * @param configs           its settings when created ({@code min.insync.replicas} is added from the replication factor)
     * @param timeout           the bound of each wait
     * @param check             what an existing or just created topic must satisfy
     */
    public record Spec(String topic, String purpose, int partitions, Optional<Short> replicationFactor, Map<String, String> configs,
                       Duration timeout, Check check) {
        /** Checks that nothing is missing; copies the settings. */
        public Spec {
            Objects.requireNonNull(topic, "topic");
            Objects.requireNonNull(purpose, "purpose");
            Objects.requireNonNull(replicationFactor, "replicationFactor");
            configs = Map.copyOf(configs);
            Objects.requireNonNull(timeout, "timeout");
            Objects.requireNonNull(check, "check");
        }
    }

    /**
     * The topic as {@link #ensure} left it.
     *
     * @param description its description (a leader for every partition where this call created it)
     * @param created     whether this call created it: it did not exist a moment ago
     */
    public record Provisioned(TopicDescription description, boolean created) {
    }

    /**
     * {@link #ensure(Admin, Spec, Runnable)} with nothing to run when the topic is missing.
     *
     * @param admin the helper client
     * @param spec  the topic
     * @return the topic as found or created
     * @throws AuthorizationException of Kafka's type, naming the operation and the topic, where the broker refused one
     * @throws ExecutionException     another failure of an admin call
     * @throws TimeoutException       an admin call did not answer within {@code spec.timeout()}
     * @throws InterruptedException   the thread was interrupted while waiting
     */
    public static Provisioned ensure(Admin admin, Spec spec) throws ExecutionException, TimeoutException, InterruptedException {
        return ensure(admin, spec, () -> { });
    }

    /**
     * Creates the topic when missing and hands it to {@code spec.check()}. {@code whenMissing}
     * runs (on this thread, waiting for nothing) when the topic was found missing, before it is
     * created: work that only a missing topic needs can overlap the creation.
     *
     * @param admin       the helper client
     * @param spec        the topic
     * @param whenMissing run once the topic is known to be missing
     * @return the topic as found or created
     * @throws AuthorizationException of Kafka's type, naming the operation and the topic, where the broker refused one
     * @throws ExecutionException     another failure of an admin call
     * @throws TimeoutException       an admin call did not answer within {@code spec.timeout()}
     * @throws InterruptedException   the thread was interrupted while waiting
     */
    public static Provisioned ensure(Admin admin, Spec spec, Runnable whenMissing)
            throws ExecutionException, TimeoutException, InterruptedException {
        String topic = spec.topic();
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        KafkaFuture<TopicDescription> described = admin.describeTopics(List.of(topic)).topicNameValues().get(topic);
        Optional<KafkaFuture<Config>> configured = spec.check().needsConfig()
                ? Optional.of(admin.describeConfigs(List.of(resource)).values().get(resource)) : Optional.empty();
        KafkaFuture<Collection<Node>> nodes = admin.describeCluster().nodes();
        Optional<TopicDescription> existing = explained(topic, describe(topic), () -> present(described, spec.timeout()));
        if (existing.isPresent()) {
            if (configured.isPresent()) {
                Config config = explained(topic, describeConfigs(topic), () -> topicConfig(admin, configured.get(), resource, spec.timeout()));
                spec.check().check(existing.get(), config, brokers(nodes, spec));
            }
            return new Provisioned(existing.get(), false);
        }
        whenMissing.run();
        int brokers = brokers(nodes, spec);
        Optional<Short> replicas = spec.replicationFactor()
                .or(() -> brokers < 1 ? Optional.empty() : Optional.of((short) Math.min(MAX_CREATED_REPLICAS, brokers)));
        Map<String, String> configs = new HashMap<>(spec.configs());
        replicas.ifPresent(rf -> configs.put(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, rf > 1 ? "2" : "1"));
        CreateTopicsResult creation = admin.createTopics(List.of(new NewTopic(topic, Optional.of(spec.partitions()), replicas).configs(configs)));
        boolean created = false;
        try {
            explained(topic, "Create on topic " + topic + " (or on the cluster), or create the topic beforehand",
                    () -> creation.all().get(spec.timeout().toMillis(), TimeUnit.MILLISECONDS));
            created = true;
            log.info("Created the {} {} ({} partition(s), replication factor {}, {})", spec.purpose(), topic, spec.partitions(),
                    replicas.map(String::valueOf).orElse("of the broker's default"), configs);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw e;
            }
        }
        TopicDescription description = explained(topic, describe(topic), () -> awaitLeaders(admin, spec));
        if (spec.check().needsConfig()) {
            Optional<Config> returned = created ? createdConfig(creation, spec) : Optional.empty();
            Config config = returned.isPresent() ? returned.get() : explained(topic, describeConfigs(topic),
                    () -> topicConfig(admin, admin.describeConfigs(List.of(resource)).values().get(resource), resource, spec.timeout()));
            spec.check().check(description, config, brokers);
        }
        return new Provisioned(description, created);
    }

    /**
     * Whether {@code topic} exists, without creating it: for read-only views, which must never create a topic.
     *
     * @param admin   the helper client
     * @param topic   the state topic
     * @param timeout the bound of the wait
     * @return whether it exists
     * @throws AuthorizationException of Kafka's type, naming Describe on the topic, where the broker refused it
     * @throws ExecutionException     another failure of the admin call
     * @throws TimeoutException       no answer within {@code timeout}
     * @throws InterruptedException   the thread was interrupted while waiting
     */
    public static boolean exists(Admin admin, String topic, Duration timeout) throws ExecutionException, TimeoutException, InterruptedException {
        return topicId(admin, topic, timeout).isPresent();
    }

    /**
     * The topic id of a state topic, which tells a topic deleted and created again under the same
     * name from the one a client bound itself to.
     *
     * @param admin   the SDK's admin client
     * @param topic   the state topic
     * @param timeout the bound of the wait
     * @return its topic id, or empty when it does not exist
     * @throws AuthorizationException of Kafka's type, naming Describe on the topic, where the broker refused it
     * @throws ExecutionException     another failure of the admin call
     * @throws TimeoutException       no answer within {@code timeout}
     * @throws InterruptedException   the thread was interrupted while waiting
     */
    public static Optional<Uuid> topicId(Admin admin, String topic, Duration timeout) throws ExecutionException, TimeoutException, InterruptedException {
        return explained(topic, describe(topic),
                () -> present(admin.describeTopics(List.of(topic)).topicNameValues().get(topic), timeout)).map(TopicDescription::topicId);
    }

    private static String describe(String topic) {
        return "Describe on topic " + topic + " (implied by Read or Write)";
    }

    private static String describeConfigs(String topic) {
        return "DescribeConfigs on topic " + topic;
    }

    @FunctionalInterface
    private interface AdminStep<T> {
        T run() throws ExecutionException, TimeoutException, InterruptedException;
    }

    /** One admin step on the topic; a refusal by the authorizer becomes Kafka's own exception naming {@code needed} and the topic. */
    private static <T> T explained(String topic, String needed, AdminStep<T> step) throws ExecutionException, TimeoutException, InterruptedException {
        try {
            return step.run();
        } catch (ExecutionException e) {
            AuthorizationException refused = Authorization.explain(e, needed, ResourceType.TOPIC, topic);
            if (refused != null) {
                throw refused;
            }
            throw e;
        }
    }

    /** The cluster's brokers; -1 where it cannot be described (the broker's default replication factor then applies). */
    private static int brokers(KafkaFuture<Collection<Node>> nodes, Spec spec) throws TimeoutException, InterruptedException {
        try {
            return nodes.get(spec.timeout().toMillis(), TimeUnit.MILLISECONDS).size();
        } catch (ExecutionException e) {
            log.debug("Cannot describe the cluster to choose the replication factor of {}; the broker's default applies", spec.topic(), e);
            return -1;
        }
    }

    private static Optional<TopicDescription> present(KafkaFuture<TopicDescription> description, Duration timeout)
            throws ExecutionException, TimeoutException, InterruptedException {
        try {
            return Optional.of(description.get(timeout.toMillis(), TimeUnit.MILLISECONDS));
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                return Optional.empty();
            }
            throw e;
        }
    }

    /** The topic's settings; asked once more when the first answer predates the topic (created by another client meanwhile). */
    private static Config topicConfig(Admin admin, KafkaFuture<Config> first, ConfigResource resource, Duration timeout)
            throws ExecutionException, TimeoutException, InterruptedException {
        try {
            return first.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                throw e;
            }
            return admin.describeConfigs(List.of(resource)).values().get(resource).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /** The settings the CreateTopics response carried, when it carried them (it does not without DescribeConfigs). */
    private static Optional<Config> createdConfig(CreateTopicsResult creation, Spec spec) throws TimeoutException, InterruptedException {
        try {
            Config config = creation.config(spec.topic()).get(spec.timeout().toMillis(), TimeUnit.MILLISECONDS);
            return config.get(TopicConfig.CLEANUP_POLICY_CONFIG) == null ? Optional.empty() : Optional.of(config);
        } catch (ExecutionException e) {
            return Optional.empty();
        }
    }

    /**
     * Waits until the topic has a leader for every partition (its metadata reaches every broker a
     * little after the creation), asking again after 5 ms, 10 ms, ... up to 100 ms.
     */
    private static TopicDescription awaitLeaders(Admin admin, Spec spec) throws ExecutionException, TimeoutException, InterruptedException {
        long deadline = System.nanoTime() + spec.timeout().toNanos();
        KafkaBackoff backoff = new KafkaBackoff(5, 2, 100, 0.2);
        for (long attempt = 0; System.nanoTime() < deadline; attempt++) {
            try {
                Optional<TopicDescription> d = present(admin.describeTopics(List.of(spec.topic())).topicNameValues().get(spec.topic()),
                        spec.timeout());
                if (d.isPresent() && d.get().partitions().stream().allMatch(p -> p.leader() != null && !p.leader().isEmpty())) {
                    return d.get();
                }
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof RetriableException)) {
                    throw e;
                }
            }
            Thread.sleep(backoff.backoff(attempt));
        }
        throw new TimeoutException("the " + spec.purpose() + " " + spec.topic() + " has partitions without a leader after creation");
    }
}
