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

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Markdown documents cannot drift from the repository: every relative link reaches a file
 * (and a heading, where it names one), every file a document names exists, and every code block
 * of README.md and docs/ that shows Java is a tagged region of a compiled source file, identical
 * to it. A block is tagged by the line before its fence:
 * {@code <!-- snippet: examples/src/main/java/.../ConsumerSnippets.java#consumer-loop -->}.
 */
class MarkdownDocsTest {
    private static final Path ROOT = Path.of(System.getProperty("gapless.repo.dir", "../..")).toAbsolutePath().normalize();
    private static final Set<String> SKIPPED_DIRECTORIES = Set.of("target", "node_modules");
    /** Languages whose blocks must be regions of compiled sources. */
    private static final Set<String> COMPILED_LANGUAGES = Set.of("java");
    private static final Pattern LINK = Pattern.compile("\\[[^\\]]*]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");
    private static final Pattern URL = Pattern.compile("[a-z][a-z0-9+.-]*://\\S+|mailto:\\S+");
    private static final Pattern MARKDOWN_FILE = Pattern.compile("(?<![\\w./-])((?:[\\w.-]+/)*[\\w-][\\w.-]*\\.md)(?![\\w/])");
    private static final Pattern CODE_PATH = Pattern.compile("`((?:[\\w.-]+/)+[\\w.-]+\\.(?:java|xml|md|properties|json|ya?ml))`");

    private static List<MarkdownDocument> documents;

    @BeforeAll
    static void readDocuments() throws IOException {
        List<Path> files = new ArrayList<>();
        // Build output, Git's and the tools' own directories are not documents: not even walked.
        Files.walkFileTree(ROOT, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                String name = dir.getFileName() == null ? "" : dir.getFileName().toString();
                boolean skipped = !dir.equals(ROOT) && (name.startsWith(".") || SKIPPED_DIRECTORIES.contains(name));
                return skipped ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                if (file.toString().endsWith(".md") && attrs.isRegularFile()) {
                    files.add(file);
                }
                return FileVisitResult.CONTINUE;
            }
        });
        documents = files.stream().sorted().map(MarkdownDocument::read).toList();
        assertTrue(documents.stream().anyMatch(d -> d.file().equals(ROOT.resolve("README.md"))),
                "README.md not found under " + ROOT + " (set -Dgapless.repo.dir)");
    }

    @Test
    void everyRelativeLinkReachesAFileAndHeading() {
        List<String> problems = new ArrayList<>();
        for (MarkdownDocument doc : documents) {
            for (MarkdownDocument.ProseLine line : doc.prose()) {
                Matcher link = LINK.matcher(withoutInlineCode(line.text()));
                while (link.find()) {
                    String target = link.group(1);
                    if (URL.matcher(target).matches()) {
                        continue;
                    }
                    int hash = target.indexOf('#');
                    String path = hash < 0 ? target : target.substring(0, hash);
                    Path resolved = path.isEmpty() ? doc.file() : doc.file().getParent().resolve(path).normalize();
                    if (!Files.exists(resolved)) {
                        problems.add(where(doc, line) + ": the link (" + target + ") points to " + ROOT.relativize(resolved) + ", which does not exist");
                    } else if (hash >= 0 && resolved.toString().endsWith(".md")
                            && !MarkdownDocument.read(resolved).hasAnchor(target.substring(hash + 1))) {
                        problems.add(where(doc, line) + ": the link (" + target + ") names a heading that "
                                + ROOT.relativize(resolved) + " does not have");
                    }
                }
            }
        }
        assertTrue(problems.isEmpty(), "Broken Markdown links:\n" + String.join("\n", problems));
    }

    @Test
    void everyFileADocumentNamesExists() {
        List<String> problems = new ArrayList<>();
        for (MarkdownDocument doc : documents) {
            for (MarkdownDocument.ProseLine line : doc.prose()) {
                String text = URL.matcher(line.text()).replaceAll("");
                for (Pattern reference : List.of(MARKDOWN_FILE, CODE_PATH)) {
                    Matcher m = reference.matcher(text);
                    while (m.find()) {
                        String named = m.group(1);
                        if (!exists(doc, named)) {
                            problems.add(where(doc, line) + ": names " + named + ", which exists neither next to "
                                    + ROOT.relativize(doc.file()) + " nor at the repository's root"
                                    + (named.contains("/") ? "" : " nor anywhere in it"));
                        }
                    }
                }
            }
        }
        assertTrue(problems.isEmpty(), "References to files that do not exist:\n" + String.join("\n", problems));
    }

    @Test
    void everyJavaBlockOfTheGuidesIsARegionOfACompiledSource() throws IOException {
        List<String> problems = new ArrayList<>();
        for (MarkdownDocument doc : documents) {
            Path relative = ROOT.relativize(doc.file());
            if (!relative.equals(Path.of("README.md")) && !relative.startsWith("docs")) {
                continue;
            }
            for (MarkdownDocument.CodeBlock block : doc.codeBlocks()) {
                String at = relative + ":" + block.line();
                if (!block.tagged()) {
                    if (COMPILED_LANGUAGES.contains(block.language())) {
                        problems.add(at + ": a " + block.language() + " block without a snippet tag; put "
                                + "<!-- snippet: <source file>#<region> --> on the line before it and the code in a compiled source");
                    }
                    continue;
                }
                Path source = ROOT.resolve(block.snippetPath()).normalize();
                if (!Files.isRegularFile(source) || !isCompiledSource(ROOT.relativize(source))) {
                    problems.add(at + ": the snippet source " + block.snippetPath()
                            + " is not a file under a module's src/main/java or src/test/java");
                    continue;
                }
                Optional<List<String>> region = SourceRegion.read(source, block.snippetRegion());
                if (region.isEmpty()) {
                    problems.add(at + ": " + block.snippetPath() + " has no region " + block.snippetRegion()
                            + " (// tag::" + block.snippetRegion() + "[] ... // end::" + block.snippetRegion() + "[])");
                    continue;
                }
                List<String> shown = block.lines().stream().map(String::stripTrailing).toList();
                firstDifference(region.get(), shown).ifPresent(d -> problems.add(at + ": the block differs from "
                        + block.snippetPath() + "#" + block.snippetRegion() + " " + d));
            }
        }
        assertTrue(problems.isEmpty(), "Code blocks that are not what the compiled sources hold:\n" + String.join("\n", problems));
    }

    private static Optional<String> firstDifference(List<String> region, List<String> shown) {
        for (int i = 0; i < Math.max(region.size(), shown.size()); i++) {
            String expected = i < region.size() ? region.get(i) : "<end of region>";
            String actual = i < shown.size() ? shown.get(i) : "<end of block>";
            if (!expected.equals(actual)) {
                return Optional.of("at its line " + (i + 1) + ": the source has [" + expected + "], the block [" + actual + "]");
            }
        }
        return Optional.empty();
    }

    private static boolean isCompiledSource(Path relative) {
        String path = relative.toString().replace('\\', '/');
        return path.endsWith(".java") && (path.contains("src/main/java/") || path.contains("src/test/java/")
                || path.startsWith("src/test/java/"));
    }

    /**
     * Next to the document, at the root, or, for a bare file name such as "RATIONALE.md" (each
     * module has one), as the name of any document of the repository.
     */
    private static boolean exists(MarkdownDocument doc, String named) {
        return Files.exists(doc.file().getParent().resolve(named)) || Files.exists(ROOT.resolve(named))
                || (!named.contains("/") && documents.stream().anyMatch(d -> d.file().getFileName().toString().equals(named)));
    }

    private static String withoutInlineCode(String line) {
        return line.replaceAll("`[^`]*`", "``");
    }

    private static String where(MarkdownDocument doc, MarkdownDocument.ProseLine line) {
        return ROOT.relativize(doc.file()) + ":" + line.number();
    }
}
