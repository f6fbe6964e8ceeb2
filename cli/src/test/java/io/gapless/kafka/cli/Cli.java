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
package io.gapless.kafka.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/** Runs the tool in this JVM as a shell would, and keeps what it printed. */
final class Cli {
    private Cli() {
    }

    /** What one run printed and returned. */
    record Result(int code, String out, String err) {
        @Override
        public String toString() {
            return "exit " + code + "\n--- stdout\n" + out + "--- stderr\n" + err;
        }
    }

    static Result gapless(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = GaplessCli.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
        return new Result(code, out.toString(), err.toString());
    }

    /** {@code args} with {@code --bootstrap-server} (and {@code --command-config} when {@code config} is not null) after them. */
    static String[] on(String bootstrap, Path config, String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.add("--bootstrap-server");
        all.add(bootstrap);
        if (config != null) {
            all.add("--command-config");
            all.add(config.toString());
        }
        return all.toArray(String[]::new);
    }

    /** A properties file as Kafka's tools take it for {@code --command-config}. */
    static Path commandConfig(Map<?, ?> settings) {
        try {
            Path file = Files.createTempFile("gapless-cli", ".properties");
            file.toFile().deleteOnExit();
            Properties p = new Properties();
            settings.forEach((k, v) -> p.setProperty(String.valueOf(k), String.valueOf(v)));
            try (var w = Files.newBufferedWriter(file)) {
                p.store(w, "gapless CLI test");
            }
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** host:port where nothing listens (the port was free a moment ago). */
    static String unreachable() {
        try (ServerSocket s = new ServerSocket(0)) {
            return "127.0.0.1:" + s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
