package io.gapless.kafka.testkit.internal;

import org.apache.kafka.common.KafkaException;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.Feature;
import org.apache.kafka.server.common.MetadataVersion;

import java.io.OutputStream;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;

/**
 * Formats a node's storage with this JVM's Kafka release (the {@code kafka-storage format} step).
 * The parent formats every node, also those that run in child JVMs, so a restart never formats.
 */
public final class NodeStorage {
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
}
