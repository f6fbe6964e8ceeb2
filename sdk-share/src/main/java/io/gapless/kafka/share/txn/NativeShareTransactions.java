package io.gapless.kafka.share.txn;

import io.gapless.kafka.core.BrokerCapabilities;
import io.gapless.kafka.core.spi.ConnectionConfigs;
import org.apache.kafka.clients.consumer.ShareConsumer;
import org.apache.kafka.clients.producer.Producer;

import java.util.Map;

/**
 * KIP-1289 as Kafka itself provides it: whether this kafka-clients and broker have it, and the
 * calls that hand the SDK's types to Kafka's API and back. Tests inject an implementation.
 *
 * @since 0.1.0
 */
public interface NativeShareTransactions {

    /**
     * The real capability: Kafka's API found by reflection with its exact signatures, the broker
     * asked for its finalized feature levels with the connection settings of {@code clientConfig}.
     */
    static NativeShareTransactions reflective(Map<String, Object> clientConfig) {
        return new ReflectiveNativeShareTransactions(Kip1289Api.kafka(), ConnectionConfigs.from(clientConfig, "kip1289-probe"));
    }

    /** Whether kafka-clients on the classpath has the API (checked without the broker). */
    boolean clientSupports();

    /** The broker's finalized feature levels; only asked when {@link #clientSupports()} is true. */
    BrokerCapabilities broker();

    /** Kafka's {@code consumer.acknowledgementsForTransaction()}. */
    ShareAcknowledgements acknowledgementsForTransaction(ShareConsumer<?, ?> consumer);

    /** Kafka's {@code consumer.shareGroupMetadata()}. */
    ShareGroupMetadata shareGroupMetadata(ShareConsumer<?, ?> consumer);

    /** Kafka's {@code producer.sendShareAcknowledgementsToTransaction(acknowledgements, metadata)}. */
    void sendShareAcknowledgementsToTransaction(Producer<?, ?> producer, ShareAcknowledgements acknowledgements, ShareGroupMetadata metadata);
}
