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
package io.gapless.kafka.benchmarks;

import java.io.File;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * JMH starts each fork with {@code -cp <java.class.path>}. Under {@code mvn exec:java} that
 * property names Maven's own launcher, and the benchmark classes live in the plugin's class
 * loader: this puts that loader's entries into {@code java.class.path} so the forks find them.
 */
final class JmhClasspath {
    private JmhClasspath() {
    }

    static void exposeToForks() {
        Set<String> entries = new LinkedHashSet<>();
        for (ClassLoader l = Thread.currentThread().getContextClassLoader(); l != null; l = l.getParent()) {
            if (l instanceof URLClassLoader u) {
                for (URL url : u.getURLs()) {
                    try {
                        entries.add(Path.of(url.toURI()).toString());
                    } catch (URISyntaxException | IllegalArgumentException e) {
                        // not a file: nothing a fork could use
                    }
                }
            }
        }
        if (entries.isEmpty()) {
            return; // the application class loader: java.class.path is already right
        }
        String current = System.getProperty("java.class.path", "");
        for (String e : current.split(File.pathSeparator)) {
            if (!e.isEmpty()) {
                entries.add(e);
            }
        }
        System.setProperty("java.class.path", String.join(File.pathSeparator, entries));
    }
}
