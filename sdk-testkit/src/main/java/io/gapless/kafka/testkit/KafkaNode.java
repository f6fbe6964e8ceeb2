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

import java.util.OptionalLong;

/**
 * One node of an {@link EmbeddedKafka} cluster, for tests that stop, restart, kill or freeze
 * brokers and controllers. Obtained from {@link EmbeddedKafka#nodes()},
 * {@link EmbeddedKafka#controllers()} or {@link EmbeddedKafka#node(int)}.
 *
 * <p>A node keeps its id, ports and data directory across restarts, so clients reconnect by
 * themselves and the cluster keeps its id and data. {@link #kill()}, {@link #pause()} and
 * {@link #resume()} need a cluster built with {@link EmbeddedKafka.Builder#childProcesses(boolean)}
 * (each node in its own JVM); on nodes inside this JVM they throw
 * {@link UnsupportedOperationException}. Methods of one node are not meant to be called from
 * several threads at once.
 *
 * @since 0.1.0
 */
public interface KafkaNode {

    /** The node id ({@code node.id}): brokers 0..n-1, dedicated controllers 3000 and up. */
    int id();

    /** Whether the node has the broker role (holds partitions, serves clients). */
    boolean isBroker();

    /** Whether the node has the controller role (is a KRaft voter). */
    boolean isController();

    /**
     * This node's {@code host:port} for clients.
     *
     * @throws IllegalStateException for a controller-only node
     */
    String bootstrapAddress();

    /** Whether the node runs; a paused node runs. */
    boolean isRunning();

    /** The operating-system process id of its child JVM while it runs; empty for a node inside this JVM. */
    OptionalLong pid();

    /**
     * Stops the node gracefully (controlled shutdown: its partition leaderships move first) and
     * waits until it is down. No-op when it is not running.
     */
    void stop();

    /**
     * Starts a stopped or killed node again with the same ports and data directory and waits until
     * a broker has registered with the controller (a controller: until its server started).
     *
     * @throws IllegalStateException when it is already running
     */
    void start();

    /**
     * Kills the node's JVM with SIGKILL: no shutdown, no flush, leaderships move only after the
     * controller's broker session timeout (6 s on multi-node clusters). No-op when it is not running.
     *
     * @throws UnsupportedOperationException for a node inside this JVM
     */
    void kill();

    /**
     * Freezes the node's JVM with SIGSTOP: its sockets stay open but it answers nothing.
     *
     * @throws UnsupportedOperationException for a node inside this JVM
     * @throws IllegalStateException when it is not running
     */
    void pause();

    /**
     * Lets a paused node run on (SIGCONT).
     *
     * @throws UnsupportedOperationException for a node inside this JVM
     * @throws IllegalStateException when it is not running
     */
    void resume();
}
