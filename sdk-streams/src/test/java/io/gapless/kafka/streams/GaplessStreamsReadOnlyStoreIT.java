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

import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.EmbeddedKafkaTest;
import io.gapless.kafka.testkit.TestTopics;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code Topology.addReadOnlyStateStore} reads its source topic from the beginning whatever
 * {@code auto.offset.reset} says (Kafka hard-codes {@code earliest} for that source): a
 * {@link GaplessTopology} must load the whole topic under {@code auto.offset.reset=latest} too.
 */
@EmbeddedKafkaTest
class GaplessStreamsReadOnlyStoreIT {

    @ParameterizedTest(name = "group.protocol={0}")
    @ValueSource(strings = {"classic", "streams"})
    void readOnlyStoreLoadsItsWholeTopicUnderLatest(String protocol, EmbeddedKafka kafka) {
        String topic = TestTopics.unique("ro-src");
        kafka.createTopic(topic, 2);
        String app = TestTopics.unique("ro-app");
        try (StreamsHarness h = new StreamsHarness(kafka)) {
            List<String> existing = h.produce(topic, List.of(0, 1), 10, "existing");
            GaplessTopology topology = new GaplessTopology();
            topology.addReadOnlyStateStore(
                    Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore("ro"), Serdes.String(), Serdes.String()).withLoggingDisabled(),
                    "ro-source", new StringDeserializer(), new StringDeserializer(), topic, "ro-loader", () -> new Loader());
            Properties props = h.streamsProps(app, protocol); // auto.offset.reset=latest
            KafkaStreams streams = GaplessStreams.create(topology, props);
            h.start(streams);
            try {
                List<String> later = h.produce(topic, List.of(0, 1), 2, "later");
                Set<String> expected = new HashSet<>(existing);
                expected.addAll(later);
                await().atMost(StreamsHarness.WAIT).ignoreExceptions().until(() -> keys(streams).containsAll(later));
                assertEquals(expected, keys(streams), "the read-only store holds every record of its topic, also those written before the application started");
            } finally {
                StreamsHarness.stop(streams);
            }
        }
    }

    private static Set<String> keys(KafkaStreams streams) {
        ReadOnlyKeyValueStore<String, String> store = streams.store(StoreQueryParameters.fromNameAndType("ro", QueryableStoreTypes.keyValueStore()));
        Set<String> keys = new HashSet<>();
        try (var it = store.all()) {
            it.forEachRemaining(kv -> keys.add(kv.key));
        }
        return keys;
    }

    /** Puts every record of the source into the store. */
    private static final class Loader implements Processor<String, String, Void, Void> {
        private KeyValueStore<String, String> store;

        @Override
        public void init(ProcessorContext<Void, Void> context) {
            store = context.getStateStore("ro");
        }

        @Override
        public void process(Record<String, String> record) {
            store.put(record.key(), record.value());
        }
    }
}
