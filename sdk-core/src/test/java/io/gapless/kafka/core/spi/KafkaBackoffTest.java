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

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class KafkaBackoffTest {
    @Test
    void growsFromTheInitialWaitToTheMaximumWithinTheJitter() {
        KafkaBackoff backoff = new KafkaBackoff(5, 2, 100, 0.2);
        long first = backoff.backoff(0);
        assertTrue(first >= 4 && first <= 6, "first wait about 5 ms: " + first);
        long fourth = backoff.backoff(3);
        assertTrue(fourth >= 32 && fourth <= 48, "fourth wait about 40 ms: " + fourth);
        for (long attempt = 5; attempt < 50; attempt++) {
            assertTrue(backoff.backoff(attempt) <= 120, "never much above 100 ms");
        }
    }

    @Test
    void withoutJitterItIsKafkasExactFigure() {
        assertEquals(80, new KafkaBackoff(10, 2, 1000, 0).backoff(3));
    }

    @Test
    void aBackoffThatIsNoneIsRefusedNamingIt() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new KafkaBackoff(50, 2, 10, 0.2));
        assertTrue(e.getMessage().contains("50 ms"), e.getMessage());
    }
}
