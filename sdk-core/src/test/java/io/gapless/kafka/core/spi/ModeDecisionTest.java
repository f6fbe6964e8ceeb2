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

import io.gapless.kafka.core.BrokerCapabilities;
import io.gapless.kafka.core.NewPartitionsMode;
import io.gapless.kafka.core.spi.ModeDecision.Fallback;
import io.gapless.kafka.core.spi.ModeDecision.Kind;
import io.gapless.kafka.core.spi.ModeDecision.Support;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The one decision every client takes once: native, emulate, at-least-once or fail. */
class ModeDecisionTest {

    private static Supplier<Support> counting(AtomicInteger probes, Support answer) {
        return () -> {
            probes.incrementAndGet();
            return answer;
        };
    }

    @Test
    void nativeWhereSupportedOtherwiseTheFallback() {
        AtomicInteger probes = new AtomicInteger();
        for (Fallback f : Fallback.values()) {
            assertEquals(Kind.NATIVE, ModeDecision.decide(f, counting(probes, Support.available("yes")), IllegalStateException::new).kind());
        }
        Supplier<Support> missing = () -> Support.missing("no client API");
        assertEquals(Kind.EMULATE, ModeDecision.decide(Fallback.EMULATE, missing, IllegalStateException::new).kind());
        assertEquals(Kind.AT_LEAST_ONCE, ModeDecision.decide(Fallback.AT_LEAST_ONCE, missing, IllegalStateException::new).kind());
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> ModeDecision.decide(Fallback.FAIL, missing, IllegalStateException::new));
        assertEquals("no client API", e.getMessage());
        assertEquals("at-least-once", Fallback.AT_LEAST_ONCE.toString());
        assertEquals(Fallback.AT_LEAST_ONCE, Fallback.of("at-least-once"));
        assertEquals("at-least-once", Kind.AT_LEAST_ONCE.label());
    }

    @Test
    void theNewPartitionsModeMapsToTheFallbackAndEmulateNeverProbes() {
        AtomicInteger probes = new AtomicInteger();
        Supplier<Support> missing = counting(probes, Support.missing("the broker does not know it"));
        assertEquals(Kind.EMULATE, ModeDecision.decide(NewPartitionsMode.EMULATE, missing, IllegalStateException::new).kind());
        assertEquals(0, probes.get());
        assertEquals(Kind.EMULATE, ModeDecision.decide(NewPartitionsMode.AUTO, missing, IllegalStateException::new).kind());
        assertThrows(IllegalStateException.class, () -> ModeDecision.decide(NewPartitionsMode.NATIVE, missing, IllegalStateException::new));
        assertEquals(2, probes.get());
    }

    @Test
    void consumerGroupsAskTheBrokerOnlyWhenTheClientKnowsTheSetting() {
        BrokerCapabilities client44 = BrokerCapabilities.of(Map.of(), false);
        Supplier<BrokerCapabilities> noProbe = () -> {
            throw new AssertionError("no broker probe");
        };
        assertEquals(Kind.OFF, ModeDecision.decide(false, NewPartitionsMode.NATIVE, "consumer", client44, noProbe).kind());
        assertEquals(Kind.EMULATE, ModeDecision.decide(true, NewPartitionsMode.AUTO, "consumer", client44, noProbe).kind());
        ConfigException e = assertThrows(ConfigException.class, () -> ModeDecision.decide(true, NewPartitionsMode.NATIVE, "consumer", client44, noProbe));
        assertTrue(e.getMessage().contains("does not know auto.offset.reset.new.partitions"), e.getMessage());
        BrokerCapabilities futureClient = BrokerCapabilities.of(Map.of(), true);
        assertEquals(Kind.NATIVE, ModeDecision.decide(true, NewPartitionsMode.AUTO, "consumer", futureClient,
                () -> BrokerCapabilities.of(Map.of("group.version", (short) 2), true)).kind());
        assertEquals(Kind.EMULATE, ModeDecision.decide(true, NewPartitionsMode.AUTO, "consumer", futureClient,
                () -> BrokerCapabilities.of(Map.of("group.version", (short) 1), true)).kind());
    }
}
