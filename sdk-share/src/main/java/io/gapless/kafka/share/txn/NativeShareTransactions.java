package io.gapless.kafka.share.txn;

import io.gapless.kafka.core.spi.ConnectionConfigs;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.TopicIdPartition;

import java.util.List;
import java.util.Map;

/**
 * KIP-1289 as Kafka itself would provide it: whether this client and broker have it, and the
 * call that stages acknowledgements natively. Tests inject an implementation that says "supported".
 */
public interface NativeShareTransactions {

    /**
     * The real capability: the method found on {@code KafkaProducer} by reflection, the broker asked
     * for its {@code share.version} with the connection settings of {@code clientConfig}.
     */
    static NativeShareTransactions reflective(Map<String, Object> clientConfig) {
        return new ReflectiveNativeShareTransactions(ConnectionConfigs.from(clientConfig, "kip1289-probe"));
    }

    /** Whether kafka-clients on the classpath has the API (checked without the broker). */
    boolean clientSupports();

    /** Whether the cluster supports it too; only asked when {@link #clientSupports()} is true. */
    boolean brokerSupports();

    void sendShareAcknowledgementsToTransaction(Producer<?, ?> producer, Map<TopicIdPartition, List<AcknowledgementBatch>> acks,
                                                ShareGroupMetadata metadata);
}
