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
