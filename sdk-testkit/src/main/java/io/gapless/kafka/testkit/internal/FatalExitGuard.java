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
package io.gapless.kafka.testkit.internal;

import io.gapless.kafka.testkit.EmbeddedKafkaFatalException;
import org.apache.kafka.common.utils.internals.Exit;

/** Turns the broker's halt/exit calls into exceptions: a fatal fault must not kill the test JVM. */
public final class FatalExitGuard {
    private static volatile boolean installed;

    private FatalExitGuard() {
    }

    public static synchronized void install() {
        if (installed) {
            return;
        }
        Exit.setHaltProcedure((status, message) -> {
            throw new EmbeddedKafkaFatalException(status, message);
        });
        Exit.setExitProcedure((status, message) -> {
            throw new EmbeddedKafkaFatalException(status, message);
        });
        installed = true;
    }
}
