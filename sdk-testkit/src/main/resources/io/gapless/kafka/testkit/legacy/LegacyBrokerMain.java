// Launched by io.gapless.kafka.testkit.legacy.LegacyKafka as a single-file source program
// ("java -cp <older kafka jars> LegacyBrokerMain.java <server.properties> <cluster id>") in a
// child JVM whose classpath holds an OLDER Kafka release. It may only use APIs that exist in
// Kafka 4.2 and 4.3: Formatter, KafkaConfig, KafkaRaftServer, MetadataVersion, Feature.
//
// Protocol with the parent: prints "GAPLESS-LEGACY-READY" on stdout once the broker has started,
// "GAPLESS-LEGACY-FAILED <reason>" before exiting with status 2 when it could not start. When its
// stdin reaches end of file (the parent closed it or died) the broker stops and the JVM exits.

import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.Feature;
import org.apache.kafka.server.common.MetadataVersion;

import java.io.FileInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

public class LegacyBrokerMain {
    public static void main(String[] args) throws Exception {
        Properties props = new Properties();
        try (InputStream in = new FileInputStream(args[0])) {
            props.load(in);
        }
        String clusterId = args[1];
        Map<String, String> config = new HashMap<>();
        props.stringPropertyNames().forEach(k -> config.put(k, props.getProperty(k)));
        String logDir = config.get("log.dirs");
        KafkaRaftServer server;
        try {
            new Formatter()
                    .setPrintStream(new PrintStream(OutputStream.nullOutputStream()))
                    .setSupportedFeatures(Feature.PRODUCTION_FEATURES)
                    .setClusterId(clusterId)
                    .setNodeId(Integer.parseInt(config.get("node.id")))
                    .addDirectory(logDir)
                    .setMetadataLogDirectory(logDir)
                    .setReleaseVersion(MetadataVersion.latestProduction())
                    .setControllerListenerName(config.get("controller.listener.names"))
                    .run();
            server = new KafkaRaftServer(new KafkaConfig(config, false), Time.SYSTEM);
            server.startup();
        } catch (Throwable t) {
            System.out.println("GAPLESS-LEGACY-FAILED " + t);
            t.printStackTrace(System.out);
            System.out.flush();
            Runtime.getRuntime().halt(2);
            return;
        }
        KafkaRaftServer started = server;
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            started.shutdown();
            started.awaitShutdown();
        }, "legacy-broker-shutdown"));
        Thread parentWatch = new Thread(() -> {
            try {
                while (System.in.read() >= 0) {
                    // The parent never writes; reading only detects end of file.
                }
            } catch (Exception ignored) {
                // A broken pipe means the parent is gone as well.
            }
            System.exit(0);
        }, "legacy-broker-parent-watch");
        parentWatch.setDaemon(true);
        parentWatch.start();
        System.out.println("GAPLESS-LEGACY-READY " + MetadataVersion.latestProduction());
        System.out.flush();
        server.awaitShutdown();
    }
}
