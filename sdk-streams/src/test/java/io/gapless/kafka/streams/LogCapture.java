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
package io.gapless.kafka.streams;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.Property;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Collects the messages one logger writes at WARN or above while a test runs (proof that Kafka Streams took a path). */
final class LogCapture extends AbstractAppender implements AutoCloseable {
    private final String loggerName;
    private final List<String> messages = new CopyOnWriteArrayList<>();
    private final boolean addedConfig;

    private LogCapture(String loggerName) {
        super("capture-" + loggerName + "-" + System.nanoTime(), null, null, true, Property.EMPTY_ARRAY);
        this.loggerName = loggerName;
        start();
        LoggerContext ctx = (LoggerContext) LogManager.getContext(false);
        Configuration config = ctx.getConfiguration();
        LoggerConfig existing = config.getLoggers().get(loggerName);
        if (existing == null) {
            LoggerConfig lc = new LoggerConfig(loggerName, Level.WARN, true);
            lc.addAppender(this, Level.WARN, null);
            config.addLogger(loggerName, lc);
            addedConfig = true;
        } else {
            existing.addAppender(this, Level.WARN, null);
            addedConfig = false;
        }
        ctx.updateLoggers();
    }

    /** Starts capturing {@code loggerName} (a class name). */
    static LogCapture of(Class<?> logger) {
        return new LogCapture(logger.getName());
    }

    static LogCapture of(String loggerName) {
        return new LogCapture(loggerName);
    }

    @Override
    public void append(LogEvent event) {
        messages.add(event.getMessage().getFormattedMessage());
    }

    /** How many captured messages contain {@code text}. */
    long count(String text) {
        return messages.stream().filter(m -> m.contains(text)).count();
    }

    List<String> messages() {
        return List.copyOf(messages);
    }

    @Override
    public void close() {
        LoggerContext ctx = (LoggerContext) LogManager.getContext(false);
        Configuration config = ctx.getConfiguration();
        if (addedConfig) {
            config.removeLogger(loggerName);
        } else {
            LoggerConfig lc = config.getLoggers().get(loggerName);
            if (lc != null) {
                lc.removeAppender(getName());
            }
        }
        ctx.updateLoggers();
        stop();
    }
}
