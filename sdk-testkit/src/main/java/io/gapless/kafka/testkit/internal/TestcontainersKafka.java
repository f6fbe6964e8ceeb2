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
import org.apache.kafka.common.utils.internals.AppInfoParser;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.utility.DockerImageName;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A single-node Kafka in a Docker container ({@code org.testcontainers:testcontainers-kafka},
 * image {@code apache/kafka:<this JVM's kafka-clients version>}) with the test kit's fast-test
 * settings. Only loaded when chosen; {@link #unavailableReason()} tells why it cannot run here.
 */
public final class TestcontainersKafka {
    /** System property naming another image, for example {@code apache/kafka:4.3.1}. */
    public static final String IMAGE_PROPERTY = "gapless.testkit.kafka.image";

    private static final Logger log = LoggerFactory.getLogger(TestcontainersKafka.class);
    private static volatile String unavailable;

    /** A started container: its bootstrap servers and how to stop it. */
    public record Started(String bootstrapServers, AutoCloseable container) {
    }

    private TestcontainersKafka() {
    }

    /**
     * Why no container can start here (Testcontainers missing from the classpath, or no Docker
     * engine answers), or empty when one can. The Docker probe runs once per JVM.
     */
    public static Optional<String> unavailableReason() {
        String reason = unavailable;
        if (reason == null) {
            reason = probe();
            unavailable = reason;
        }
        return reason.isEmpty() ? Optional.empty() : Optional.of(reason);
    }

    private static String probe() {
        try {
            Class.forName("org.testcontainers.kafka.KafkaContainer", false, TestcontainersKafka.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            return "org.testcontainers:testcontainers-kafka is not on the test classpath (mvn -Ptestcontainers adds it)";
        }
        try {
            return DockerClientFactory.instance().isDockerAvailable() ? ""
                    : "no Docker engine answers (Testcontainers found no usable DOCKER_HOST or socket)";
        } catch (RuntimeException | LinkageError e) {
            return "the Docker probe failed: " + e;
        }
    }

    /** Starts the container and returns once Kafka in it serves clients. */
    public static Started start() {
        unavailableReason().ifPresent(reason -> {
            throw new IllegalStateException("Cannot run Kafka in a container: " + reason);
        });
        String image = System.getProperty(IMAGE_PROPERTY, "apache/kafka:" + AppInfoParser.getVersion());
        KafkaContainer container = new KafkaContainer(DockerImageName.parse(image));
        for (Map.Entry<String, String> setting : ClusterLayout.testSettings(1).entrySet()) {
            // The apache/kafka image turns KAFKA_A_B into the broker setting a.b.
            container.withEnv("KAFKA_" + setting.getKey().toUpperCase(Locale.ROOT).replace('.', '_'), setting.getValue());
        }
        try {
            container.start();
        } catch (RuntimeException e) {
            container.close();
            throw new KafkaException("Kafka container " + image + " did not start", e);
        }
        log.info("Kafka container {} ready at {}", image, container.getBootstrapServers());
        return new Started(container.getBootstrapServers(), container::close);
    }
}
