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

import org.apache.kafka.common.KafkaException;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Properties;

/**
 * One KRaft node running {@link ChildNodeMain} in a child JVM with this JVM's classpath. Every
 * start launches a new JVM on the same settings file, so ports and data directory stay.
 */
public final class ChildNode implements NodeProcess {
    private static final String MARKER = "GAPLESS-NODE";
    private static final Duration STOP_GRACE = Duration.ofSeconds(30);
    /** Small and quick to start: brokers of a test cluster need little heap and no peak JIT. */
    private static final List<String> JVM_OPTIONS = List.of("-Xmx256m", "-Xss512k", "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1", "-XX:-UsePerfData", "-Xshare:auto", "-Djava.awt.headless=true");

    /** System property with extra options for every child JVM, separated by spaces (for example {@code -Xmx512m}). */
    public static final String EXTRA_OPTIONS_PROPERTY = "gapless.testkit.child.jvmOptions";

    private final int nodeId;
    private final Path settingsFile;
    private final Path outputDir;
    private final String classpath;
    private final Duration startTimeout;
    private final Path formatRequest;
    private volatile ChildJvm child;
    private volatile boolean paused;
    private int launches;

    /** Writes the node's settings next to {@code outputDir}; nothing starts yet. The parent formatted its storage. */
    public ChildNode(int nodeId, Map<String, String> properties, Path outputDir, String classpath, Duration startTimeout) {
        this(nodeId, properties, outputDir, classpath, startTimeout, null);
    }

    /**
     * As above, but the child formats its storage itself from {@code formatRequest} (written by
     * {@link NodeStorage#writeRequest}) on its first start; {@code null} when the parent formatted it.
     */
    public ChildNode(int nodeId, Map<String, String> properties, Path outputDir, String classpath, Duration startTimeout,
                     Path formatRequest) {
        this.nodeId = nodeId;
        this.outputDir = outputDir;
        this.classpath = classpath;
        this.startTimeout = startTimeout;
        this.formatRequest = formatRequest;
        this.settingsFile = outputDir.resolve("node-" + nodeId + ".properties");
        writeSettings(settingsFile, properties);
    }

    @Override
    public synchronized void start() {
        if (isRunning()) {
            throw new IllegalStateException("Node " + nodeId + " is already running (pid " + child.pid() + ")");
        }
        launches++;
        List<String> options = new java.util.ArrayList<>(JVM_OPTIONS);
        String extra = System.getProperty(EXTRA_OPTIONS_PROPERTY, "").trim();
        if (!extra.isEmpty()) {
            options.addAll(List.of(extra.split("\\s+")));
        }
        List<String> mainAndArgs = formatRequest == null
                ? List.of(ChildNodeMain.class.getName(), settingsFile.toString())
                : List.of(ChildNodeMain.class.getName(), settingsFile.toString(), formatRequest.toString());
        ChildJvm launched = ChildJvm.launch("node " + nodeId, MARKER, options, classpath, mainAndArgs,
                outputDir.resolve("node-" + nodeId + "-run-" + launches + ".log"));
        paused = false;
        try {
            launched.awaitReady(startTimeout);
        } catch (KafkaException e) {
            launched.kill();
            throw e;
        }
        child = launched;
    }

    @Override
    public synchronized void stop() {
        ChildJvm c = child;
        if (c != null) {
            if (paused) {
                resume();
            }
            c.stop(STOP_GRACE);
            child = null;
        }
    }

    @Override
    public synchronized void kill() {
        ChildJvm c = child;
        if (c != null) {
            c.kill();
            child = null;
            paused = false;
        }
    }

    @Override
    public synchronized void pause() {
        running("pause").signal("STOP");
        paused = true;
    }

    @Override
    public synchronized void resume() {
        running("resume").signal("CONT");
        paused = false;
    }

    @Override
    public boolean isRunning() {
        ChildJvm c = child;
        return c != null && c.isAlive();
    }

    @Override
    public OptionalLong pid() {
        ChildJvm c = child;
        return c != null && c.isAlive() ? OptionalLong.of(c.pid()) : OptionalLong.empty();
    }

    @Override
    public void close() {
        // The cluster's data is deleted next: nothing is lost by not shutting down gracefully.
        kill();
    }

    private ChildJvm running(String what) {
        ChildJvm c = child;
        if (c == null || !c.isAlive()) {
            throw new IllegalStateException("Cannot " + what + " node " + nodeId + ": it is not running");
        }
        return c;
    }

    private static void writeSettings(Path file, Map<String, String> properties) {
        Properties p = new Properties();
        p.putAll(properties);
        OwnerOnlyFiles.store(file, p, "Gapless embedded node");
    }
}
