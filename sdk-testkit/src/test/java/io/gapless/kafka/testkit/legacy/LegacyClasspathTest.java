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

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The resources {@link LegacyClasspath} reads are packaged into the published gapless-testkit jar:
 * they must not carry the paths of the machine that built it.
 */
class LegacyClasspathTest {
    private static final String DIR = "/io/gapless/kafka/testkit/legacy/";

    private static String resource(String name) throws IOException {
        try (InputStream in = LegacyClasspath.class.getResourceAsStream(DIR + name)) {
            return in == null ? null : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void thePackagedResourcesNameNoPathOfTheBuildMachine() throws IOException {
        List<String> machinePaths = List.of(System.getProperty("user.home"), System.getProperty("user.dir"),
                Paths.get(System.getProperty("user.home"), ".m2").toString(),
                System.getProperty(LegacyClasspath.REPOSITORY_PROPERTY, Paths.get(System.getProperty("user.home"), ".m2", "repository").toString()));
        for (String name : List.of("legacy-kafka.properties", "legacy-kafka.classpath")) {
            String text = resource(name);
            if (text == null) {
                continue; // the classpath is absent when the build skipped its resolution (-Dlegacy.kafka.skip=true)
            }
            for (String path : machinePaths.stream().filter(p -> p.length() > 1).toList()) {
                assertFalse(text.contains(path), name + " names the build machine's path " + path + ":\n" + text);
            }
        }
    }

    @Test
    void resolvesTheJarsInTheRepositoryOfTheBuildThatRunsTheTests() throws IOException {
        assumeTrue(resource("legacy-kafka.classpath") != null, "the build skipped resolving the legacy broker (-Dlegacy.kafka.skip=true)");
        String repository = System.getProperty(LegacyClasspath.REPOSITORY_PROPERTY);
        assumeTrue(repository != null, "run by Maven, which passes its local repository as -D" + LegacyClasspath.REPOSITORY_PROPERTY);
        LegacyClasspath classpath = LegacyClasspath.load();
        for (String entry : classpath.asArgument().split(java.io.File.pathSeparator)) {
            assertTrue(Path.of(entry).startsWith(Path.of(repository)), entry + " is not in " + repository);
        }
    }
}
