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
package io.gapless.kafka.examples.docs;

import io.gapless.kafka.streams.GaplessStreams;
import io.gapless.kafka.streams.GaplessStreamsBuilder;
import io.gapless.kafka.streams.NewPartitionsReset;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.AutoOffsetReset;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.kstream.Consumed;

import java.util.Properties;

/** Kafka Streams in README.md and docs/streams.md. */
final class StreamsSnippets {
    private StreamsSnippets() {
    }

    static KafkaStreams upperCaseOrders(Properties props) {
        // tag::streams-topology[]
        GaplessStreamsBuilder builder = new GaplessStreamsBuilder();             // was: new StreamsBuilder()
        builder.stream("orders", Consumed.with(Serdes.String(), Serdes.String())
                .withOffsetResetPolicy(NewPartitionsReset.latest()               // the KIP's own example
                        .withNewPartitionsResetPolicy(AutoOffsetReset.earliest())))
            .mapValues(v -> v.toUpperCase())
            .to("orders-upper");

        props.put("auto.offset.reset.new.partitions", "earliest");  // every source topic without its own policy
        KafkaStreams streams = GaplessStreams.create(builder, props);           // was: new KafkaStreams(...)
        streams.start();
        // end::streams-topology[]
        return streams;
    }

    static KafkaStreams frontPage(GaplessStreamsBuilder builder, Properties props) {
        // tag::readme-streams[]
        props.put("auto.offset.reset", "latest");
        props.put("auto.offset.reset.new.partitions", "earliest");
        KafkaStreams streams = GaplessStreams.create(builder, props);   // builder: a GaplessStreamsBuilder
        // end::readme-streams[]
        return streams;
    }
}
