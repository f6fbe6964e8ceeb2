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
package io.gapless.kafka.share;

import io.gapless.kafka.share.reset.ShareResetOptions;
import io.gapless.kafka.share.txn.NativeHandOver;
import io.gapless.kafka.share.txn.NativeShareTransactions;
import io.gapless.kafka.share.txn.TopicIdResolver;
import org.apache.kafka.clients.consumer.ShareConsumer;

import java.util.Map;
import java.util.Optional;

/** Test access to {@link GaplessShareConsumer}'s injecting constructor, for tests in other packages. */
public final class TestShareConsumers {
    private TestShareConsumers() {
    }

    /** A GaplessShareConsumer over {@code delegate} (e.g. Kafka's MockShareConsumer), with the topic ids and native capability given. */
    public static <K, V> GaplessShareConsumer<K, V> wrapping(ShareConsumer<K, V> delegate, Map<String, Object> configs,
                                                             TopicIdResolver topicIds, NativeShareTransactions nativeSupport) {
        return new GaplessShareConsumer<>(delegate, configs, topicIds, nativeSupport);
    }

    /** As {@link #wrapping(ShareConsumer, Map, TopicIdResolver, NativeShareTransactions)}, with the native hand-over decision given. */
    public static <K, V> GaplessShareConsumer<K, V> wrapping(ShareConsumer<K, V> delegate, Map<String, Object> configs,
                                                             TopicIdResolver topicIds, NativeShareTransactions nativeSupport,
                                                             NativeHandOver.Decider handOver) {
        return new GaplessShareConsumer<>(delegate, configs, topicIds, nativeSupport, handOver);
    }

    /** The KIP-1327 feature a GaplessShareConsumer with {@code configs} would set up; empty when it has nothing to do. */
    public static Optional<ShareResetOptions> newPartitionsReset(Map<String, Object> configs) {
        return new GaplessShareConfig(configs).newPartitionsReset();
    }
}
