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
package io.gapless.kafka.streams;

import io.gapless.kafka.core.ResetPolicy;
import io.gapless.kafka.streams.internal.AutoOffsetResets;
import io.gapless.kafka.streams.internal.ConsumedPolicy;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.AutoOffsetReset;
import org.apache.kafka.streams.kstream.Consumed;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NewPartitionsResetTest {

    @Test
    void factoriesCarryTheBasePolicyAndNoNewPartitionsPolicy() {
        assertEquals(ResetPolicy.NONE, AutoOffsetResets.toResetPolicy(NewPartitionsReset.none()));
        assertEquals(ResetPolicy.EARLIEST, AutoOffsetResets.toResetPolicy(NewPartitionsReset.earliest()));
        assertEquals(ResetPolicy.LATEST, AutoOffsetResets.toResetPolicy(NewPartitionsReset.latest()));
        assertEquals(ResetPolicy.byDuration(Duration.ofHours(1)), AutoOffsetResets.toResetPolicy(NewPartitionsReset.byDuration(Duration.ofHours(1))));
        assertEquals(Optional.empty(), NewPartitionsReset.latest().newPartitionsResetPolicy());
    }

    @Test
    void withNewPartitionsResetPolicyReturnsACopyAndKeepsTheBase() {
        NewPartitionsReset latest = NewPartitionsReset.latest();
        NewPartitionsReset both = latest.withNewPartitionsResetPolicy(AutoOffsetReset.earliest());
        assertEquals(Optional.empty(), latest.newPartitionsResetPolicy(), "the original is unchanged");
        assertEquals(Optional.of(AutoOffsetReset.earliest()), both.newPartitionsResetPolicy());
        assertEquals(ResetPolicy.LATEST, AutoOffsetResets.toResetPolicy(both));
        assertThrows(NullPointerException.class, () -> latest.withNewPartitionsResetPolicy(null));
    }

    @Test
    void equalityAndHashCodeIncludeTheNewPartitionsPolicy() {
        AutoOffsetReset a = NewPartitionsReset.latest().withNewPartitionsResetPolicy(AutoOffsetReset.earliest());
        AutoOffsetReset b = NewPartitionsReset.latest().withNewPartitionsResetPolicy(AutoOffsetReset.earliest());
        assertEquals(a, b);
        assertEquals(a.hashCode(), b.hashCode());
        assertNotEquals(a, NewPartitionsReset.latest().withNewPartitionsResetPolicy(AutoOffsetReset.latest()));
        assertNotEquals(a, NewPartitionsReset.latest());
        assertNotEquals(a, NewPartitionsReset.earliest().withNewPartitionsResetPolicy(AutoOffsetReset.earliest()));
        assertNotEquals(a, AutoOffsetReset.latest(), "AutoOffsetReset compares classes");
        assertNotEquals(AutoOffsetReset.latest(), a, "symmetric");
        assertEquals(NewPartitionsReset.byDuration(Duration.ofMinutes(5)), NewPartitionsReset.byDuration(Duration.ofMinutes(5)));
        assertNotEquals(NewPartitionsReset.byDuration(Duration.ofMinutes(5)), NewPartitionsReset.byDuration(Duration.ofMinutes(6)));
    }

    @Test
    void toStringShowsBothPolicies() {
        assertEquals("latest (new partitions: earliest)",
                NewPartitionsReset.latest().withNewPartitionsResetPolicy(AutoOffsetReset.earliest()).toString());
        assertEquals("none (new partitions: by_duration:PT1H)",
                NewPartitionsReset.none().withNewPartitionsResetPolicy(AutoOffsetReset.byDuration(Duration.ofHours(1))).toString());
        assertEquals("earliest", NewPartitionsReset.earliest().toString());
    }

    @Test
    void worksAsInTheKipExampleAndSurvivesInConsumed() {
        AutoOffsetReset policy = NewPartitionsReset.latest().withNewPartitionsResetPolicy(AutoOffsetReset.earliest());
        Consumed<String, String> consumed = Consumed.with(Serdes.String(), Serdes.String()).withOffsetResetPolicy(policy);
        assertSame(policy, ConsumedPolicy.of(consumed), "Consumed keeps the user's object, new-partitions policy included");
        assertTrue(AutoOffsetResets.newPartitionsPolicyOf(ConsumedPolicy.of(consumed)).isPresent());
    }
}
