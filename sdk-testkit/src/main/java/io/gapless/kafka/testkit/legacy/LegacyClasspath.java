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
package io.gapless.kafka.testkit.legacy;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * The classpath of the older Kafka release that {@link LegacyKafka} runs, as resolved by the
 * sdk-testkit build ({@code sdk-testkit/legacy-kafka/pom.xml}, {@code dependency:build-classpath}).
 * The build writes the jar paths relative to the local Maven repository (the resources are packaged
 * into the published jar, so they name no path of the machine that built it); this class resolves
 * them against the repository of the test run, {@value #REPOSITORY_PROPERTY} (the Gapless build's
 * Surefire and Failsafe pass their {@code settings.localRepository}), else {@code ~/.m2/repository},
 * and checks that every jar exists.
 */
final class LegacyClasspath {
    /** System property that overrides the local Maven repository the jars are read from. */
    static final String REPOSITORY_PROPERTY = "gapless.legacy.kafka.repository";
    /** System property that replaces the whole resolved classpath (path-separator separated). */
    static final String CLASSPATH_PROPERTY = "gapless.legacy.kafka.classpath";

    private static final String RESOURCE_DIR = "/io/gapless/kafka/testkit/legacy/";
    private static final String REPO_TOKEN = "@M2_REPO@";

    private final String version;
    private final List<Path> entries;

    private LegacyClasspath(String version, List<Path> entries) {
        this.version = version;
        this.entries = List.copyOf(entries);
    }

    /** Loads the classpath the build resolved, failing with a message that says how to fix it. */
    static LegacyClasspath load() {
        Properties info = new Properties();
        try (InputStream in = LegacyClasspath.class.getResourceAsStream(RESOURCE_DIR + "legacy-kafka.properties")) {
            if (in == null) {
                throw new IllegalStateException("legacy-kafka.properties is missing from the classpath: build sdk-testkit with Maven");
            }
            info.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read legacy-kafka.properties", e);
        }
        String version = info.getProperty("version");
        String override = System.getProperty(CLASSPATH_PROPERTY);
        if (override != null && !override.isBlank()) {
            return new LegacyClasspath(version, check(split(override), version));
        }
        String raw;
        try (InputStream in = LegacyClasspath.class.getResourceAsStream(RESOURCE_DIR + "legacy-kafka.classpath")) {
            if (in == null) {
                throw new IllegalStateException("legacy-kafka.classpath is missing from the classpath: the sdk-testkit build "
                        + "writes it (execution resolve-legacy-kafka); run 'mvn -pl sdk-testkit generate-resources' "
                        + "or set -D" + CLASSPATH_PROPERTY);
            }
            raw = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read legacy-kafka.classpath", e);
        }
        String repository = repository();
        return new LegacyClasspath(version, check(split(raw.replace(REPO_TOKEN, repository)), version));
    }

    /** The Kafka release these jars hold, for example {@code 4.3.1}. */
    String version() {
        return version;
    }

    /** The entries joined with the platform's path separator. */
    String asArgument() {
        return String.join(File.pathSeparator, entries.stream().map(Path::toString).toList());
    }

    private static String repository() {
        String explicit = System.getProperty(REPOSITORY_PROPERTY);
        if (explicit != null && !explicit.isBlank()) {
            return explicit;
        }
        return Paths.get(System.getProperty("user.home"), ".m2", "repository").toString();
    }

    private static List<Path> split(String classpath) {
        List<Path> paths = new ArrayList<>();
        for (String part : classpath.split(File.pathSeparator)) {
            if (!part.isBlank()) {
                paths.add(Paths.get(part.trim()));
            }
        }
        return paths;
    }

    private static List<Path> check(List<Path> entries, String version) {
        if (entries.isEmpty()) {
            throw new IllegalStateException("The classpath of Kafka " + version + " is empty");
        }
        for (Path entry : entries) {
            if (!Files.exists(entry)) {
                throw new IllegalStateException("Kafka " + version + " classpath entry " + entry + " does not exist: rebuild "
                        + "sdk-testkit with Maven (it resolves the jars) or set -D" + REPOSITORY_PROPERTY
                        + " to the local Maven repository that holds them");
            }
        }
        return entries;
    }
}
