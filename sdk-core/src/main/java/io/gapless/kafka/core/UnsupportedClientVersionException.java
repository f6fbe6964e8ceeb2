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
package io.gapless.kafka.core;

import org.apache.kafka.common.KafkaException;

/**
 * The kafka-clients (or kafka-streams) release on the classpath is older than the one an SDK entry
 * point needs. Thrown by the constructors ({@code GaplessConsumer}, {@code GaplessStreams.create},
 * {@code GaplessShareConsumer}, {@code TransactionalShareProducer}, {@code ShareGroupSettings.forGroup})
 * before any client is created, instead of a {@code NoSuchMethodError} later. The message names the
 * release found, the one required and what the older release lacks; docs/compatibility.md's matrix
 * lists every entry point.
 *
 * @since 0.1.0
 */
public class UnsupportedClientVersionException extends KafkaException {
    private static final long serialVersionUID = 1L;

    private final String entryPoint;
    private final String artifact;
    private final String found;
    private final String required;

    public UnsupportedClientVersionException(String entryPoint, String artifact, String found, String required, String message) {
        super(message);
        this.entryPoint = entryPoint;
        this.artifact = artifact;
        this.found = found;
        this.required = required;
    }

    /** The SDK class that refused, for example {@code GaplessShareConsumer}. */
    public String entryPoint() {
        return entryPoint;
    }

    /** {@code kafka-clients} or {@code kafka-streams}. */
    public String artifact() {
        return artifact;
    }

    /** The release found on the classpath, for example {@code 4.1.2}. */
    public String found() {
        return found;
    }

    /** The oldest release the entry point works with, for example {@code 4.2}. */
    public String required() {
        return required;
    }
}
