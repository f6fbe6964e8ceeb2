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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;
import java.util.OptionalLong;

/** One KRaft node (broker, controller or both) running inside this JVM. */
public final class BrokerNode implements NodeProcess {
    private static final Logger log = LoggerFactory.getLogger(BrokerNode.class);

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
        stopQuietly();
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
