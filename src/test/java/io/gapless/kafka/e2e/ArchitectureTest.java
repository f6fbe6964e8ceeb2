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
package io.gapless.kafka.e2e;

import io.gapless.kafka.core.GaplessConsumer;
import io.gapless.kafka.share.GaplessShareConsumer;
import io.gapless.kafka.spring.GaplessKafkaConsumerFactory;
import io.gapless.kafka.spring.boot.GaplessProperties;
import io.gapless.kafka.streams.GaplessStreams;
import io.gapless.kafka.testkit.EmbeddedKafka;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BiPredicate;
import java.util.spi.ToolProvider;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The dependency rules of ARCHITECTURE.md, checked on the built classes of the SDK modules with
 * the JDK's {@code jdeps}: modules only depend downwards, sibling modules reach sdk-core only
 * through its public API and its internal API {@code io.gapless.kafka.core.spi}, sdk-share's
 * packages are layered, and no dependency cycle crosses a package. The exceptions below are the
 * ones known today, each with the work that removes it; the test fails when one is added.
 */
class ArchitectureTest {
    private static final String CORE = "io.gapless.kafka.core";
    private static final String STREAMS = "io.gapless.kafka.streams";
    private static final String SHARE = "io.gapless.kafka.share";
    private static final String TESTKIT = "io.gapless.kafka.testkit";
    private static final String SPRING = "io.gapless.kafka.spring";
    private static final String CLI = "io.gapless.kafka.cli";
    /** sdk-spring-boot-starter: its package sits under sdk-spring's, it is told apart first (see {@link #moduleOf}). */
    private static final String BOOT = "io.gapless.kafka.spring.boot";

    /**
     * Module order, lowest first: a module may depend only on modules before it (streams and share are siblings; spring uses core
     * and share; the CLI, a tool, uses the libraries below it and neither it nor spring uses the other; the Boot starter sits above
     * sdk-spring and is used by no module).
     */
    private static final List<List<String>> MODULE_LAYERS = List.of(List.of(TESTKIT), List.of(CORE), List.of(STREAMS, SHARE), List.of(SPRING, CLI),
            List.of(BOOT));

    /** sdk-share's packages and the sdk-share packages each may depend on (ARCHITECTURE.md, "sdk-share"). */
    private static final Map<String, Set<String>> SHARE_LAYERS = Map.of(
            SHARE + ".admin", Set.of(),
            SHARE + ".ledger", Set.of(),
            SHARE + ".reset", Set.of(SHARE + ".admin"),
            SHARE + ".txn", Set.of(SHARE + ".ledger"),
            SHARE, Set.of(SHARE + ".admin", SHARE + ".ledger", SHARE + ".reset", SHARE + ".txn"));

    /** What sibling modules may use of sdk-core. */
    private static final Set<String> CORE_API = Set.of(CORE, CORE + ".spi");

    /**
     * What the Boot starter may use of the other SDK modules: the packages applications use (no
     * {@code core.spi}, no internals, none of sdk-share's own machinery), as any application would.
     */
    private static final Set<String> BOOT_USES = Set.of(CORE, SHARE, SHARE + ".txn", SHARE + ".admin", SPRING);

    /**
     * Package cycles known today. sdk-core: GaplessConsumer and its config sit in the package of the
     * value types the internals use (ResetPolicy, BrokerCapabilities, ...); sdk-testkit:
     * FatalExitGuard throws the public EmbeddedKafkaFatalException.
     */
    private static final List<Set<String>> KNOWN_PACKAGE_CYCLES = List.of(
            Set.of(CORE, CORE + ".internal", CORE + ".internal.baseline", CORE + ".spi"),
            Set.of(TESTKIT, TESTKIT + ".internal"));

    /** Class cycles across packages known today: none. */
    private static final List<Set<String>> KNOWN_CLASS_CYCLES = List.of();

    /** Top-level class -> top-level classes it depends on (nested classes folded into their top-level class). */
    private static Map<String, Set<String>> classes;

    @BeforeAll
    static void readTheBuiltClasses() throws Exception {
        List<String> args = new ArrayList<>(List.of("-verbose:class", "-filter:none", "-e", "io\\.gapless\\..*"));
        for (Class<?> marker : List.of(EmbeddedKafka.class, GaplessConsumer.class, GaplessStreams.class, GaplessShareConsumer.class,
                GaplessKafkaConsumerFactory.class, GaplessProperties.class)) {
            args.add(location(marker));
        }
        // The CLI's jar is shaded (the SDK inside it): its own classes are read from its build directory.
        Path cliClasses = Path.of(System.getProperty("gapless.cli.classes", "../../cli/target/classes"));
        assertTrue(Files.isDirectory(cliClasses.resolve("io/gapless/kafka/cli")), "the CLI's classes are built first: " + cliClasses.toAbsolutePath());
        args.add(cliClasses.toString());
        ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow(() -> new IllegalStateException("this JDK has no jdeps"));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int rc = jdeps.run(new PrintWriter(out), new PrintWriter(err), args.toArray(String[]::new));
        assertEquals(0, rc, "jdeps failed: " + err);
        classes = new TreeMap<>();
        for (String line : out.toString().split("\\R")) {
            String[] parts = line.trim().split("\\s+");
            if (parts.length >= 3 && parts[1].equals("->") && parts[0].startsWith("io.gapless.")) {
                String from = topLevel(parts[0]);
                String to = topLevel(parts[2]);
                Set<String> deps = classes.computeIfAbsent(from, k -> new TreeSet<>());
                if (!from.equals(to)) {
                    deps.add(to);
                }
            }
        }
        assertFalse(classes.isEmpty(), "jdeps reported no class: " + out);
    }

    private static String location(Class<?> marker) throws URISyntaxException {
        return Path.of(marker.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }

    private static String topLevel(String className) {
        int dollar = className.indexOf('$');
        return dollar < 0 ? className : className.substring(0, dollar);
    }

    private static String packageOf(String className) {
        return className.substring(0, className.lastIndexOf('.'));
    }

    /** The module root package of a package, e.g. io.gapless.kafka.share for io.gapless.kafka.share.txn. */
    private static String moduleOf(String pkg) {
        for (String m : List.of(CORE, STREAMS, SHARE, BOOT, SPRING, TESTKIT, CLI)) {
            if (pkg.equals(m) || pkg.startsWith(m + ".")) {
                return m;
            }
        }
        return pkg;
    }

    private static int layer(String module) {
        for (int i = 0; i < MODULE_LAYERS.size(); i++) {
            if (MODULE_LAYERS.get(i).contains(module)) {
                return i;
            }
        }
        throw new IllegalStateException("unknown module " + module);
    }

    private static List<String> edges(BiPredicate<String, String> violates) {
        List<String> bad = new ArrayList<>();
        classes.forEach((from, deps) -> deps.forEach(to -> {
            if (violates.test(from, to)) {
                bad.add(from + " -> " + to);
            }
        }));
        return bad;
    }

    @Test
    void modulesDependOnlyOnLowerModules() {
        assertEquals(List.of(), edges((from, to) -> {
            String a = moduleOf(packageOf(from));
            String b = moduleOf(packageOf(to));
            return !a.equals(b) && layer(b) >= layer(a);
        }));
    }

    @Test
    void siblingModulesUseSdkCoreOnlyThroughItsApiAndCoreSpi() {
        assertEquals(List.of(), edges((from, to) -> {
            String a = moduleOf(packageOf(from));
            return !a.equals(CORE) && moduleOf(packageOf(to)).equals(CORE) && !CORE_API.contains(packageOf(to));
        }));
    }

    @Test
    void theBootStarterUsesTheOtherModulesOnlyThroughTheirApplicationApi() {
        assertTrue(classes.keySet().stream().anyMatch(c -> packageOf(c).equals(BOOT)), "the starter's classes are read");
        assertEquals(List.of(), edges((from, to) -> moduleOf(packageOf(from)).equals(BOOT) && !moduleOf(packageOf(to)).equals(BOOT)
                && !BOOT_USES.contains(packageOf(to))));
    }

    @Test
    void sdkSharePackagesAreLayered() {
        assertEquals(List.of(), edges((from, to) -> {
            String a = packageOf(from);
            String b = packageOf(to);
            return moduleOf(a).equals(SHARE) && moduleOf(b).equals(SHARE) && !a.equals(b)
                    && !SHARE_LAYERS.getOrDefault(a, Set.of()).contains(b);
        }));
        Set<String> unplaced = classes.keySet().stream().map(ArchitectureTest::packageOf)
                .filter(p -> moduleOf(p).equals(SHARE) && !SHARE_LAYERS.containsKey(p)).collect(Collectors.toCollection(TreeSet::new));
        assertEquals(Set.of(), unplaced, "every sdk-share package has its place in the layers");
    }

    @Test
    void noPackageCycles() {
        Map<String, Set<String>> packages = new TreeMap<>();
        classes.forEach((from, deps) -> deps.forEach(to -> {
            if (!packageOf(from).equals(packageOf(to))) {
                packages.computeIfAbsent(packageOf(from), k -> new TreeSet<>()).add(packageOf(to));
            }
        }));
        List<Set<String>> unknown = cycles(packages).stream()
                .filter(c -> KNOWN_PACKAGE_CYCLES.stream().noneMatch(k -> k.containsAll(c))).toList();
        assertEquals(List.of(), unknown);
    }

    @Test
    void noClassCycleCrossesAPackage() {
        List<Set<String>> unknown = cycles(classes).stream()
                .filter(c -> c.stream().map(ArchitectureTest::packageOf).distinct().count() > 1)
                .filter(c -> !KNOWN_CLASS_CYCLES.contains(c)).toList();
        assertEquals(List.of(), unknown);
    }

    /** The strongly connected components with more than one node (Tarjan, iterative). */
    private static List<Set<String>> cycles(Map<String, Set<String>> graph) {
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        Set<String> onStack = new HashSet<>();
        List<Set<String>> result = new ArrayList<>();
        int[] next = {0};
        for (String root : graph.keySet()) {
            if (index.containsKey(root)) {
                continue;
            }
            Deque<Map.Entry<String, Iterator<String>>> work = new ArrayDeque<>();
            index.put(root, next[0]);
            low.put(root, next[0]++);
            stack.push(root);
            onStack.add(root);
            work.push(Map.entry(root, graph.getOrDefault(root, Set.of()).iterator()));
            while (!work.isEmpty()) {
                String v = work.peek().getKey();
                Iterator<String> it = work.peek().getValue();
                if (it.hasNext()) {
                    String w = it.next();
                    if (!index.containsKey(w)) {
                        index.put(w, next[0]);
                        low.put(w, next[0]++);
                        stack.push(w);
                        onStack.add(w);
                        work.push(Map.entry(w, graph.getOrDefault(w, Set.of()).iterator()));
                    } else if (onStack.contains(w)) {
                        low.put(v, Math.min(low.get(v), index.get(w)));
                    }
                    continue;
                }
                work.pop();
                if (!work.isEmpty()) {
                    String parent = work.peek().getKey();
                    low.put(parent, Math.min(low.get(parent), low.get(v)));
                }
                if (low.get(v).equals(index.get(v))) {
                    Set<String> component = new TreeSet<>();
                    String w;
                    do {
                        w = stack.pop();
                        onStack.remove(w);
                        component.add(w);
                    } while (!w.equals(v));
                    if (component.size() > 1) {
                        result.add(component);
                    }
                }
            }
        }
        return result;
    }
}
