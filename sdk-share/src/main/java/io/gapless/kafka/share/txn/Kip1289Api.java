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

import org.apache.kafka.clients.consumer.ShareConsumer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicIdPartition;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * KIP-1289's client API as Kafka ships it, found by reflection with its exact signatures, and the
 * translation between the SDK's types and Kafka's. kafka-clients 4.4 has none of it; a release
 * that has all of it (the three classes with their constructors and accessors,
 * {@code ShareConsumer.acknowledgementsForTransaction()}, {@code ShareConsumer.shareGroupMetadata()},
 * {@code Producer.sendShareAcknowledgementsToTransaction(ShareAcknowledgements, ShareGroupMetadata)})
 * is used natively; a release with a different shape is not used at all.
 */
final class Kip1289Api {
    static final String KAFKA_PACKAGE = "org.apache.kafka.clients.consumer";
    static final String SEND = "sendShareAcknowledgementsToTransaction";
    static final String TAKE = "acknowledgementsForTransaction";
    static final String METADATA = "shareGroupMetadata";

    private final Constructor<?> acknowledgements;
    private final Method acknowledgementsMap;
    private final Constructor<?> batch;
    private final Method firstOffset;
    private final Method lastOffset;
    private final Method acknowledgeTypes;
    private final Constructor<?> metadata;
    private final Method groupId;
    private final Method memberId;
    private final Method memberEpoch;
    private final Method take;
    private final Method groupMetadata;
    private final Method send;

    private Kip1289Api(Class<?> acksType, Class<?> batchType, Class<?> metadataType, Class<?> consumerType, Class<?> producerType)
            throws ReflectiveOperationException {
        this.acknowledgements = acksType.getConstructor(Map.class);
        this.acknowledgementsMap = returning(acksType.getMethod("acknowledgements"), Map.class);
        this.batch = batchType.getConstructor(long.class, long.class, List.class);
        this.firstOffset = returning(batchType.getMethod("firstOffset"), long.class);
        this.lastOffset = returning(batchType.getMethod("lastOffset"), long.class);
        this.acknowledgeTypes = returning(batchType.getMethod("acknowledgeTypes"), List.class);
        this.metadata = metadataType.getConstructor(String.class, String.class, int.class);
        this.groupId = returning(metadataType.getMethod("groupId"), String.class);
        this.memberId = returning(metadataType.getMethod("memberId"), String.class);
        this.memberEpoch = returning(metadataType.getMethod("memberEpoch"), int.class);
        this.take = returning(consumerType.getMethod(TAKE), acksType);
        this.groupMetadata = returning(consumerType.getMethod(METADATA), metadataType);
        this.send = returning(producerType.getMethod(SEND, acksType, metadataType), void.class);
    }

    /** The API in the kafka-clients on the classpath, if it has all of it. */
    static Optional<Kip1289Api> kafka() {
        return find(ShareConsumer.class.getClassLoader(), KAFKA_PACKAGE, ShareConsumer.class, Producer.class);
    }

    /**
     * The API with its classes in {@code typesPackage} and its methods on {@code consumerType} and
     * {@code producerType} (tests point it at look-alike classes), if every member is there with
     * Kafka's signature.
     */
    static Optional<Kip1289Api> find(ClassLoader loader, String typesPackage, Class<?> consumerType, Class<?> producerType) {
        try {
            return Optional.of(new Kip1289Api(Class.forName(typesPackage + ".ShareAcknowledgements", false, loader),
                    Class.forName(typesPackage + ".ShareAcknowledgementBatch", false, loader),
                    Class.forName(typesPackage + ".ShareGroupMetadata", false, loader), consumerType, producerType));
        } catch (ReflectiveOperationException | LinkageError e) {
            return Optional.empty();
        }
    }

    private static Method returning(Method m, Class<?> type) throws NoSuchMethodException {
        if (!m.getReturnType().equals(type)) {
            throw new NoSuchMethodException(m + " returns " + m.getReturnType().getName() + ", not " + type.getName());
        }
        return m;
    }

    /** Kafka's {@code consumer.acknowledgementsForTransaction()}, as the SDK's type. */
    ShareAcknowledgements acknowledgementsForTransaction(Object consumer) {
        return fromKafka(invoke(take, consumer));
    }

    /** Kafka's {@code consumer.shareGroupMetadata()}, as the SDK's type. */
    ShareGroupMetadata shareGroupMetadata(Object consumer) {
        Object m = invoke(groupMetadata, consumer);
        return ShareGroupMetadata.fromKafka((String) invoke(groupId, m), (String) invoke(memberId, m), (Integer) invoke(memberEpoch, m));
    }

    /** Kafka's {@code producer.sendShareAcknowledgementsToTransaction(acks, metadata)} with the SDK's types translated. */
    void sendShareAcknowledgementsToTransaction(Object producer, ShareAcknowledgements acks, ShareGroupMetadata meta) {
        invoke(send, producer, toKafka(acks), construct(metadata, meta.groupId(), meta.memberId(), meta.memberEpoch()));
    }

    Object toKafka(ShareAcknowledgements acks) {
        Map<TopicIdPartition, List<Object>> map = new LinkedHashMap<>();
        acks.acknowledgements().forEach((tip, batches) -> {
            List<Object> list = new ArrayList<>(batches.size());
            for (ShareAcknowledgementBatch b : batches) {
                list.add(construct(batch, b.firstOffset(), b.lastOffset(), b.acknowledgeTypes()));
            }
            map.put(tip, list);
        });
        return construct(acknowledgements, map);
    }

    @SuppressWarnings("unchecked")
    ShareAcknowledgements fromKafka(Object kafkaAcks) {
        Map<TopicIdPartition, List<ShareAcknowledgementBatch>> map = new LinkedHashMap<>();
        ((Map<TopicIdPartition, List<?>>) invoke(acknowledgementsMap, kafkaAcks)).forEach((tip, batches) -> {
            List<ShareAcknowledgementBatch> list = new ArrayList<>(batches.size());
            for (Object b : batches) {
                list.add(new ShareAcknowledgementBatch((Long) invoke(firstOffset, b), (Long) invoke(lastOffset, b),
                        (List<Byte>) invoke(acknowledgeTypes, b)));
            }
            map.put(tip, list);
        });
        return new ShareAcknowledgements(map);
    }

    private static Object construct(Constructor<?> c, Object... args) {
        try {
            return c.newInstance(args);
        } catch (InvocationTargetException e) {
            throw rethrow(c.getDeclaringClass().getSimpleName(), e);
        } catch (ReflectiveOperationException e) {
            throw new KafkaException("Cannot create Kafka's " + c.getDeclaringClass().getName(), e);
        }
    }

    private static Object invoke(Method m, Object target, Object... args) {
        try {
            return m.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw rethrow(m.getName(), e);
        } catch (ReflectiveOperationException e) {
            throw new KafkaException("Cannot call Kafka's " + m, e);
        }
    }

    // Kafka's own exceptions reach the caller unchanged.
    private static RuntimeException rethrow(String what, InvocationTargetException e) {
        Throwable cause = e.getCause();
        if (cause instanceof RuntimeException re) {
            return re;
        }
        if (cause instanceof Error err) {
            throw err;
        }
        return new KafkaException(what + " failed", cause);
    }
}
