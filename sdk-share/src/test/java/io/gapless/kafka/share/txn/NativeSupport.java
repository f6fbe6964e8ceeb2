package io.gapless.kafka.share.txn;

import io.gapless.kafka.core.BrokerCapabilities;
import org.apache.kafka.clients.consumer.ShareConsumer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.TopicIdPartition;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Injected native capabilities for unit tests: records what reaches "Kafka's" API. */
public final class NativeSupport implements NativeShareTransactions {
    final boolean supported;
    /** Every staged set of acknowledgements, as single-type batches. */
    final List<Map<TopicIdPartition, List<AcknowledgementBatch>>> calls = new ArrayList<>();
    /** What {@link #acknowledgementsForTransaction} answers. */
    ShareAcknowledgements toTake = ShareAcknowledgements.empty();

    private NativeSupport(boolean supported) {
        this.supported = supported;
    }

    public static NativeSupport unsupported() {
        return new NativeSupport(false);
    }

    public static NativeSupport supported() {
        return new NativeSupport(true);
    }

    @Override
    public boolean clientSupports() {
        return supported;
    }

    @Override
    public BrokerCapabilities broker() {
        short level = (short) (supported ? 3 : 2);
        return BrokerCapabilities.of(Map.of("share.version", level, "transaction.version", (short) 2), false);
    }

    @Override
    public ShareAcknowledgements acknowledgementsForTransaction(ShareConsumer<?, ?> consumer) {
        return toTake;
    }

    @Override
    public ShareGroupMetadata shareGroupMetadata(ShareConsumer<?, ?> consumer) {
        return ShareGroupMetadata.fromKafka("g", "kafka-member", 5);
    }

    @Override
    public void sendShareAcknowledgementsToTransaction(Producer<?, ?> producer, ShareAcknowledgements acks, ShareGroupMetadata metadata) {
        calls.add(acks.batches());
    }
}
