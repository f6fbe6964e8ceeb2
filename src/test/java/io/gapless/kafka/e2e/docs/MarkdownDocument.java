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
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One Markdown file as the checks in {@link MarkdownDocsTest} see it: its prose lines (outside
 * fenced code blocks), its fenced code blocks with the snippet tag in front of each, and the
 * anchors GitHub gives its headings. A deliberately small reading of CommonMark: fences of three
 * or more backticks or tildes, ATX headings, inline links; enough for this project's documents.
 */
final class MarkdownDocument {
    /** The tag that names the source region a code block shows: {@code <!-- snippet: path#region -->}. */
    static final Pattern SNIPPET_TAG = Pattern.compile("^<!--\\s*snippet:\\s*(\\S+?)#(\\S+)\\s*-->$");
    private static final Pattern FENCE = Pattern.compile("^\\s{0,3}(`{3,}|~{3,})\\s*([\\w+-]*).*$");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*?)\\s*#*\\s*$");

    /** A fenced code block: the 1-based line of its opening fence, its info string, its lines, the tag before it. */
    record CodeBlock(int line, String language, List<String> lines, String snippetPath, String snippetRegion) {
        boolean tagged() {
            return snippetPath != null;
        }
    }

    /** A prose line with its 1-based number; inline code is kept (file names are often written in it). */
    record ProseLine(int number, String text) {
    }

    private final Path file;
    private final List<ProseLine> prose = new ArrayList<>();
    private final List<CodeBlock> blocks = new ArrayList<>();
    private final Set<String> anchors = new HashSet<>();

    private MarkdownDocument(Path file, List<String> lines) {
        this.file = file;
        Map<String, Integer> slugCounts = new HashMap<>();
        String previousProse = "";
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            Matcher fence = FENCE.matcher(line);
            if (fence.matches()) {
                String marker = fence.group(1);
                int start = i;
                List<String> body = new ArrayList<>();
                for (i++; i < lines.size() && !isClosingFence(lines.get(i), marker); i++) {
                    body.add(lines.get(i));
                }
                Matcher tag = SNIPPET_TAG.matcher(previousProse.strip());
                blocks.add(tag.matches()
                        ? new CodeBlock(start + 1, fence.group(2), body, tag.group(1), tag.group(2))
                        : new CodeBlock(start + 1, fence.group(2), body, null, null));
                previousProse = "";
                continue;
            }
            prose.add(new ProseLine(i + 1, line));
            Matcher heading = HEADING.matcher(line);
            if (heading.matches()) {
                String slug = slug(heading.group(1));
                int seen = slugCounts.merge(slug, 1, Integer::sum) - 1;
                anchors.add(seen == 0 ? slug : slug + "-" + seen);
            }
            if (!line.isBlank()) {
                previousProse = line;
            }
        }
    }

    static MarkdownDocument read(Path file) {
        try {
            return new MarkdownDocument(file, Files.readAllLines(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + file, e);
        }
    }

    private static boolean isClosingFence(String line, String opening) {
        String stripped = line.strip();
        return stripped.length() >= opening.length() && stripped.chars().allMatch(c -> c == opening.charAt(0));
    }

    /**
     * The anchor GitHub gives a heading: the rendered text in lower case, every character but
     * letters, digits, spaces, hyphens and underscores dropped, spaces as hyphens.
     */
    static String slug(String headingText) {
        String rendered = headingText
                .replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1")   // a link shows its text
                .replace("`", "")
                .replace("*", "");
        StringBuilder slug = new StringBuilder();
        rendered.toLowerCase(Locale.ROOT).codePoints().forEach(c -> {
            if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
                slug.appendCodePoint(c);
            } else if (c == ' ') {
                slug.append('-');
            }
        });
        return slug.toString();
    }

    Path file() {
        return file;
    }

    List<ProseLine> prose() {
        return prose;
    }

    List<CodeBlock> codeBlocks() {
        return blocks;
    }

    boolean hasAnchor(String anchor) {
        return anchors.contains(anchor);
    }
}
