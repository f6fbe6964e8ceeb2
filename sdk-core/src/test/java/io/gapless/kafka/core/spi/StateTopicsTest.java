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

import org.apache.kafka.common.internals.Topic;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StateTopicsTest {
    private static final String PREFIX = "__gapless_baseline.";

    @Test
    void plainGroupIdsAreKeptAsTheyAre() {
        assertEquals("__gapless_baseline.orders-service.v2", StateTopics.forGroup(PREFIX, "orders-service.v2"));
    }

    @Test
    void everyGroupGetsALegalNameOfItsOwn() {
        List<String> groups = List.of("a_b", "a__b", "a_5Fb", "a b", "a/b", "a:b", "ä", "_", "__", "", "x".repeat(300), "x".repeat(301),
                "orders", "Orders");
        Set<String> names = new HashSet<>();
        for (String g : groups) {
            String name = StateTopics.forGroup(PREFIX, g);
            Topic.validate(name);
            assertTrue(name.startsWith(PREFIX), name);
            assertTrue(names.add(name), "two groups share " + name);
        }
    }

    @Test
    void longGroupIdsEndInAHashWithinKafkasLimit() {
        String name = StateTopics.forGroup(PREFIX, "g".repeat(1000));
        assertEquals(249, name.length());
        assertTrue(name.matches("__gapless_baseline\\.g+-[0-9a-f]{16}"), name);
    }

    @Test
    void aBadPrefixIsRefusedByName() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> StateTopics.forGroup("bad prefix.", "g"));
        assertTrue(e.getMessage().contains("bad prefix."), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> StateTopics.forGroup("", "g"));
        assertThrows(IllegalArgumentException.class, () -> StateTopics.forGroup("p".repeat(240), "g"));
    }
}
