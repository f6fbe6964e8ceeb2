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
package io.gapless.kafka.streams.internal;

import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.state.KeyValueStore;

/** Reads the serdes of a {@link Materialized} through its protected copy constructor and fields. */
public final class MaterializedSerdes<K, V> extends Materialized<K, V, KeyValueStore<Bytes, byte[]>> {

    private MaterializedSerdes(Materialized<K, V, KeyValueStore<Bytes, byte[]>> materialized) {
        super(materialized);
    }

    /** A {@code Consumed} with the serdes of {@code materialized}, as {@code StreamsBuilder.table(topic, materialized)} builds it. */
    public static <K, V> Consumed<K, V> consumedOf(Materialized<K, V, KeyValueStore<Bytes, byte[]>> materialized) {
        MaterializedSerdes<K, V> copy = new MaterializedSerdes<>(materialized);
        Serde<K> k = copy.keySerde;
        Serde<V> v = copy.valueSerde;
        return Consumed.with(k, v);
    }
}
