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
package io.gapless.kafka.benchmarks;

import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.ShareConsumer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.Optional;

/**
 * The SDK's share-group classes (sdk-share, KIP-1289), looked up by reflection so that the
 * benchmarks module builds and runs while they are still being written: a benchmark that needs
 * them reports {@code skipped=not-yet-built} instead of failing. The calls made through this
 * adapter cost one reflective call per batch, nothing per record.
 */
public final class ShareSdk {
    static final String PACKAGE = "io.gapless.kafka.share.";
    /** The KIP-1289 API: producer, acknowledgements, group metadata. */
    static final String TXN_PACKAGE = PACKAGE + "txn.";

    private final Constructor<?> producer;
    private final Constructor<?> consumer;
    private final Method shareGroupMetadata;
    private final Method fromRecords;
    private final Method sendAcks;

    private ShareSdk(Constructor<?> producer, Constructor<?> consumer, Method shareGroupMetadata, Method fromRecords,
                     Method sendAcks) {
        this.producer = producer;
        this.consumer = consumer;
        this.shareGroupMetadata = shareGroupMetadata;
        this.fromRecords = fromRecords;
        this.sendAcks = sendAcks;
    }

    /** The {@code TransactionalShareProducer} constructor {@code (Map, Serializer, Serializer)}, if built. */
    public static Optional<Constructor<?>> producerConstructor() {
        try {
            Class<?> c = Class.forName(TXN_PACKAGE + "TransactionalShareProducer");
            return Optional.of(c.getConstructor(Map.class, Serializer.class, Serializer.class));
        } catch (ClassNotFoundException | NoSuchMethodException e) {
            return Optional.empty();
        }
    }

    /** The whole transactional-acknowledgement API, or empty with the reason in {@code missing}. */
    public static Optional<ShareSdk> load(StringBuilder missing) {
        try {
            Constructor<?> producer = producerConstructor().orElseThrow(() -> new ClassNotFoundException("TransactionalShareProducer"));
            Class<?> consumerClass = Class.forName(PACKAGE + "GaplessShareConsumer");
            Constructor<?> consumer = consumerClass.getConstructor(Map.class, Deserializer.class, Deserializer.class);
            Method metadata = consumerClass.getMethod("shareGroupMetadata");
            Class<?> acks = Class.forName(TXN_PACKAGE + "ShareAcknowledgements");
            Method fromRecords = acks.getMethod("fromRecords", ConsumerRecords.class, AcknowledgeType.class);
            Method send = producer.getDeclaringClass().getMethod("sendShareAcknowledgementsToTransaction", acks, metadata.getReturnType());
            return Optional.of(new ShareSdk(producer, consumer, metadata, fromRecords, send));
        } catch (ClassNotFoundException | NoSuchMethodException e) {
            missing.append(e.getMessage());
            return Optional.empty();
        }
    }

    /** A new {@code TransactionalShareProducer}. */
    @SuppressWarnings("unchecked")
    public <K, V> Producer<K, V> newProducer(Map<String, Object> configs, Serializer<K> keys, Serializer<V> values) {
        return (Producer<K, V>) newInstance(producer, configs, keys, values);
    }

    /** A new {@code GaplessShareConsumer}. */
    @SuppressWarnings("unchecked")
    public <K, V> ShareConsumer<K, V> newConsumer(Map<String, Object> configs, Deserializer<K> keys, Deserializer<V> values) {
        return (ShareConsumer<K, V>) newInstance(consumer, configs, keys, values);
    }

    /**
     * {@code producer.sendShareAcknowledgementsToTransaction(ShareAcknowledgements.fromRecords(records, ACCEPT),
     * consumer.shareGroupMetadata())}.
     */
    public void sendAcceptsToTransaction(Producer<?, ?> producer, ShareConsumer<?, ?> consumer, ConsumerRecords<?, ?> records) {
        Object acks = invoke(fromRecords, null, records, AcknowledgeType.ACCEPT);
        Object metadata = invoke(shareGroupMetadata, consumer);
        invoke(sendAcks, producer, acks, metadata);
    }

    /** Builds the producer without transactions, as a plain {@link Producer}. */
    @SuppressWarnings("unchecked")
    public static <K, V> Producer<K, V> newPlainProducer(Constructor<?> constructor, Map<String, Object> configs,
                                                         Serializer<K> keys, Serializer<V> values) {
        return (Producer<K, V>) newInstance(constructor, configs, keys, values);
    }

    private static Object newInstance(Constructor<?> c, Object... args) {
        try {
            return c.newInstance(args);
        } catch (InvocationTargetException e) {
            throw rethrow(e);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("Cannot create " + c.getDeclaringClass().getName(), e);
        }
    }

    private static Object invoke(Method m, Object target, Object... args) {
        try {
            return m.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw rethrow(e);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("Cannot call " + m, e);
        }
    }

    private static RuntimeException rethrow(InvocationTargetException e) {
        Throwable cause = e.getCause();
        if (cause instanceof RuntimeException re) {
            return re;
        }
        if (cause instanceof Error err) {
            throw err;
        }
        return new IllegalStateException(cause);
    }

    /** sdk-share's default prefix of the per-group ledger topics ({@code GaplessShareConfig.LEDGER_TOPIC_PREFIX_DEFAULT}), if built. */
    public static Optional<String> ledgerTopicPrefix() {
        try {
            return Optional.of((String) Class.forName(PACKAGE + "GaplessShareConfig").getField("LEDGER_TOPIC_PREFIX_DEFAULT").get(null));
        } catch (ReflectiveOperationException | ClassCastException e) {
            return Optional.empty();
        }
    }
}
