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

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Unique topic and group names, so tests sharing one cluster never see each other's data.
 *
 * @since 0.1.0
 */
public final class TestTopics {
    private static final AtomicInteger COUNTER = new AtomicInteger();
    private static final String RUN = Long.toString(System.currentTimeMillis() % 1_000_000, 36);

    private TestTopics() {
    }

    /** A name that starts with {@code prefix} and is unique in this JVM and across recent runs. */
    public static String unique(String prefix) {
        return prefix + "-" + RUN + "-" + COUNTER.incrementAndGet();
    }
}
