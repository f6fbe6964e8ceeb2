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
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.Feature;
import org.apache.kafka.server.common.MetadataVersion;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * Formats a node's storage with this JVM's Kafka release (the {@code kafka-storage format} step).
 * The parent formats every node, also those that run in child JVMs, so a restart never formats;
 * only a child on a classpath of its own formats itself ({@link #writeRequest}, {@link #formatIfRequested}),
 * because the release that runs a node must be the one that formats it.
 */
public final class NodeStorage {
    private static final String NODE_ID = "node.id";
    private static final String CLUSTER_ID = "cluster.id";
    private static final String DIRECTORY = "directory";
    private static final String FEATURE_PREFIX = "feature.";
    private static final String SCRAM_PREFIX = "scram.";

    private NodeStorage() {
    }

    /**
     * @param scramArguments SCRAM credentials to bootstrap, in {@code kafka-storage --add-scram}
     *                       syntax; their text never reaches a log or an exception message
     */
    public static void format(int nodeId, String clusterId, String dir, Map<String, Short> featureLevels,
                              List<String> scramArguments) {
        try {
            Formatter formatter = new Formatter()
                    .setPrintStream(new PrintStream(OutputStream.nullOutputStream()))
                    .setSupportedFeatures(Feature.PRODUCTION_FEATURES)
                    .setClusterId(clusterId)
                    .setNodeId(nodeId)
                    .addDirectory(dir)
                    .setMetadataLogDirectory(dir)
                    .setReleaseVersion(MetadataVersion.latestProduction())
                    .setControllerListenerName(ClusterLayout.CONTROLLER_LISTENER);
            featureLevels.forEach(formatter::setFeatureLevel);
            if (!scramArguments.isEmpty()) {
                formatter.setScramArguments(scramArguments);
            }
            formatter.run();
        } catch (Exception e) {
            // The cause may quote a SCRAM argument: name the failure by type only.
            throw new KafkaException("Cannot format storage of embedded node " + nodeId + " in " + dir
                    + (scramArguments.isEmpty() ? ": " + e : ": " + e.getClass().getName()),
                    scramArguments.isEmpty() ? e : null);
        }
    }

    /**
     * Writes what {@link #format} needs into {@code file} (readable by its owner only: it may hold
     * SCRAM credentials), for the child JVM to format with its own Kafka release. Loads no broker class.
     */
    public static void writeRequest(Path file, int nodeId, String clusterId, String dir, Map<String, Short> featureLevels,
                                    List<String> scramArguments) {
        Properties p = new Properties();
        p.setProperty(NODE_ID, Integer.toString(nodeId));
        p.setProperty(CLUSTER_ID, clusterId);
        p.setProperty(DIRECTORY, dir);
        featureLevels.forEach((name, level) -> p.setProperty(FEATURE_PREFIX + name, Short.toString(level)));
        for (int i = 0; i < scramArguments.size(); i++) {
            p.setProperty(SCRAM_PREFIX + i, scramArguments.get(i));
        }
        OwnerOnlyFiles.store(file, p, "Gapless embedded node: storage to format");
    }

    /**
     * In a child JVM: formats the storage {@code file} describes unless the directory is formatted
     * already ({@code meta.properties} exists), so that a restarted node keeps its data.
     */
    public static void formatIfRequested(Path file) {
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the storage settings " + file, e);
        }
        String dir = p.getProperty(DIRECTORY);
        if (Files.exists(Path.of(dir, "meta.properties"))) {
            return;
        }
        Map<String, Short> features = new LinkedHashMap<>();
        List<String> scram = new ArrayList<>();
        for (String key : p.stringPropertyNames()) {
            if (key.startsWith(FEATURE_PREFIX)) {
                features.put(key.substring(FEATURE_PREFIX.length()), Short.parseShort(p.getProperty(key)));
            }
        }
        for (int i = 0; p.getProperty(SCRAM_PREFIX + i) != null; i++) {
            scram.add(p.getProperty(SCRAM_PREFIX + i));
        }
        format(Integer.parseInt(p.getProperty(NODE_ID)), p.getProperty(CLUSTER_ID), dir, features, scram);
    }
}
