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
package io.gapless.kafka.core.spi;

import io.gapless.kafka.core.UnsupportedClientVersionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.util.Optional;
import java.util.Properties;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The oldest kafka-clients (and kafka-streams) release each SDK entry point works with, and the one
 * check every entry point runs first: an older release on the classpath is refused with an
 * {@link UnsupportedClientVersionException} naming both releases, before any client exists,
 * instead of a {@code NoSuchMethodError} at some later call. The SDK is compiled against Kafka 4.4;
 * the minimums below are what the compatibility matrix (the {@code compat} module, docs/compatibility.md) found
 * by running the suites on each older release.
 *
 * @since 0.1.0
 */
public final class ClientCompatibility {
    private static final Logger log = LoggerFactory.getLogger(ClientCompatibility.class);
    /** AppInfoParser moved into an internals package in 4.4; older releases have it here. */
    private static final String[] APP_INFO_PARSERS = {
        "org.apache.kafka.common.utils.internals.AppInfoParser", "org.apache.kafka.common.utils.AppInfoParser"};
    /** kafka-streams reports its release only through an internal class; its jar carries this file. */
    private static final String STREAMS_VERSION_RESOURCE = "kafka/kafka-streams-version.properties";
    private static final String UNKNOWN = "unknown";

    private ClientCompatibility() {
    }

    /** An SDK entry point and the release it needs, with what older releases lack. */
    public enum EntryPoint {
        GAPLESS_CONSUMER("GaplessConsumer", 4, 1, false,
                "kafka-clients 4.1 added Consumer.close(CloseOptions) (KIP-1092), which GaplessConsumer forwards and its baseline clients call"),
        GAPLESS_STREAMS("GaplessStreams", 4, 1, true,
                "kafka-streams 4.1 added the main-consumer wrapper (ConsumerWrapper) that group.protocol=streams needs, and the SDK's"
                        + " consumers call Consumer.close(CloseOptions) (kafka-clients 4.1)"),
        GAPLESS_SHARE_CONSUMER("GaplessShareConsumer", 4, 2, false,
                "kafka-clients 4.2 is the first release with the share-consumer API the SDK decorates and reads:"
                        + " ShareConsumer.acknowledge(topic, partition, offset, type), acquisitionLockTimeoutMs() and"
                        + " Admin.listShareGroupOffsets(...).partitionsToOffsetInfo (SharePartitionOffsetInfo)"),
        TRANSACTIONAL_SHARE_PRODUCER("TransactionalShareProducer", 4, 2, false,
                "its acknowledgement ledger reads share-group start offsets through"
                        + " Admin.listShareGroupOffsets(...).partitionsToOffsetInfo (SharePartitionOffsetInfo), new in kafka-clients 4.2"),
        SHARE_GROUP_SETTINGS("ShareGroupSettings", 4, 1, false,
                "the SDK is tested from kafka-clients 4.1 on (the compatibility matrix); 4.0 is not supported");

        private final String className;
        private final int major;
        private final int minor;
        private final boolean needsStreams;
        private final String reason;

        EntryPoint(String className, int major, int minor, boolean needsStreams, String reason) {
            this.className = className;
            this.major = major;
            this.minor = minor;
            this.needsStreams = needsStreams;
            this.reason = reason;
        }

        /** The class users construct, for example {@code GaplessShareConsumer}. */
        public String className() {
            return className;
        }

        /** The oldest release it works with, as {@code major.minor}, for example {@code 4.2}. */
        public String minimum() {
            return major + "." + minor;
        }

        /** What releases before {@link #minimum()} lack. */
        public String reason() {
            return reason;
        }

        /** Whether kafka-streams is checked as well as kafka-clients. */
        public boolean needsStreams() {
            return needsStreams;
        }
    }

    /**
     * Refuses {@code entryPoint} when the kafka-clients (and, for {@link EntryPoint#GAPLESS_STREAMS},
     * kafka-streams) on the classpath is older than it needs. A release that cannot be read
     * (a repackaged jar) is let through with a warning.
     *
     * @throws UnsupportedClientVersionException naming the release found and the one required
     */
    public static void require(EntryPoint entryPoint) {
        check(entryPoint, clientsVersion(), ClientCompatibility::streamsVersion);
    }

    /** The kafka-clients release on the classpath, as {@code AppInfoParser.getVersion()} reports it ({@code unknown} if unreadable). */
    public static String clientsVersion() {
        return Versions.CLIENTS;
    }

    static void check(EntryPoint entryPoint, String clientsVersion, Supplier<String> streamsVersion) {
        checkOne(entryPoint, "kafka-clients", clientsVersion);
        if (entryPoint.needsStreams) {
            checkOne(entryPoint, "kafka-streams", streamsVersion.get());
        }
    }

    private static void checkOne(EntryPoint entryPoint, String artifact, String found) {
        Optional<Release> parsed = Release.parse(found);
        if (parsed.isEmpty()) {
            log.warn("{}: the {} release on the classpath cannot be read ('{}'); it needs {} or newer, which is not checked",
                    entryPoint.className, artifact, found, entryPoint.minimum());
            return;
        }
        Release release = parsed.get();
        if (release.major() < entryPoint.major || (release.major() == entryPoint.major && release.minor() < entryPoint.minor)) {
            throw new UnsupportedClientVersionException(entryPoint.className, artifact, found, entryPoint.minimum(),
                    entryPoint.className + " needs " + artifact + " " + entryPoint.minimum() + " or newer, but " + artifact + " "
                            + found + " is on the classpath: " + entryPoint.reason
                            + ". Upgrade " + artifact + " (docs/compatibility.md lists what each release supports)");
        }
    }

    /** The major and minor parts of a Kafka release string: {@code 4.1.2}, {@code 4.3.0-SNAPSHOT}, {@code 5.0.0-rc1}. */
    record Release(int major, int minor) {
        private static final Pattern MAJOR_MINOR = Pattern.compile("(\\d+)\\.(\\d+)(?:[.\\-].*)?");

        static Optional<Release> parse(String release) {
            Matcher m = release == null ? null : MAJOR_MINOR.matcher(release.trim());
            if (m == null || !m.matches()) {
                return Optional.empty();
            }
            return Optional.of(new Release(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))));
        }
    }

    private static String streamsVersion() {
        ClassLoader loader = ClientCompatibility.class.getClassLoader();
        try (InputStream in = loader == null ? null : loader.getResourceAsStream(STREAMS_VERSION_RESOURCE)) {
            if (in == null) {
                return UNKNOWN;
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version", UNKNOWN);
        } catch (IOException e) {
            return UNKNOWN;
        }
    }

    /** Read once: the classpath does not change under a running JVM. */
    private static final class Versions {
        static final String CLIENTS = readClientsVersion();

        private static String readClientsVersion() {
            for (String name : APP_INFO_PARSERS) {
                try {
                    Object version = Class.forName(name, true, ClientCompatibility.class.getClassLoader())
                            .getMethod("getVersion").invoke(null);
                    return version == null ? UNKNOWN : version.toString();
                } catch (ClassNotFoundException | NoSuchMethodException | IllegalAccessException | InvocationTargetException e) {
                    // the other package, or a kafka-clients without AppInfoParser: try the next
                }
            }
            return UNKNOWN;
        }
    }
}
