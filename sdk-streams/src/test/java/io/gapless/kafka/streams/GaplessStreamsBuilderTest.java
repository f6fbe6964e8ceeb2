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

import io.gapless.kafka.streams.internal.RecordedSources;
import io.gapless.kafka.streams.internal.SourcePolicies;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.AutoOffsetReset;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Materialized;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Recording of source policies and the validation errors, without a broker. */
class GaplessStreamsBuilderTest {
    private static final AutoOffsetReset LATEST_NEW_EARLIEST =
            NewPartitionsReset.latest().withNewPartitionsResetPolicy(AutoOffsetReset.earliest());

    @Test
    void recordsEveryDslSourceWithItsPolicy() {
        GaplessStreamsBuilder b = new GaplessStreamsBuilder();
        Consumed<String, String> shared = Consumed.with(Serdes.String(), Serdes.String());
        b.stream("plain", shared).to("out");
        b.stream("again", shared).to("out");
        b.stream("orders", Consumed.with(Serdes.String(), Serdes.String()).withOffsetResetPolicy(LATEST_NEW_EARLIEST)).to("out");
        b.stream(List.of("a", "b"), Consumed.<String, String>with(AutoOffsetReset.earliest())).to("out");
        b.stream(Pattern.compile("logs-.*")).to("out");
        b.table("users", Materialized.with(Serdes.String(), Serdes.String()));
        b.globalTable("countries");
        Topology topology = b.build();

        SourcePolicies sources = RecordedSources.lookup(topology).orElseThrow();
        assertNull(sources.topics().get("plain").policy());
        assertNull(sources.topics().get("again").policy(), "the user's Consumed is not changed by the SDK");
        assertNull(io.gapless.kafka.streams.internal.ConsumedPolicy.of(shared), "the user's Consumed still carries no policy");
        assertEquals(LATEST_NEW_EARLIEST, sources.topics().get("orders").policy());
        assertEquals(AutoOffsetReset.earliest(), sources.topics().get("a").policy());
        assertEquals(AutoOffsetReset.earliest(), sources.topics().get("b").policy());
        assertTrue(sources.topics().containsKey("users"));
        assertEquals("logs-.*", sources.patterns().get(0).getKey().pattern());
        assertEquals(Set.of("countries"), sources.globalTopics());
        assertTrue(topology.describe().toString().contains("orders"));
    }

    @Test
    void noneAsNewPartitionsPolicyFailsNamingTheTopic() {
        GaplessStreamsBuilder b = new GaplessStreamsBuilder();
        ConfigException e = assertThrows(ConfigException.class, () -> b.stream("orders",
                Consumed.<String, String>with(NewPartitionsReset.latest().withNewPartitionsResetPolicy(AutoOffsetReset.none()))));
        assertTrue(e.getMessage().contains("'orders'") && e.getMessage().contains("none"), e.getMessage());
    }

    @Test
    void nestedNewPartitionsPolicyFailsNamingTheTopic() {
        GaplessStreamsBuilder b = new GaplessStreamsBuilder();
        AutoOffsetReset nested = NewPartitionsReset.latest().withNewPartitionsResetPolicy(LATEST_NEW_EARLIEST);
        ConfigException e = assertThrows(ConfigException.class, () -> b.table("users", Consumed.<String, String>with(nested)));
        assertTrue(e.getMessage().contains("'users'") && e.getMessage().contains("nesting"), e.getMessage());
    }

    @Test
    void newPartitionsPolicyOnAGlobalStoreTopicFailsNamingTheTopic() {
        GaplessStreamsBuilder b = new GaplessStreamsBuilder();
        ConfigException e = assertThrows(ConfigException.class,
                () -> b.globalTable("countries", Consumed.<String, String>with(LATEST_NEW_EARLIEST)));
        assertTrue(e.getMessage().contains("'countries'") && e.getMessage().contains("global"), e.getMessage());
    }

    @Test
    void processorApiTopologyRecordsAddSourceOverloads() {
        GaplessTopology t = new GaplessTopology();
        t.addSource("s1", "plain");
        t.addSource(LATEST_NEW_EARLIEST, "s2", "orders");
        t.addSource(AutoOffsetReset.latest(), "s3", new StringDeserializer(), new StringDeserializer(), "payments");
        t.addSource(LATEST_NEW_EARLIEST, "s4", Pattern.compile("logs-.*"));
        t.addSink("sink", "out", "s1", "s2", "s3", "s4");

        SourcePolicies sources = RecordedSources.lookup(t).orElseThrow();
        assertNull(sources.topics().get("plain").policy());
        assertEquals(LATEST_NEW_EARLIEST, sources.topics().get("orders").policy());
        assertEquals(AutoOffsetReset.latest(), sources.topics().get("payments").policy());
        assertEquals(LATEST_NEW_EARLIEST, sources.patterns().get(0).getValue().policy());

        ConfigException e = assertThrows(ConfigException.class, () -> t.addSource(
                NewPartitionsReset.earliest().withNewPartitionsResetPolicy(NewPartitionsReset.none()), "s5", "refunds"));
        assertTrue(e.getMessage().contains("'refunds'"), e.getMessage());
    }
}
