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

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Node ids, ports, roles and broker settings of an embedded cluster. With no dedicated
 * controllers every node is a combined broker+controller (ids 0..n-1); otherwise brokers are
 * 0..n-1 and controllers {@value #FIRST_CONTROLLER_ID} and up.
 */
public final class ClusterLayout {
    public static final String CONTROLLER_LISTENER = "CONTROLLER";
    public static final int FIRST_CONTROLLER_ID = 3000;

    /** One planned node: its id, roles, client port (-1 for a controller-only node) and settings. */
    public record NodePlan(int id, boolean broker, boolean controller, int clientPort, Path logDir,
                           Map<String, String> properties) {
        public String bootstrapAddress() {
            return "localhost:" + clientPort;
        }
    }

    private ClusterLayout() {
    }

    /**
     * Plans {@code brokers} broker nodes (combined with controllers when {@code controllers} is 0)
     * and {@code controllers} controller-only nodes under {@code dir}; {@code overrides} win over
     * the defaults on every node. With {@code secrets} the brokers get a secured client listener
     * and an internal one for replication; otherwise a single PLAINTEXT listener serves both.
     */
    public static List<NodePlan> plan(int brokers, int controllers, Path dir, Map<String, String> overrides,
                                      ClusterSecrets secrets) {
        boolean combined = controllers == 0;
        int total = brokers + controllers;
        int controllerPorts = combined ? brokers : controllers;
        int[] ports = FreePorts.take(brokers + controllerPorts + (secrets != null ? brokers : 0));
        List<int[]> nodePorts = new ArrayList<>(); // {id, clientPort, controllerPort, internalPort}
        for (int i = 0; i < brokers; i++) {
            nodePorts.add(new int[] {i, ports[i], combined ? ports[brokers + i] : -1,
                secrets != null ? ports[brokers + controllerPorts + i] : -1});
        }
        for (int i = 0; i < controllers; i++) {
            nodePorts.add(new int[] {FIRST_CONTROLLER_ID + i, -1, ports[brokers + i], -1});
        }
        String voters = nodePorts.stream().filter(p -> p[2] > 0)
                .map(p -> p[0] + "@localhost:" + p[2]).collect(Collectors.joining(","));
        List<NodePlan> plans = new ArrayList<>(total);
        for (int[] p : nodePorts) {
            boolean broker = p[1] > 0;
            boolean controller = p[2] > 0;
            Path logDir = dir.resolve("node-" + p[0]);
            Map<String, String> props = testSettings(brokers);
            props.put("process.roles", broker && controller ? "broker,controller" : broker ? "broker" : "controller");
            props.put("node.id", String.valueOf(p[0]));
            props.put("controller.quorum.voters", voters);
            props.put("controller.listener.names", CONTROLLER_LISTENER);
            props.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT," + CONTROLLER_LISTENER + ":PLAINTEXT");
            List<String> listeners = new ArrayList<>();
            if (broker && secrets == null) {
                listeners.add("PLAINTEXT://localhost:" + p[1]);
                props.put("advertised.listeners", "PLAINTEXT://localhost:" + p[1]);
                props.put("inter.broker.listener.name", "PLAINTEXT");
            } else if (broker) {
                String advertised = ClusterSecrets.CLIENT_LISTENER + "://localhost:" + p[1] + ","
                        + ClusterSecrets.INTERNAL_LISTENER + "://localhost:" + p[3];
                listeners.add(advertised);
                props.put("advertised.listeners", advertised);
                props.put("inter.broker.listener.name", ClusterSecrets.INTERNAL_LISTENER);
            }
            if (secrets != null) {
                props.putAll(secrets.nodeProperties(broker));
            }
            if (controller) {
                listeners.add(CONTROLLER_LISTENER + "://localhost:" + p[2]);
            }
            props.put("listeners", String.join(",", listeners));
            props.put("log.dirs", logDir.toString());
            if (!controller) {
                // Topic defaults are the controller's (Kafka 4.4 warns about them on broker-only nodes).
                props.remove("num.partitions");
                props.remove("default.replication.factor");
            }
            if (brokers > 1) {
                // Faster failover after a kill than Kafka's 2 s / 9 s, still tolerant of a busy machine.
                props.put("broker.heartbeat.interval.ms", "1000");
                props.put("broker.session.timeout.ms", "6000");
            }
            props.putAll(overrides);
            plans.add(new NodePlan(p[0], broker, controller, p[1], logDir, props));
        }
        return plans;
    }

    /** Settings for a fast single-node combined test broker (also used for the legacy broker). */
    public static Map<String, String> defaultProperties(int nodeId, int brokerPort, int controllerPort,
                                                        String voters, Path logDir, int clusterSize) {
        Map<String, String> p = testSettings(clusterSize);
        p.put("process.roles", "broker,controller");
        p.put("node.id", String.valueOf(nodeId));
        p.put("controller.quorum.voters", voters);
        p.put("listeners", "PLAINTEXT://localhost:" + brokerPort + "," + CONTROLLER_LISTENER + "://localhost:" + controllerPort);
        p.put("advertised.listeners", "PLAINTEXT://localhost:" + brokerPort);
        p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT," + CONTROLLER_LISTENER + ":PLAINTEXT");
        p.put("controller.listener.names", CONTROLLER_LISTENER);
        p.put("inter.broker.listener.name", "PLAINTEXT");
        p.put("log.dirs", logDir.toString());
        return p;
    }

    /** The fast-test broker settings for a cluster of {@code brokers} brokers (no listeners, ids or paths). */
    public static Map<String, String> testSettings(int brokers) {
        String replication = String.valueOf(Math.min(brokers, 3));
        String minIsr = String.valueOf(Math.max(1, Math.min(brokers, 3) - 1));
        Map<String, String> p = new LinkedHashMap<>();
        p.put("num.partitions", "1");
        p.put("default.replication.factor", replication);
        p.put("offsets.topic.replication.factor", replication);
        p.put("offsets.topic.num.partitions", "1");
        p.put("transaction.state.log.replication.factor", replication);
        p.put("transaction.state.log.min.isr", minIsr);
        p.put("transaction.state.log.num.partitions", "1");
        p.put("share.coordinator.state.topic.replication.factor", replication);
        p.put("share.coordinator.state.topic.min.isr", minIsr);
        p.put("share.coordinator.state.topic.num.partitions", "1");
        p.put("min.insync.replicas", minIsr);
        p.put("group.initial.rebalance.delay.ms", "0");
        p.put("group.consumer.heartbeat.interval.ms", "500");
        p.put("group.consumer.min.heartbeat.interval.ms", "500");
        p.put("group.share.heartbeat.interval.ms", "500");
        p.put("group.share.min.heartbeat.interval.ms", "500");
        p.put("group.share.min.record.lock.duration.ms", "1000");
        p.put("group.streams.heartbeat.interval.ms", "500");
        p.put("group.streams.min.heartbeat.interval.ms", "500");
        p.put("group.streams.initial.rebalance.delay.ms", "0");
        p.put("log.cleaner.dedupe.buffer.size", String.valueOf(2 * 1024 * 1024));
        p.put("log.cleaner.backoff.ms", "1000");
        return p;
    }
}
