package io.gapless.kafka.share.txn;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.FinalizedVersionRange;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.errors.UnsupportedVersionException;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Finds KIP-1289's {@code sendShareAcknowledgementsToTransaction} on {@link KafkaProducer} by
 * reflection (absent from kafka-clients 4.4) and calls it, converting the SDK's types into the
 * client's by their constructors. The broker side is judged by the finalized {@code share.version}
 * (the KIP gates the new RPC on level 2).
 */
final class ReflectiveNativeShareTransactions implements NativeShareTransactions {
    static final String METHOD = "sendShareAcknowledgementsToTransaction";
    private static final short MIN_SHARE_VERSION = 2;

    private final Map<String, Object> adminConfig;
    private final Method method;

    ReflectiveNativeShareTransactions(Map<String, Object> adminConfig) {
        this.adminConfig = adminConfig;
        this.method = find();
    }

    private static Method find() {
        for (Method m : KafkaProducer.class.getMethods()) {
            if (m.getName().equals(METHOD) && m.getParameterCount() == 2) {
                return m;
            }
        }
        return null;
    }

    @Override
    public boolean clientSupports() {
        return method != null;
    }

    @Override
    public boolean brokerSupports() {
        try (Admin admin = Admin.create(adminConfig)) {
            FinalizedVersionRange range = admin.describeFeatures().featureMetadata().get(30, TimeUnit.SECONDS)
                    .finalizedFeatures().get("share.version");
            return range != null && range.maxVersionLevel() >= MIN_SHARE_VERSION;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaException("Interrupted while probing the broker's share.version", e);
        } catch (Exception e) {
            throw new KafkaException("Cannot probe the broker's share.version", e);
        }
    }

    @Override
    public void sendShareAcknowledgementsToTransaction(Producer<?, ?> producer, Map<TopicIdPartition, List<AcknowledgementBatch>> acks,
                                                       ShareGroupMetadata metadata) {
        if (method == null) {
            throw new UnsupportedVersionException("kafka-clients on the classpath has no " + METHOD);
        }
        try {
            Class<?> metadataType = method.getParameterTypes()[1];
            Object nativeMetadata = metadataType.getConstructor(String.class, String.class, int.class)
                    .newInstance(metadata.groupId(), metadata.memberId(), metadata.memberEpoch());
            Class<?> batchType = batchType(method.getGenericParameterTypes()[0]);
            Map<TopicIdPartition, List<Object>> nativeAcks = new LinkedHashMap<>();
            for (Map.Entry<TopicIdPartition, List<AcknowledgementBatch>> e : acks.entrySet()) {
                List<Object> list = new ArrayList<>();
                for (AcknowledgementBatch b : e.getValue()) {
                    list.add(batchType.getConstructor(long.class, long.class, byte.class)
                            .newInstance(b.firstOffset(), b.lastOffset(), b.acknowledgeType().id));
                }
                nativeAcks.put(e.getKey(), list);
            }
            method.invoke(producer, nativeAcks, nativeMetadata);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            throw new KafkaException(METHOD + " failed", e.getCause());
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new UnsupportedVersionException("Cannot call " + METHOD + " of this kafka-clients version: " + e, e);
        }
    }

    private static Class<?> batchType(Type mapType) {
        // Map<TopicIdPartition, List<Batch>>: the second type argument's own type argument.
        Type list = ((ParameterizedType) mapType).getActualTypeArguments()[1];
        return (Class<?>) ((ParameterizedType) list).getActualTypeArguments()[0];
    }
}
