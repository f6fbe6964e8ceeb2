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

import io.gapless.kafka.core.NewPartitionsMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Locale;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * What an emulating member does with its group's {@code share.auto.offset.reset} (issue 28,
 * finding 6): each row is a member's mode, the group's own {@code share.auto.offset.reset.new.partitions}
 * and {@code share.auto.offset.reset} ({@code -} for none) and the action. The native key on the
 * group wins over the member's gate; a steered value someone changed is steered again, loudly.
 */
class SteeringRuleTest {

    @ParameterizedTest(name = "mode={0} newPartitions={1} base={2} -> {3}")
    @CsvSource(textBlock = """
            auto   , -       , -          , STEER
            auto   , -       , earliest   , STEER
            auto   , -       , EARLIEST   , STEER
            auto   , -       , latest     , STEER_CHANGED
            auto   , -       , by_duration:PT1H, STEER_CHANGED
            emulate, -       , latest     , STEER_CHANGED
            auto   , earliest, latest     , STEP_ASIDE
            auto   , earliest, earliest   , STEP_ASIDE
            auto   , latest  , -          , STEP_ASIDE
            emulate, earliest, latest     , FAIL
            emulate, earliest, -          , FAIL
            """)
    void theGroupConfigDecides(String mode, String newPartitions, String base, SteeringRule.Action expected) {
        SteeringRule.Decision d = SteeringRule.decide(NewPartitionsMode.valueOf(mode.toUpperCase(Locale.ROOT)), value(newPartitions),
                value(base));
        assertEquals(expected, d.action(), d.reason());
    }

    private static Optional<String> value(String v) {
        return "-".equals(v) ? Optional.empty() : Optional.of(v);
    }
}
