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
package io.gapless.kafka.share.reset;

import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** When a member may have been out of its group: a gap of at least {@code max.poll.interval.ms} between two poll starts. */
class PollIntervalGapTest {

    @Test
    void aGapOfAtLeastTheIntervalMayHaveTakenTheMemberOut() {
        PollIntervalGap gap = new PollIntervalGap(1_000);
        assertFalse(gap.pollStarting(10_000), "the first poll");
        assertFalse(gap.pollStarting(10_999), "999 ms later");
        assertTrue(gap.pollStarting(11_999), "1000 ms after the previous poll started");
        assertFalse(gap.pollStarting(12_000), "measured from the latest poll");
    }

    @Test
    void theIntervalIsTheConsumersOrKafkasDefault() {
        assertEquals(300_000L, PollIntervalGap.of(Map.of()).maxPollIntervalMs());
        assertEquals(2_500L, PollIntervalGap.of(Map.of("max.poll.interval.ms", "2500")).maxPollIntervalMs());
        assertEquals(2_500L, PollIntervalGap.of(Map.of("max.poll.interval.ms", 2_500)).maxPollIntervalMs());
        ConfigException e = assertThrows(ConfigException.class, () -> PollIntervalGap.of(Map.of("max.poll.interval.ms", "soon")));
        assertTrue(e.getMessage().contains("soon"), e.getMessage());
    }
}
