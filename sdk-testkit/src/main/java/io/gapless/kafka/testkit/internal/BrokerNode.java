package io.gapless.kafka.testkit.internal;

import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.Feature;
import org.apache.kafka.server.common.MetadataVersion;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** One combined broker+controller KRaft node of an embedded cluster. */
public final class BrokerNode {
    private static final Logger log = LoggerFactory.getLogger(BrokerNode.class);
    private static final String CONTROLLER_LISTENER = "CONTROLLER";

    private final int nodeId;
    private final String clusterId;
    private final Map<String, String> properties;
    private final int brokerPort;
    private volatile KafkaRaftServer server;

    public BrokerNode(int nodeId, String clusterId, Map<String, String> properties, int brokerPort) {
        this.nodeId = nodeId;
        this.clusterId = clusterId;
        this.properties = properties;
        this.brokerPort = brokerPort;
    }

    /** Settings for a fast single-JVM test cluster; the builder's own settings override them. */
    public static Map<String, String> defaultProperties(int nodeId, int brokerPort, int controllerPort,
                                                        String voters, Path logDir, int clusterSize) {
        String replication = String.valueOf(Math.min(clusterSize, 3));
        String minIsr = String.valueOf(Math.max(1, Math.min(clusterSize, 3) - 1));
        Map<String, String> p = new LinkedHashMap<>();
        p.put("process.roles", "broker,controller");
        p.put("node.id", String.valueOf(nodeId));
        p.put("controller.quorum.voters", voters);
        p.put("listeners", "PLAINTEXT://localhost:" + brokerPort + "," + CONTROLLER_LISTENER + "://localhost:" + controllerPort);
        p.put("advertised.listeners", "PLAINTEXT://localhost:" + brokerPort);
        p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT," + CONTROLLER_LISTENER + ":PLAINTEXT");
        p.put("controller.listener.names", CONTROLLER_LISTENER);
        p.put("inter.broker.listener.name", "PLAINTEXT");
        p.put("log.dirs", logDir.toString());
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

    public void format(Map<String, Short> featureLevels) {
        String dir = properties.get("log.dirs");
        try {
            Formatter formatter = new Formatter()
                    .setPrintStream(new PrintStream(OutputStream.nullOutputStream()))
                    .setSupportedFeatures(Feature.PRODUCTION_FEATURES)
                    .setClusterId(clusterId)
                    .setNodeId(nodeId)
                    .addDirectory(dir)
                    .setMetadataLogDirectory(dir)
                    .setReleaseVersion(MetadataVersion.latestProduction())
                    .setControllerListenerName(CONTROLLER_LISTENER);
            featureLevels.forEach(formatter::setFeatureLevel);
            formatter.run();
        } catch (Exception e) {
            throw new KafkaException("Cannot format storage of embedded node " + nodeId + " in " + dir, e);
        }
    }

    public void startup() {
        KafkaRaftServer s = new KafkaRaftServer(new KafkaConfig(properties, false), Time.SYSTEM);
        server = s;
        s.startup();
        log.debug("Embedded node {} started on port {}", nodeId, brokerPort);
    }

    public String bootstrapAddress() {
        return "localhost:" + brokerPort;
    }

    public void shutdown() {
        KafkaRaftServer s = server;
        if (s != null) {
            s.shutdown();
            s.awaitShutdown();
            server = null;
        }
    }

    public void shutdownQuietly() {
        try {
            shutdown();
        } catch (RuntimeException e) {
            log.debug("Ignoring failure while stopping node {} after a failed start", nodeId, e);
        }
    }
}
