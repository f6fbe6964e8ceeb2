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
package io.gapless.kafka.e2e.docs;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * docs/configuration.md and docs/metrics.md are what the code defines: regenerated here and
 * compared. After changing a setting or a metric, regenerate them with
 * {@code -Dgapless.docs.write=true} (see {@link ReferenceDocs#REGENERATE}) and commit the result.
 */
class ReferenceDocsTest {
    private static final Path DOCS = Path.of(System.getProperty("gapless.docs.dir", "../../docs"));

    @ParameterizedTest(name = "docs/{0}")
    @ValueSource(strings = {"configuration.md", "metrics.md"})
    void theCommittedReferenceIsWhatTheCodeDefines(String file) throws IOException {
        String generated = file.equals("configuration.md") ? ReferenceDocs.configuration() : ReferenceDocs.metrics();
        Path committed = DOCS.resolve(file);
        if (Boolean.getBoolean("gapless.docs.write")) {
            Files.writeString(committed, generated, StandardCharsets.UTF_8);
        }
        assertTrue(Files.isRegularFile(committed), committed.toAbsolutePath() + " is missing; regenerate it with: " + ReferenceDocs.REGENERATE);
        assertEquals(generated, Files.readString(committed, StandardCharsets.UTF_8),
                "docs/" + file + " differs from what the code defines; regenerate it with: " + ReferenceDocs.REGENERATE);
    }
}
