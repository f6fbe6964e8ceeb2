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
package io.gapless.kafka.e2e.security;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.Appender;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.Property;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Captures, while open, every log event of the SDK ({@code io.gapless}, all levels) and of Kafka
 * ({@code org.apache.kafka} and {@code kafka}: clients and the in-JVM broker, INFO and above, which
 * includes each client's logged configuration), each with its stack trace, so that a test can
 * search them for secrets. The console still gets what it got before (INFO and above for the SDK,
 * WARN for the rest).
 */
final class LogCapture implements AutoCloseable {
    /** A SCRAM JAAS line's password, whatever the user. */
    private static final Pattern JAAS_PASSWORD = Pattern.compile("password=\"([^\"]+)\"");
    private static final Map<String, Level> CAPTURED = Map.of("io.gapless", Level.ALL, "org.apache.kafka", Level.INFO, "kafka", Level.INFO);

    private final ConcurrentLinkedQueue<String> lines = new ConcurrentLinkedQueue<>();
    private final LoggerContext context = (LoggerContext) LogManager.getContext(false);
    private final Appender appender;
    private final List<Runnable> undo = new ArrayList<>();

    LogCapture() {
        Configuration config = context.getConfiguration();
        appender = new AbstractAppender("security-capture", null, null, true, Property.EMPTY_ARRAY) {
            @Override
            public void append(LogEvent event) {
                StringBuilder line = new StringBuilder(event.getLevel() + " " + event.getLoggerName() + " - "
                        + event.getMessage().getFormattedMessage());
                if (event.getThrown() != null) {
                    StringWriter trace = new StringWriter();
                    event.getThrown().printStackTrace(new PrintWriter(trace));
                    line.append('\n').append(trace);
                }
                lines.add(line.toString());
            }
        };
        appender.start();
        config.addAppender(appender);
        Appender console = config.getAppender("Console");
        CAPTURED.forEach((name, level) -> {
            LoggerConfig existing = config.getLoggerConfig(name);
            if (existing.getName().equals(name)) {
                Level before = existing.getLevel();
                existing.setLevel(level);
                existing.addAppender(appender, null, null);
                undo.add(() -> {
                    existing.removeAppender(appender.getName());
                    existing.setLevel(before);
                });
            } else {
                // Events of this tree go to the capture at `level`, and to the console only at what the parent let through.
                LoggerConfig added = new LoggerConfig(name, level, false);
                added.addAppender(appender, null, null);
                if (console != null) {
                    added.addAppender(console, existing.getLevel(), null);
                }
                config.addLogger(name, added);
                undo.add(() -> config.removeLogger(name));
            }
        });
        context.updateLoggers();
    }

    /** Every line captured so far. */
    List<String> lines() {
        return List.copyOf(lines);
    }

    /** Whether some captured line holds all of {@code parts}. */
    boolean contains(String... parts) {
        return lines.stream().anyMatch(l -> java.util.Arrays.stream(parts).allMatch(l::contains));
    }

    /**
     * Fails naming the first line (with its logger) that holds one of {@code secrets} or any SCRAM
     * password in JAAS form. The secret itself is never printed.
     */
    void assertNoSecrets(Collection<String> secrets) {
        assertTrue(!lines.isEmpty(), "the capture saw the run");
        for (String line : lines) {
            for (String secret : secrets) {
                if (secret != null && !secret.isEmpty() && line.contains(secret)) {
                    fail("a log line holds a secret: " + redact(line, secrets));
                }
            }
            Matcher m = JAAS_PASSWORD.matcher(line);
            if (m.find()) {
                fail("a log line holds a JAAS password: " + redact(line, secrets));
            }
        }
    }

    static String redact(String text, Collection<String> secrets) {
        String out = JAAS_PASSWORD.matcher(text).replaceAll("password=\"<redacted>\"");
        for (String secret : secrets) {
            if (secret != null && !secret.isEmpty()) {
                out = out.replace(secret, "<redacted>");
            }
        }
        return out.length() > 2000 ? out.substring(0, 2000) + "..." : out;
    }

    @Override
    public void close() {
        undo.forEach(Runnable::run);
        if (context.getConfiguration() instanceof org.apache.logging.log4j.core.config.AbstractConfiguration config) {
            config.removeAppender(appender.getName());
        }
        context.updateLoggers();
        appender.stop();
    }
}
