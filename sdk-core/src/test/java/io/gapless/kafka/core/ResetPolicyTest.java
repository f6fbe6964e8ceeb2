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

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ResetPolicyTest {

    @Test
    void parsesTheWholeValueSpaceAndPrintsItBack() {
        assertEquals(ResetPolicy.EARLIEST, ResetPolicy.parse("earliest"));
        assertEquals(ResetPolicy.LATEST, ResetPolicy.parse(" LATEST "));
        assertEquals(ResetPolicy.NONE, ResetPolicy.parse("none"));
        ResetPolicy hour = ResetPolicy.parse("by_duration:PT1H");
        assertEquals(ResetPolicy.Kind.BY_DURATION, hour.kind());
        assertEquals(Duration.ofHours(1), hour.duration());
        assertEquals("by_duration:PT1H", hour.toString());
        assertEquals(hour, ResetPolicy.parse("BY_DURATION:pt1h"));
        assertEquals(ResetPolicy.byDuration(Duration.ofDays(1)), ResetPolicy.parse("by_duration:P1D"));
        assertEquals("earliest", ResetPolicy.EARLIEST.toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "smallest", "by_duration:", "by_duration:1h", "by_duration:-PT1H", "by_duration:PT-5M", "earliest,latest"})
    void rejectsValuesOutsideTheValueSpaceNamingThem(String bad) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ResetPolicy.parse(bad));
        assertTrue(e.getMessage().contains("'" + bad + "'") || e.getMessage().contains(bad.trim()), e.getMessage());
    }

    @Test
    void rejectsNullAndNegativeDurations() {
        assertThrows(IllegalArgumentException.class, () -> ResetPolicy.parse(null));
        assertThrows(IllegalArgumentException.class, () -> ResetPolicy.byDuration(Duration.ofSeconds(-1)));
    }
}
