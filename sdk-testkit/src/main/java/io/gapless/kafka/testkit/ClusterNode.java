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

import io.gapless.kafka.testkit.internal.ClusterLayout.NodePlan;
import io.gapless.kafka.testkit.internal.NodeProcess;
import org.apache.kafka.common.KafkaException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.OptionalLong;
import java.util.function.IntConsumer;

/** {@link KafkaNode} over one {@link NodeProcess}; waits for broker registration after a start. */
final class ClusterNode implements KafkaNode {
    private static final Logger log = LoggerFactory.getLogger(ClusterNode.class);
    private static final int START_ATTEMPTS = 3;

    private final NodePlan plan;
    private final NodeProcess process;
    private volatile IntConsumer awaitRegistered = id -> { };

    ClusterNode(NodePlan plan, NodeProcess process) {
        this.plan = plan;
        this.process = process;
    }

    /** Set once the cluster's admin client exists: how a restarted broker is awaited. */
    void awaitRegistrationWith(IntConsumer awaitRegistered) {
        this.awaitRegistered = awaitRegistered;
    }

    @Override
    public int id() {
        return plan.id();
    }

    @Override
    public boolean isBroker() {
        return plan.broker();
    }

    @Override
    public boolean isController() {
        return plan.controller();
    }

    @Override
    public String bootstrapAddress() {
        if (!plan.broker()) {
            throw new IllegalStateException("Node " + plan.id() + " is a controller-only node: it serves no clients");
        }
        return plan.bootstrapAddress();
    }

    @Override
    public boolean isRunning() {
        return process.isRunning();
    }

    @Override
    public OptionalLong pid() {
        return process.pid();
    }

    @Override
    public void stop() {
        process.stop();
        log.info("Embedded node {} stopped", plan.id());
    }

    @Override
    public void start() {
        if (process.isRunning()) {
            throw new IllegalStateException("Node " + plan.id() + " is already running");
        }
        startProcess();
        if (plan.broker()) {
            awaitRegistered.accept(plan.id());
        }
        log.info("Embedded node {} started", plan.id());
    }

    /** Starts the server without waiting for registration (the cluster's first start waits for all). */
    void startProcess() {
        for (int attempt = 1; ; attempt++) {
            try {
                process.start();
                return;
            } catch (RuntimeException e) {
                // Its ports were free a moment ago; another process may briefly hold one (TIME_WAIT, a probe).
                if (attempt >= START_ATTEMPTS) {
                    throw e;
                }
                log.warn("Node {} start attempt {} failed, retrying: {}", plan.id(), attempt, e.getMessage());
                sleep(1000L * attempt);
            }
        }
    }

    @Override
    public void kill() {
        process.kill();
        log.info("Embedded node {} killed", plan.id());
    }

    @Override
    public void pause() {
        process.pause();
        log.info("Embedded node {} paused", plan.id());
    }

    @Override
    public void resume() {
        process.resume();
        log.info("Embedded node {} resumed", plan.id());
    }

    void close() {
        process.close();
    }

    boolean inThisJvm() {
        // Not "instanceof BrokerNode": a JVM with no broker jars (child nodes only) must not load it.
        return !(process instanceof io.gapless.kafka.testkit.internal.ChildNode);
    }

    void startQuietly() {
        try {
            process.start();
        } catch (RuntimeException e) {
            log.debug("Could not restart node {} before closing the cluster", plan.id(), e);
        }
    }

    @Override
    public String toString() {
        return "KafkaNode[" + plan.id() + (plan.broker() ? plan.controller() ? ", broker+controller" : ", broker" : ", controller")
                + (process.isRunning() ? ", running" : ", stopped") + "]";
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaException("Interrupted while restarting a node", e);
        }
    }
}
