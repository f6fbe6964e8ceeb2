package io.gapless.kafka.share.txn;

import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.serialization.Serializer;

import java.util.Map;

/** Test access to {@link TransactionalShareProducer}'s injecting constructor, for tests in other packages. */
public final class TestProducers {
    private TestProducers() {
    }

    /** A TransactionalShareProducer over {@code delegate} (e.g. Kafka's MockProducer), with the native capability given. */
    public static <K, V> TransactionalShareProducer<K, V> wrapping(Producer<byte[], byte[]> delegate, Map<String, Object> configs,
                                                                   Serializer<K> keys, Serializer<V> values,
                                                                   NativeShareTransactions nativeSupport) {
        return new TransactionalShareProducer<>(delegate, configs, keys, values, nativeSupport);
    }
}
