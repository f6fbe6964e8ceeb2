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
package io.gapless.kafka.testkit;

import org.apache.kafka.common.KafkaException;

/**
 * Thrown where an embedded broker would have halted or exited the JVM on a fatal fault. The test
 * (or demo) that owns the broker sees the failure instead of losing its whole JVM.
 *
 * @since 0.1.0
 */
public class EmbeddedKafkaFatalException extends KafkaException {
    private static final long serialVersionUID = 1L;

    private final int statusCode;

    /** @param statusCode the status the broker asked the JVM to exit with */
    public EmbeddedKafkaFatalException(int statusCode, String message) {
        super("Embedded Kafka requested JVM exit/halt with status " + statusCode
                + (message == null ? "" : ": " + message));
        this.statusCode = statusCode;
    }

    /** The status code the broker asked the JVM to exit or halt with. */
    public int statusCode() {
        return statusCode;
    }
}
