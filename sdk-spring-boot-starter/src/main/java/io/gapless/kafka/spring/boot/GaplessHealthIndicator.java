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
package io.gapless.kafka.spring.boot;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.kafka.core.KafkaAdmin;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Actuator health for the Gapless clients: per open client its mode ({@code off}, {@code native},
 * {@code emulate}, {@code at-least-once}) and group; per SDK state topic (group baselines, ack
 * ledgers) whether it exists. Down when a state topic an emulating client relies on is missing or
 * the cluster does not answer: the client then cannot deliver what it promises.
 *
 * @since 0.1.0
 */
public class GaplessHealthIndicator extends AbstractHealthIndicator implements AutoCloseable {
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private final GaplessClients clients;
    private final KafkaAdmin kafkaAdmin;
    private volatile Admin admin;

    /**
     * @param clients    the auto-configured factories' open clients
     * @param kafkaAdmin Boot's admin settings: the state topics are looked up with them
     * @throws NullPointerException if an argument is null
     */
    public GaplessHealthIndicator(GaplessClients clients, KafkaAdmin kafkaAdmin) {
        super("Gapless health check failed");
        this.clients = Objects.requireNonNull(clients, "clients");
        this.kafkaAdmin = Objects.requireNonNull(kafkaAdmin, "kafkaAdmin");
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) throws Exception {
        Map<String, Object> perClient = new LinkedHashMap<>();
        Set<String> stateTopics = new TreeSet<>();
        for (GaplessClients.Client client : clients.open()) {
            Map<String, Object> detail = new LinkedHashMap<>();
            detail.put("kind", client.kind());
            detail.put("group", String.valueOf(client.group()));
            detail.put("mode", client.mode());
            if (client.stateTopic() != null) {
                detail.put("stateTopic", client.stateTopic());
                stateTopics.add(client.stateTopic());
            }
            perClient.put(client.id(), detail);
        }
        Map<String, String> topics = describe(stateTopics);
        builder.withDetail("clients", perClient).withDetail("stateTopics", topics);
        if (topics.containsValue("missing")) {
            builder.down();
        } else {
            builder.up();
        }
    }

    private Map<String, String> describe(Set<String> names) throws InterruptedException, ExecutionException, TimeoutException {
        Map<String, String> out = new LinkedHashMap<>();
        if (names.isEmpty()) {
            return out;
        }
        Map<String, org.apache.kafka.common.KafkaFuture<TopicDescription>> futures = admin().describeTopics(names).topicNameValues();
        for (String name : names) {
            try {
                TopicDescription description = futures.get(name).get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
                out.put(name, "present (" + description.partitions().size() + " partitions)");
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                    throw e;
                }
                out.put(name, "missing");
            }
        }
        return out;
    }

    private Admin admin() {
        Admin current = admin;
        if (current == null) {
            synchronized (this) {
                if (admin == null) {
                    admin = Admin.create(kafkaAdmin.getConfigurationProperties());
                }
                current = admin;
            }
        }
        return current;
    }

    /** Closes the admin client the checks opened. */
    @Override
    public void close() {
        Admin current = admin;
        if (current != null) {
            current.close(TIMEOUT);
        }
    }
}
