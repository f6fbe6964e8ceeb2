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

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A named region of a source file, between {@code // tag::name[]} and {@code // end::name[]} (the
 * markers Asciidoctor's include directive uses), as a documentation block shows it: the marker
 * lines of nested regions dropped, the common indentation removed, trailing blanks trimmed.
 */
final class SourceRegion {
    private static final Pattern ANY_MARKER = Pattern.compile("^\\s*//\\s*(tag|end)::[\\w.-]+\\[]\\s*$");

    private SourceRegion() {
    }

    /** The region's lines, or empty when the file has no such region. */
    static Optional<List<String>> read(Path source, String name) throws IOException {
        List<String> lines = Files.readAllLines(source, StandardCharsets.UTF_8);
        String open = "// tag::" + name + "[]";
        String close = "// end::" + name + "[]";
        int start = -1;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).strip().equals(open)) {
                start = i + 1;
            } else if (start >= 0 && lines.get(i).strip().equals(close)) {
                return Optional.of(dedent(lines.subList(start, i)));
            }
        }
        return Optional.empty();
    }

    private static List<String> dedent(List<String> region) {
        List<String> kept = region.stream().filter(l -> !ANY_MARKER.matcher(l).matches()).toList();
        int indent = kept.stream().filter(l -> !l.isBlank())
                .mapToInt(l -> l.length() - l.stripLeading().length()).min().orElse(0);
        List<String> out = new ArrayList<>();
        for (String line : kept) {
            out.add(line.isBlank() ? "" : line.substring(indent).stripTrailing());
        }
        return out;
    }
}
