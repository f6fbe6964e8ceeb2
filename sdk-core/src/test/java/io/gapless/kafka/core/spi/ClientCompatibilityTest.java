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

import io.gapless.kafka.core.UnsupportedClientVersionException;
import io.gapless.kafka.core.spi.ClientCompatibility.EntryPoint;
import org.apache.kafka.common.utils.internals.AppInfoParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

class ClientCompatibilityTest {

    @Test
    void readsTheReleaseAppInfoParserReports() {
        assertEquals(AppInfoParser.getVersion(), ClientCompatibility.clientsVersion());
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(EntryPoint.class)
    void everyEntryPointWorksOnTheReleaseItIsCompiledAgainst(EntryPoint entryPoint) {
        assertDoesNotThrow(() -> ClientCompatibility.require(entryPoint));
    }

    /** docs/compatibility.md's matrix: the release found, and which entry points refuse it. */
    @ParameterizedTest(name = "kafka-clients {0}")
    @CsvSource({
        "4.0.2, GAPLESS_CONSUMER GAPLESS_STREAMS GAPLESS_SHARE_CONSUMER TRANSACTIONAL_SHARE_PRODUCER SHARE_GROUP_SETTINGS",
        "3.9.1, GAPLESS_CONSUMER GAPLESS_STREAMS GAPLESS_SHARE_CONSUMER TRANSACTIONAL_SHARE_PRODUCER SHARE_GROUP_SETTINGS",
        "4.1.0, GAPLESS_SHARE_CONSUMER TRANSACTIONAL_SHARE_PRODUCER",
        "4.1.2, GAPLESS_SHARE_CONSUMER TRANSACTIONAL_SHARE_PRODUCER",
        "4.2.0, ''",
        "4.2.0-SNAPSHOT, ''",
        "4.3.1, ''",
        "4.4.0, ''",
        "5.0.0, ''",
    })
    void refusesExactlyTheEntryPointsTheReleaseCannotCarry(String release, String refusedNames) {
        for (EntryPoint entryPoint : EntryPoint.values()) {
            boolean refused = refusedNames.contains(entryPoint.name());
            if (refused) {
                UnsupportedClientVersionException e = assertThrows(UnsupportedClientVersionException.class,
                        () -> ClientCompatibility.check(entryPoint, release, () -> release), entryPoint + " on " + release);
                assertAll(
                        () -> assertEquals(entryPoint.className(), e.entryPoint()),
                        () -> assertEquals("kafka-clients", e.artifact()),
                        () -> assertEquals(release, e.found()),
                        () -> assertEquals(entryPoint.minimum(), e.required()),
                        () -> assertTrue(e.getMessage().startsWith(entryPoint.className() + " needs kafka-clients "
                                + entryPoint.minimum() + " or newer, but kafka-clients " + release + " is on the classpath: "), e.getMessage()),
                        () -> assertTrue(e.getMessage().contains(entryPoint.reason()), e.getMessage()));
            } else {
                assertDoesNotThrow(() -> ClientCompatibility.check(entryPoint, release, () -> release), entryPoint + " on " + release);
            }
        }
    }

    @Test
    void streamsChecksKafkaStreamsAsWellAsKafkaClients() {
        UnsupportedClientVersionException e = assertThrows(UnsupportedClientVersionException.class,
                () -> ClientCompatibility.check(EntryPoint.GAPLESS_STREAMS, "4.4.0", () -> "4.0.2"));
        assertEquals("kafka-streams", e.artifact());
        assertEquals("4.0.2", e.found());
        assertTrue(e.getMessage().startsWith("GaplessStreams needs kafka-streams 4.1 or newer, but kafka-streams 4.0.2"), e.getMessage());
        assertDoesNotThrow(() -> ClientCompatibility.check(EntryPoint.GAPLESS_STREAMS, "4.4.0", () -> "4.1.2"));
        ClientCompatibility.check(EntryPoint.GAPLESS_CONSUMER, "4.4.0", () -> fail("only Kafka Streams reads the kafka-streams release"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"unknown", "", "  ", "four.one", "4"})
    void aReleaseThatCannotBeReadIsLetThrough(String release) {
        for (EntryPoint entryPoint : EntryPoint.values()) {
            assertDoesNotThrow(() -> ClientCompatibility.check(entryPoint, release, () -> release));
        }
    }

    @Test
    void parsesKafkaReleaseStrings() {
        assertEquals(new ClientCompatibility.Release(4, 1), ClientCompatibility.Release.parse("4.1.2").orElseThrow());
        assertEquals(new ClientCompatibility.Release(4, 3), ClientCompatibility.Release.parse("4.3.0-SNAPSHOT").orElseThrow());
        assertEquals(new ClientCompatibility.Release(5, 0), ClientCompatibility.Release.parse("5.0.0-rc1").orElseThrow());
        assertEquals(new ClientCompatibility.Release(4, 2), ClientCompatibility.Release.parse(" 4.2 ").orElseThrow());
        assertTrue(ClientCompatibility.Release.parse(null).isEmpty());
        assertTrue(ClientCompatibility.Release.parse("4").isEmpty());
        assertTrue(ClientCompatibility.Release.parse("4.x").isEmpty());
    }
}
