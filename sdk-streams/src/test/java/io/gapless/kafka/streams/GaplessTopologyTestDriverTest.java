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

import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.AutoOffsetReset;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.processor.api.ContextualProcessor;
import org.apache.kafka.streams.processor.api.Record;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code TopologyTestDriver}, how Streams users unit-test, runs topologies from the SDK's builders
 * unchanged: the driver pipes records straight into the topology (no consumer, no offsets, no
 * resets), so it exercises the application's logic; the SDK's reset handling is tested on a broker.
 */
class GaplessTopologyTestDriverTest {

    @Test
    void aGaplessStreamsBuilderTopologyRunsUnchanged() {
        GaplessStreamsBuilder builder = new GaplessStreamsBuilder();
        builder.stream("orders", Consumed.with(Serdes.String(), Serdes.String())
                        .withOffsetResetPolicy(NewPartitionsReset.latest().withNewPartitionsResetPolicy(AutoOffsetReset.earliest())))
                .groupByKey()
                .count(Materialized.as("counts"))
                .toStream()
                .to("counts", Produced.with(Serdes.String(), Serdes.Long()));
        builder.stream("refunds").mapValues(v -> v + "!").to("refunds-out");
        try (TopologyTestDriver driver = new TopologyTestDriver(builder.build(), props())) {
            TestInputTopic<String, String> orders = driver.createInputTopic("orders", new StringSerializer(), new StringSerializer());
            TestInputTopic<String, String> refunds = driver.createInputTopic("refunds", new StringSerializer(), new StringSerializer());
            TestOutputTopic<String, Long> counts = driver.createOutputTopic("counts", new StringDeserializer(), new LongDeserializer());
            TestOutputTopic<String, String> refundsOut = driver.createOutputTopic("refunds-out", new StringDeserializer(), new StringDeserializer());
            orders.pipeInput("a", "1");
            orders.pipeInput("b", "2");
            orders.pipeInput("a", "3");
            refunds.pipeInput("r", "x");
            assertEquals(List.of(KeyValue.pair("a", 1L), KeyValue.pair("b", 1L), KeyValue.pair("a", 2L)), counts.readKeyValuesToList());
            assertEquals(List.of(KeyValue.pair("r", "x!")), refundsOut.readKeyValuesToList());
        }
    }

    @Test
    void aGaplessTopologyRunsUnchanged() {
        GaplessTopology topology = new GaplessTopology();
        topology.addSource(NewPartitionsReset.earliest().withNewPartitionsResetPolicy(AutoOffsetReset.latest()), "src",
                new StringDeserializer(), new StringDeserializer(), "in");
        topology.addProcessor("upper", () -> new ContextualProcessor<String, String, String, String>() {
            @Override
            public void process(Record<String, String> record) {
                context().forward(record.withValue(record.value().toUpperCase(java.util.Locale.ROOT)));
            }
        }, "src");
        topology.addSink("sink", "out", new StringSerializer(), new StringSerializer(), "upper");
        assertEquals(List.of(KeyValue.pair("k", "V")), run(topology, "in", "out", "k", "v"));
    }

    private static List<KeyValue<String, String>> run(Topology topology, String in, String out, String key, String value) {
        try (TopologyTestDriver driver = new TopologyTestDriver(topology, props())) {
            driver.createInputTopic(in, new StringSerializer(), new StringSerializer()).pipeInput(key, value);
            return driver.createOutputTopic(out, new StringDeserializer(), new StringDeserializer()).readKeyValuesToList();
        }
    }

    private static Properties props() {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "ttd");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        p.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        p.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        p.put("auto.offset.reset.new.partitions", "earliest");
        return p;
    }
}
