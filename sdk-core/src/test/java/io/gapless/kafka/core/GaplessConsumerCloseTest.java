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

import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** close() against the baseline warm-up, with a cluster that never answers (a closed port; no broker). */
class GaplessConsumerCloseTest {

    @Test
    @SuppressWarnings("deprecation")
    void closeWithATimeoutDoesNotWaitOutTheWarmUp() throws IOException {
        String address;
        try (ServerSocket s = new ServerSocket(0)) {
            address = "127.0.0.1:" + s.getLocalPort();
        }
        String clientId = "close-warmup-" + System.nanoTime();
        Map<String, Object> p = new HashMap<>();
        p.put("bootstrap.servers", address);
        p.put("group.id", "g-close");
        p.put("client.id", clientId);
        p.put("auto.offset.reset", "latest");
        p.put("auto.offset.reset.new.partitions", "earliest");
        p.put("gapless.new.partitions.mode", "emulate");
        p.put("gapless.baseline.timeout.ms", "20000");
        GaplessConsumer<String, String> consumer = new GaplessConsumer<>(p, new StringDeserializer(), new StringDeserializer());
        consumer.subscribe(List.of("t"));
        // The warm-up is now blocked talking to a cluster that never answers.
        await().atMost(Duration.ofSeconds(20)).until(() -> Thread.getAllStackTraces().keySet().stream()
                .anyMatch(t -> t.getName().contains(clientId + "-baseline")));
        long start = System.nanoTime();
        consumer.close(Duration.ofSeconds(1));
        long ms = (System.nanoTime() - start) / 1_000_000;
        assertTrue(ms < 5000, "close(1 s) must not wait out the baseline warm-up; it took " + ms + " ms");
        await().atMost(Duration.ofSeconds(10)).until(() -> Thread.getAllStackTraces().keySet().stream()
                .noneMatch(t -> t.isAlive() && t.getName().contains(clientId + "-baseline")));
    }
}
