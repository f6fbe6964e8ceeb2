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
package io.gapless.kafka.core.spi;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * Kafka's own {@code ExponentialBackoff} (KIP-580's jittered exponential backoff), whichever
 * package the kafka-clients on the classpath keeps it in: {@code org.apache.kafka.common.utils}
 * up to 4.3, {@code org.apache.kafka.common.utils.internals} from 4.4. The SDK runs on every
 * kafka-clients release from 4.1, so it cannot link against either name.
 *
 * @since 0.1.0
 */
public final class KafkaBackoff {
    private static final String[] CLASS_NAMES = {
        "org.apache.kafka.common.utils.internals.ExponentialBackoff",
        "org.apache.kafka.common.utils.ExponentialBackoff"};
    private static final MethodHandle CONSTRUCTOR;
    private static final MethodHandle BACKOFF;

    static {
        Class<?> type = null;
        for (String name : CLASS_NAMES) {
            try {
                type = Class.forName(name, false, KafkaBackoff.class.getClassLoader());
                break;
            } catch (ClassNotFoundException e) {
                // the other release's package
            }
        }
        if (type == null) {
            throw new ExceptionInInitializerError("kafka-clients has no ExponentialBackoff in " + String.join(" or ", CLASS_NAMES));
        }
        try {
            MethodHandles.Lookup lookup = MethodHandles.publicLookup();
            CONSTRUCTOR = lookup.findConstructor(type, MethodType.methodType(void.class, long.class, int.class, long.class, double.class));
            BACKOFF = lookup.findVirtual(type, "backoff", MethodType.methodType(long.class, long.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Object backoff;

    /**
     * As Kafka's: {@code initialMs * multiplier^attempts}, at most {@code maxMs}, each value jittered by {@code +-jitter}.
     *
     * @throws IllegalArgumentException if the values make no backoff (negative, a multiplier below 1,
     *         a maximum below the initial value, a jitter outside [0, 1])
     * @throws IllegalStateException if Kafka's {@code ExponentialBackoff} cannot be created
     */
    public KafkaBackoff(long initialMs, int multiplier, long maxMs, double jitter) {
        if (initialMs < 0 || multiplier < 1 || maxMs < initialMs || jitter < 0 || jitter > 1) {
            throw new IllegalArgumentException("Backoff of " + initialMs + " ms x" + multiplier + " up to " + maxMs
                    + " ms with jitter " + jitter + " is not a backoff");
        }
        try {
            this.backoff = CONSTRUCTOR.invoke(initialMs, multiplier, maxMs, jitter);
        } catch (Throwable e) {
            throw new IllegalStateException("Cannot create Kafka's ExponentialBackoff", e);
        }
    }

    /**
     * The wait before attempt {@code attempts + 1}, in milliseconds.
     *
     * @throws IllegalStateException if Kafka's {@code ExponentialBackoff} fails
     */
    public long backoff(long attempts) {
        try {
            return (long) BACKOFF.invoke(backoff, attempts);
        } catch (Throwable e) {
            throw new IllegalStateException("Kafka's ExponentialBackoff failed", e);
        }
    }
}
