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
package io.gapless.kafka.core.internal.baseline;

import io.gapless.kafka.core.spi.BaselineTopic;
import org.apache.kafka.common.errors.InterruptException;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The store's life cycle against a cluster that never answers (a closed port): no broker needed,
 * every call blocks until its timeout, which is what close and interrupts must cope with.
 */
class BaselineStoreLifecycleTest {

    static String deadAddress() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return "127.0.0.1:" + s.getLocalPort();
        }
    }

    static long clientThreads(String clientIdPrefix) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().contains(clientIdPrefix)).count();
    }

    private static BaselineStore store(String clientId, Duration timeout) throws IOException {
        return new BaselineStore(BaselineTopic.of(null, BaselineTopic.PREFIX_DEFAULT, "g"), "g", Map.of("bootstrap.servers", deadAddress(), "client.id", clientId),
                timeout, () -> { }, () -> { });
    }

    @Test
    void aWarmUpAfterCloseOpensNoClient() throws Exception {
        String id = "after-close-" + System.nanoTime();
        BaselineStore store = store(id, Duration.ofMillis(300));
        store.close();
        store.warmUp();
        assertEquals(0, clientThreads(id), "a warm-up that starts after close must not open clients nobody closes");
    }

    @Test
    void anInterruptedReadThrowsInterruptExceptionAndKeepsTheFlag() throws Exception {
        String id = "interrupted-" + System.nanoTime();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        AtomicBoolean flagAfter = new AtomicBoolean();
        try (BaselineStore store = store(id, Duration.ofSeconds(30))) {
            Thread reader = new Thread(() -> {
                try {
                    store.read();
                } catch (Throwable t) {
                    thrown.set(t);
                }
                flagAfter.set(Thread.currentThread().isInterrupted());
            }, "baseline-reader-under-test");
            reader.start();
            await().atMost(Duration.ofSeconds(20)).until(() -> reader.getState() == Thread.State.TIMED_WAITING
                    || reader.getState() == Thread.State.WAITING);
            reader.interrupt();
            reader.join(Duration.ofSeconds(20).toMillis());
            assertInstanceOf(InterruptException.class, thrown.get(), "an interrupt is not an unavailable baseline: " + thrown.get());
            assertTrue(flagAfter.get(), "the interrupt flag survives");
        }
    }
}
