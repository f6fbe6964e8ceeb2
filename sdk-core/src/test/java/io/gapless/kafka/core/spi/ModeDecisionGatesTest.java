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
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The native hand-over gates, as Kafka gates the two KIPs, for every combination of what
 * kafka-clients has, what the broker finalizes and (KIP-1327) the group protocol. Each row is
 * one combination and its outcome: a {@link Kind}, or {@code fail:<text the error names>}, and
 * whether the broker was asked at all. Feature levels run from 0 (not finalized: a broker before
 * the feature, or with it disabled) past the level each KIP needs; group protocols are matched
 * case-insensitively, as Kafka matches them.
 */
class ModeDecisionGatesTest {

    /** A broker that finalizes {@code levels}; a level of 0 is left out, as describeFeatures leaves out a feature not finalized. */
    private static Supplier<BrokerCapabilities> counting(AtomicInteger probes, Map<String, Short> levels) {
        Map<String, Short> finalized = new TreeMap<>(levels);
        finalized.values().removeIf(level -> level == 0);
        return () -> {
            probes.incrementAndGet();
            return BrokerCapabilities.of(finalized, true);
        };
    }

    /** KIP-1327: native only with group.protocol=consumer, a client that knows the setting and group.version >= 2. */
    @ParameterizedTest(name = "protocol={0} clientKnows={1} group.version={2} mode={3} -> {4}")
    @CsvSource(textBlock = """
            classic , false, 1, auto   , EMULATE, false
            classic , false, 1, native , fail:group.protocol=classic, false
            classic , false, 1, emulate, EMULATE, false
            classic , false, 2, auto   , EMULATE, false
            classic , false, 2, native , fail:group.protocol=classic, false
            classic , false, 2, emulate, EMULATE, false
            classic , false, 3, auto   , EMULATE, false
            classic , false, 3, native , fail:group.protocol=classic, false
            classic , false, 3, emulate, EMULATE, false
            classic , true , 1, auto   , EMULATE, false
            classic , true , 1, native , fail:group.protocol=classic, false
            classic , true , 1, emulate, EMULATE, false
            classic , true , 2, auto   , EMULATE, false
            classic , true , 2, native , fail:group.protocol=classic, false
            classic , true , 2, emulate, EMULATE, false
            classic , true , 3, auto   , EMULATE, false
            classic , true , 3, native , fail:group.protocol=classic, false
            classic , true , 3, emulate, EMULATE, false
            consumer, false, 1, auto   , EMULATE, false
            consumer, false, 1, native , fail:does not know auto.offset.reset.new.partitions, false
            consumer, false, 1, emulate, EMULATE, false
            consumer, false, 2, auto   , EMULATE, false
            consumer, false, 2, native , fail:does not know auto.offset.reset.new.partitions, false
            consumer, false, 2, emulate, EMULATE, false
            consumer, false, 3, auto   , EMULATE, false
            consumer, false, 3, native , fail:does not know auto.offset.reset.new.partitions, false
            consumer, false, 3, emulate, EMULATE, false
            consumer, true , 1, auto   , EMULATE, true
            consumer, true , 1, native , fail:group.version=1, true
            consumer, true , 1, emulate, EMULATE, false
            consumer, true , 2, auto   , NATIVE, true
            consumer, true , 2, native , NATIVE, true
            consumer, true , 2, emulate, EMULATE, false
            consumer, true , 3, auto   , NATIVE, true
            consumer, true , 3, native , NATIVE, true
            consumer, true , 3, emulate, EMULATE, false
            streams , false, 1, auto   , EMULATE, false
            streams , false, 1, native , fail:group.protocol=streams, false
            streams , false, 1, emulate, EMULATE, false
            streams , false, 2, auto   , EMULATE, false
            streams , false, 2, native , fail:group.protocol=streams, false
            streams , false, 2, emulate, EMULATE, false
            streams , false, 3, auto   , EMULATE, false
            streams , false, 3, native , fail:group.protocol=streams, false
            streams , false, 3, emulate, EMULATE, false
            streams , true , 1, auto   , EMULATE, false
            streams , true , 1, native , fail:group.protocol=streams, false
            streams , true , 1, emulate, EMULATE, false
            streams , true , 2, auto   , EMULATE, false
            streams , true , 2, native , fail:group.protocol=streams, false
            streams , true , 2, emulate, EMULATE, false
            streams , true , 3, auto   , EMULATE, false
            streams , true , 3, native , fail:group.protocol=streams, false
            streams , true , 3, emulate, EMULATE, false
            classic , false, 0, auto   , EMULATE, false
            classic , false, 0, native , fail:group.protocol=classic, false
            classic , false, 0, emulate, EMULATE, false
            classic , true , 0, auto   , EMULATE, false
            classic , true , 0, native , fail:group.protocol=classic, false
            classic , true , 0, emulate, EMULATE, false
            consumer, false, 0, auto   , EMULATE, false
            consumer, false, 0, native , fail:does not know auto.offset.reset.new.partitions, false
            consumer, false, 0, emulate, EMULATE, false
            consumer, true , 0, auto   , EMULATE, true
            consumer, true , 0, native , fail:group.version=0, true
            consumer, true , 0, emulate, EMULATE, false
            streams , false, 0, auto   , EMULATE, false
            streams , false, 0, native , fail:group.protocol=streams, false
            streams , false, 0, emulate, EMULATE, false
            streams , true , 0, auto   , EMULATE, false
            streams , true , 0, native , fail:group.protocol=streams, false
            streams , true , 0, emulate, EMULATE, false
            CONSUMER, true , 2, auto   , NATIVE, true
            Classic , true , 2, auto   , EMULATE, false
            """)
    void newPartitions(String protocol, boolean clientKnows, short groupVersion, String mode, String expected, boolean probed) {
        AtomicInteger probes = new AtomicInteger();
        Supplier<BrokerCapabilities> broker = counting(probes, Map.of("group.version", groupVersion));
        BrokerCapabilities client = BrokerCapabilities.of(Map.of(), clientKnows);
        NewPartitionsMode m = NewPartitionsMode.valueOf(mode.toUpperCase(Locale.ROOT));
        if (expected.startsWith("fail:")) {
            ConfigException e = assertThrows(ConfigException.class, () -> ModeDecision.decide(true, m, protocol, client, broker));
            assertTrue(e.getMessage().contains(expected.substring(5)), e.getMessage());
            assertTrue(e.getMessage().contains("gapless.new.partitions.mode"), e.getMessage());
        } else {
            ModeDecision d = ModeDecision.decide(true, m, protocol, client, broker);
            assertEquals(Kind.valueOf(expected), d.kind(), d.reason());
            String lower = protocol.toLowerCase(Locale.ROOT);
            if (!"consumer".equals(lower) && d.kind() == Kind.EMULATE && m == NewPartitionsMode.AUTO) {
                assertTrue(d.reason().contains("group.protocol=" + lower), "the log says why: " + d.reason());
            }
        }
        assertEquals(probed ? 1 : 0, probes.get(), "broker probes");
        // Without a policy nothing is decided, whatever the rest says.
        assertEquals(Kind.OFF, ModeDecision.decide(false, m, protocol, client, broker).kind());
        assertEquals(probed ? 1 : 0, probes.get(), "no probe without a policy");
    }

    /** KIP-1289: native only with Kafka's API on the classpath and share.version >= 3 and transaction.version >= 2. */
    @ParameterizedTest(name = "clientHasApi={0} share.version={1} transaction.version={2} fallback={3} -> {4}")
    @CsvSource(textBlock = """
            false, 2, 1, emulate      , EMULATE, false
            false, 2, 1, at-least-once, AT_LEAST_ONCE, false
            false, 2, 1, fail         , fail:kafka-clients on the classpath, false
            false, 2, 2, emulate      , EMULATE, false
            false, 2, 2, at-least-once, AT_LEAST_ONCE, false
            false, 2, 2, fail         , fail:kafka-clients on the classpath, false
            false, 3, 1, emulate      , EMULATE, false
            false, 3, 1, at-least-once, AT_LEAST_ONCE, false
            false, 3, 1, fail         , fail:kafka-clients on the classpath, false
            false, 3, 2, emulate      , EMULATE, false
            false, 3, 2, at-least-once, AT_LEAST_ONCE, false
            false, 3, 2, fail         , fail:kafka-clients on the classpath, false
            false, 4, 1, emulate      , EMULATE, false
            false, 4, 1, at-least-once, AT_LEAST_ONCE, false
            false, 4, 1, fail         , fail:kafka-clients on the classpath, false
            false, 4, 2, emulate      , EMULATE, false
            false, 4, 2, at-least-once, AT_LEAST_ONCE, false
            false, 4, 2, fail         , fail:kafka-clients on the classpath, false
            true , 2, 1, emulate      , EMULATE, true
            true , 2, 1, at-least-once, AT_LEAST_ONCE, true
            true , 2, 1, fail         , 'fail:share.version=2, transaction.version=1', true
            true , 2, 2, emulate      , EMULATE, true
            true , 2, 2, at-least-once, AT_LEAST_ONCE, true
            true , 2, 2, fail         , 'fail:share.version=2, transaction.version=2', true
            true , 3, 1, emulate      , EMULATE, true
            true , 3, 1, at-least-once, AT_LEAST_ONCE, true
            true , 3, 1, fail         , 'fail:share.version=3, transaction.version=1', true
            true , 3, 2, emulate      , NATIVE, true
            true , 3, 2, at-least-once, NATIVE, true
            true , 3, 2, fail         , NATIVE, true
            true , 4, 1, emulate      , EMULATE, true
            true , 4, 1, at-least-once, AT_LEAST_ONCE, true
            true , 4, 1, fail         , 'fail:share.version=4, transaction.version=1', true
            true , 4, 2, emulate      , NATIVE, true
            true , 4, 2, at-least-once, NATIVE, true
            true , 4, 2, fail         , NATIVE, true
            false, 0, 0, emulate      , EMULATE, false
            false, 0, 0, at-least-once, AT_LEAST_ONCE, false
            false, 0, 0, fail         , fail:kafka-clients on the classpath, false
            false, 0, 1, emulate      , EMULATE, false
            false, 0, 1, at-least-once, AT_LEAST_ONCE, false
            false, 0, 1, fail         , fail:kafka-clients on the classpath, false
            false, 0, 2, emulate      , EMULATE, false
            false, 0, 2, at-least-once, AT_LEAST_ONCE, false
            false, 0, 2, fail         , fail:kafka-clients on the classpath, false
            false, 0, 3, emulate      , EMULATE, false
            false, 0, 3, at-least-once, AT_LEAST_ONCE, false
            false, 0, 3, fail         , fail:kafka-clients on the classpath, false
            false, 1, 0, emulate      , EMULATE, false
            false, 1, 0, at-least-once, AT_LEAST_ONCE, false
            false, 1, 0, fail         , fail:kafka-clients on the classpath, false
            false, 1, 1, emulate      , EMULATE, false
            false, 1, 1, at-least-once, AT_LEAST_ONCE, false
            false, 1, 1, fail         , fail:kafka-clients on the classpath, false
            false, 1, 2, emulate      , EMULATE, false
            false, 1, 2, at-least-once, AT_LEAST_ONCE, false
            false, 1, 2, fail         , fail:kafka-clients on the classpath, false
            false, 1, 3, emulate      , EMULATE, false
            false, 1, 3, at-least-once, AT_LEAST_ONCE, false
            false, 1, 3, fail         , fail:kafka-clients on the classpath, false
            false, 2, 0, emulate      , EMULATE, false
            false, 2, 0, at-least-once, AT_LEAST_ONCE, false
            false, 2, 0, fail         , fail:kafka-clients on the classpath, false
            false, 2, 3, emulate      , EMULATE, false
            false, 2, 3, at-least-once, AT_LEAST_ONCE, false
            false, 2, 3, fail         , fail:kafka-clients on the classpath, false
            false, 3, 0, emulate      , EMULATE, false
            false, 3, 0, at-least-once, AT_LEAST_ONCE, false
            false, 3, 0, fail         , fail:kafka-clients on the classpath, false
            false, 3, 3, emulate      , EMULATE, false
            false, 3, 3, at-least-once, AT_LEAST_ONCE, false
            false, 3, 3, fail         , fail:kafka-clients on the classpath, false
            false, 4, 0, emulate      , EMULATE, false
            false, 4, 0, at-least-once, AT_LEAST_ONCE, false
            false, 4, 0, fail         , fail:kafka-clients on the classpath, false
            false, 4, 3, emulate      , EMULATE, false
            false, 4, 3, at-least-once, AT_LEAST_ONCE, false
            false, 4, 3, fail         , fail:kafka-clients on the classpath, false
            true , 0, 0, emulate      , EMULATE, true
            true , 0, 0, at-least-once, AT_LEAST_ONCE, true
            true , 0, 0, fail         , 'fail:share.version=0, transaction.version=0', true
            true , 0, 1, emulate      , EMULATE, true
            true , 0, 1, at-least-once, AT_LEAST_ONCE, true
            true , 0, 1, fail         , 'fail:share.version=0, transaction.version=1', true
            true , 0, 2, emulate      , EMULATE, true
            true , 0, 2, at-least-once, AT_LEAST_ONCE, true
            true , 0, 2, fail         , 'fail:share.version=0, transaction.version=2', true
            true , 0, 3, emulate      , EMULATE, true
            true , 0, 3, at-least-once, AT_LEAST_ONCE, true
            true , 0, 3, fail         , 'fail:share.version=0, transaction.version=3', true
            true , 1, 0, emulate      , EMULATE, true
            true , 1, 0, at-least-once, AT_LEAST_ONCE, true
            true , 1, 0, fail         , 'fail:share.version=1, transaction.version=0', true
            true , 1, 1, emulate      , EMULATE, true
            true , 1, 1, at-least-once, AT_LEAST_ONCE, true
            true , 1, 1, fail         , 'fail:share.version=1, transaction.version=1', true
            true , 1, 2, emulate      , EMULATE, true
            true , 1, 2, at-least-once, AT_LEAST_ONCE, true
            true , 1, 2, fail         , 'fail:share.version=1, transaction.version=2', true
            true , 1, 3, emulate      , EMULATE, true
            true , 1, 3, at-least-once, AT_LEAST_ONCE, true
            true , 1, 3, fail         , 'fail:share.version=1, transaction.version=3', true
            true , 2, 0, emulate      , EMULATE, true
            true , 2, 0, at-least-once, AT_LEAST_ONCE, true
            true , 2, 0, fail         , 'fail:share.version=2, transaction.version=0', true
            true , 2, 3, emulate      , EMULATE, true
            true , 2, 3, at-least-once, AT_LEAST_ONCE, true
            true , 2, 3, fail         , 'fail:share.version=2, transaction.version=3', true
            true , 3, 0, emulate      , EMULATE, true
            true , 3, 0, at-least-once, AT_LEAST_ONCE, true
            true , 3, 0, fail         , 'fail:share.version=3, transaction.version=0', true
            true , 3, 3, emulate      , NATIVE, true
            true , 3, 3, at-least-once, NATIVE, true
            true , 3, 3, fail         , NATIVE, true
            true , 4, 0, emulate      , EMULATE, true
            true , 4, 0, at-least-once, AT_LEAST_ONCE, true
            true , 4, 0, fail         , 'fail:share.version=4, transaction.version=0', true
            true , 4, 3, emulate      , NATIVE, true
            true , 4, 3, at-least-once, NATIVE, true
            true , 4, 3, fail         , NATIVE, true
            """)
    void shareTransactions(boolean clientHasApi, short shareVersion, short transactionVersion, String fallback, String expected,
                           boolean probed) {
        AtomicInteger probes = new AtomicInteger();
        Supplier<BrokerCapabilities> broker = counting(probes,
                Map.of("share.version", shareVersion, "transaction.version", transactionVersion));
        Fallback f = Fallback.of(fallback);
        if (expected.startsWith("fail:")) {
            UnsupportedVersionException e = assertThrows(UnsupportedVersionException.class,
                    () -> ModeDecision.decideShareTransactions(f, clientHasApi, broker, UnsupportedVersionException::new));
            assertTrue(e.getMessage().contains(expected.substring(5)), e.getMessage());
        } else {
            ModeDecision d = ModeDecision.decideShareTransactions(f, clientHasApi, broker, UnsupportedVersionException::new);
            assertEquals(Kind.valueOf(expected), d.kind(), d.reason());
        }
        assertEquals(probed ? 1 : 0, probes.get(), "broker probes");
    }
}
