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

import org.apache.kafka.clients.consumer.Consumer;

import java.time.Duration;

/** Test helper: what {@code poll()} throws first, or an assertion error if it never throws. */
final class PollFailures {
    private PollFailures() {
    }

    static RuntimeException firstFailure(Consumer<?, ?> consumer, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            try {
                consumer.poll(Duration.ofMillis(200));
            } catch (RuntimeException e) {
                return e;
            }
        }
        throw new AssertionError("poll() did not fail within " + timeout);
    }
}
