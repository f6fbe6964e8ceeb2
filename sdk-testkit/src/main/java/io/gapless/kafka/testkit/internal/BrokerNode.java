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

import kafka.server.BrokerServer;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.reflect.Field;
import java.time.Duration;
import java.util.Map;
import java.util.OptionalLong;

/** One KRaft node (broker, controller or both) running inside this JVM. */
public final class BrokerNode implements NodeProcess {
    private static final Logger log = LoggerFactory.getLogger(BrokerNode.class);
    /** How long a closing broker waits for the controller to approve its controlled shutdown. */
    private static final Duration CLOSE_APPROVAL_LIMIT = Duration.ofSeconds(15);

    private final int nodeId;
    private final Map<String, String> properties;
    private volatile KafkaRaftServer server;

    public BrokerNode(int nodeId, Map<String, String> properties) {
        this.nodeId = nodeId;
        this.properties = Map.copyOf(properties);
    }

    @Override
    public synchronized void start() {
        if (server != null) {
            throw new IllegalStateException("Embedded node " + nodeId + " is already running");
        }
        KafkaRaftServer s = new KafkaRaftServer(new KafkaConfig(properties, false), Time.SYSTEM);
        server = s;
        try {
            s.startup();
        } catch (RuntimeException e) {
            stopQuietly();
            throw e;
        }
        log.debug("Embedded node {} started", nodeId);
    }

    @Override
    public synchronized void stop() {
        KafkaRaftServer s = server;
        if (s != null) {
            try {
                s.shutdown();
                s.awaitShutdown();
            } finally {
                server = null;
            }
        }
    }

    @Override
    public void kill() {
        throw inJvm("kill");
    }

    @Override
    public void pause() {
        throw inJvm("pause");
    }

    @Override
    public void resume() {
        throw inJvm("resume");
    }

    @Override
    public boolean isRunning() {
        return server != null;
    }

    @Override
    public OptionalLong pid() {
        return OptionalLong.empty();
    }

    @Override
    public void close() {
        // Closing combined nodes in parallel can leave the last broker without a controller quorum to
        // approve its controlled shutdown, and Kafka then waits 5 minutes. A closed cluster's data is
        // deleted, so an unapproved shutdown is harmless: bound the wait. stop() keeps Kafka's own wait,
        // since tests stop brokers to see a graceful hand-over.
        KafkaRaftServer s = server;
        if (s != null) {
            shutDownBrokerPart(s, CLOSE_APPROVAL_LIMIT);
        }
        stopQuietly();
    }

    /** KafkaRaftServer offers no bounded shutdown; its broker part does ({@code BrokerServer.shutdown(Duration)}). */
    private void shutDownBrokerPart(KafkaRaftServer s, Duration limit) {
        try {
            Field field = KafkaRaftServer.class.getDeclaredField("broker");
            field.setAccessible(true);
            Object option = field.get(s);
            if ((Boolean) option.getClass().getMethod("isDefined").invoke(option)) {
                ((BrokerServer) option.getClass().getMethod("get").invoke(option)).shutdown(limit);
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            log.debug("Bounded shutdown of node {}'s broker failed, falling back to Kafka's own", nodeId, e);
        }
    }

    private void stopQuietly() {
        try {
            stop();
        } catch (RuntimeException e) {
            log.debug("Ignoring failure while stopping node {}", nodeId, e);
        }
    }

    private UnsupportedOperationException inJvm(String what) {
        return new UnsupportedOperationException("Cannot " + what + " node " + nodeId + ": it runs inside this JVM; "
                + "EmbeddedKafka.builder().childProcesses(true) runs each node in a child JVM that can be killed and paused");
    }
}
