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
