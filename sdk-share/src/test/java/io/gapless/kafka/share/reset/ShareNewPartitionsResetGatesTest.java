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
import io.gapless.kafka.core.spi.ModeDecision;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * KIP-1327 for share groups, gated by the broker alone: native where it knows the group config
 * {@code share.auto.offset.reset.new.partitions}, otherwise by {@code gapless.new.partitions.mode}
 * (share groups have one protocol, and the client only needs Admin). Each row is one combination,
 * its outcome ({@link ModeDecision.Kind} or {@code fail:<text the error names>}) and whether the
 * broker was asked.
 */
class ShareNewPartitionsResetGatesTest {

    @ParameterizedTest(name = "brokerKnows={0} mode={1} -> {2}")
    @CsvSource(textBlock = """
            false, auto   , EMULATE, true
            false, native , fail:the broker does not know the group config share.auto.offset.reset.new.partitions, true
            false, emulate, EMULATE, false
            true , auto   , NATIVE, true
            true , native , NATIVE, true
            true , emulate, EMULATE, false
            """)
    void newPartitions(boolean brokerKnows, String mode, String expected, boolean probed) {
        AtomicInteger probes = new AtomicInteger();
        BooleanSupplier broker = () -> {
            probes.incrementAndGet();
            return brokerKnows;
        };
        NewPartitionsMode m = NewPartitionsMode.valueOf(mode.toUpperCase(Locale.ROOT));
        if (expected.startsWith("fail:")) {
            ConfigException e = assertThrows(ConfigException.class, () -> ShareNewPartitionsReset.decide(m, broker));
            assertTrue(e.getMessage().contains(expected.substring(5)), e.getMessage());
            assertTrue(e.getMessage().contains("gapless.new.partitions.mode"), e.getMessage());
        } else {
            ModeDecision d = ShareNewPartitionsReset.decide(m, broker);
            assertEquals(ModeDecision.Kind.valueOf(expected), d.kind(), d.reason());
        }
        assertEquals(probed ? 1 : 0, probes.get(), "broker probes");
    }
}
