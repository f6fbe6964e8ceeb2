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

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.KafkaClientSupplier;

import java.util.HashMap;
import java.util.Map;

/**
 * The {@link KafkaClientSupplier} used under {@code group.protocol=classic}: the main consumer is
 * the user's (or Kafka's default) consumer created with {@code auto.offset.reset=none} and wrapped
 * in a {@link GaplessMainConsumer}; every other client (restore and global consumers, producers,
 * admin) comes unchanged from the inner supplier, so changelog and global-store topics are never
 * touched.
 */
public final class GaplessClientSupplier implements KafkaClientSupplier {
    private final KafkaClientSupplier inner;
    private final ResetPlan plan;

    /** @param inner the user's supplier, or null for Kafka's default clients */
    public GaplessClientSupplier(KafkaClientSupplier inner, ResetPlan plan) {
        this.inner = inner;
        this.plan = plan;
    }

    @Override
    public Admin getAdmin(Map<String, Object> config) {
        return inner == null ? Admin.create(config) : inner.getAdmin(config);
    }

    @Override
    public Producer<byte[], byte[]> getProducer(Map<String, Object> config) {
        return inner == null ? new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer()) : inner.getProducer(config);
    }

    @Override
    public Consumer<byte[], byte[]> getConsumer(Map<String, Object> config) {
        Map<String, Object> delegateConfig = new HashMap<>(config);
        delegateConfig.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");
        Consumer<byte[], byte[]> delegate = inner == null
                ? new KafkaConsumer<>(delegateConfig, new ByteArrayDeserializer(), new ByteArrayDeserializer())
                : inner.getConsumer(delegateConfig);
        try {
            return new GaplessMainConsumer(delegate, new SourceResetEmulation(plan, config));
        } catch (RuntimeException e) {
            delegate.close();
            throw e;
        }
    }

    @Override
    public Consumer<byte[], byte[]> getRestoreConsumer(Map<String, Object> config) {
        return inner == null ? plainConsumer(config) : inner.getRestoreConsumer(config);
    }

    @Override
    public Consumer<byte[], byte[]> getGlobalConsumer(Map<String, Object> config) {
        return inner == null ? plainConsumer(config) : inner.getGlobalConsumer(config);
    }

    private static Consumer<byte[], byte[]> plainConsumer(Map<String, Object> config) {
        return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }
}
