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

/** How a failure reads on stderr: its message, and its cause's where that adds something. */
final class Failures {
    private Failures() {
    }

    static String describe(Throwable e) {
        String message = message(e);
        Throwable cause = e.getCause();
        if (cause != null && cause != e) {
            String why = message(cause);
            if (!message.contains(why)) {
                message = message + ": " + why;
            }
        }
        return message;
    }

    private static String message(Throwable e) {
        String m = e.getMessage();
        return m == null || m.isBlank() ? e.getClass().getSimpleName() : m;
    }
}
