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
package io.gapless.kafka.share.txn;

import io.gapless.kafka.core.BrokerCapabilities;
import io.gapless.kafka.core.spi.ModeDecision.Fallback;
import org.apache.kafka.clients.consumer.ShareConsumer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The one place a client's acknowledgement path is chosen: every combination of client, broker and fallback. */
class AckPathTest {

    private static NativeShareTransactions capability(boolean client, Boolean broker) {
        return new NativeShareTransactions() {
            @Override
            public boolean clientSupports() {
                return client;
            }

            @Override
            public BrokerCapabilities broker() {
                if (broker == null) {
                    throw new AssertionError("the broker is only asked when kafka-clients has the API");
                }
                short shareVersion = (short) (broker ? 3 : 2);
                return BrokerCapabilities.of(Map.of("share.version", shareVersion, "transaction.version", (short) 2), false);
            }

            @Override
            public ShareAcknowledgements acknowledgementsForTransaction(ShareConsumer<?, ?> consumer) {
                throw new AssertionError("not called");
            }

            @Override
            public ShareGroupMetadata shareGroupMetadata(ShareConsumer<?, ?> consumer) {
                throw new AssertionError("not called");
            }

            @Override
            public void sendShareAcknowledgementsToTransaction(Producer<?, ?> producer, ShareAcknowledgements acks,
                                                               ShareGroupMetadata metadata) {
            }
        };
    }

    @Test
    void nativeWhereClientAndBrokerHaveItWhateverTheFallback() {
        for (Fallback f : Fallback.values()) {
            assertEquals(AckPath.NATIVE, AckPath.choose(capability(true, true), f, "test", "ledger"));
        }
    }

    @Test
    void otherwiseTheFallbackDecides() {
        assertEquals(AckPath.LEDGER, AckPath.choose(capability(false, null), Fallback.EMULATE, "test", "ledger"));
        assertEquals(AckPath.AT_LEAST_ONCE, AckPath.choose(capability(false, null), Fallback.AT_LEAST_ONCE, "test", "ledger"));
        assertEquals(AckPath.LEDGER, AckPath.choose(capability(true, false), Fallback.EMULATE, "test", "ledger"));
    }

    @Test
    void failNamesWhatIsMissing() {
        UnsupportedVersionException client = assertThrows(UnsupportedVersionException.class,
                () -> AckPath.choose(capability(false, null), Fallback.FAIL, "test", "ledger"));
        assertTrue(client.getMessage().contains("kafka-clients on the classpath")
                && client.getMessage().contains("gapless.share.transactional.fallback=fail"), client.getMessage());
        UnsupportedVersionException broker = assertThrows(UnsupportedVersionException.class,
                () -> AckPath.choose(capability(true, false), Fallback.FAIL, "test", "ledger"));
        assertTrue(broker.getMessage().contains("the broker"), broker.getMessage());
    }
}
