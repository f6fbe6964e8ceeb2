package io.gapless.kafka.share.txn;

import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.TopicIdPartition;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Injected native capabilities for unit tests. */
public final class NativeSupport implements NativeShareTransactions {
    final boolean supported;
    final List<Map<TopicIdPartition, List<AcknowledgementBatch>>> calls = new ArrayList<>();

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
    public boolean brokerSupports() {
        return supported;
    }

    @Override
    public void sendShareAcknowledgementsToTransaction(Producer<?, ?> producer, Map<TopicIdPartition, List<AcknowledgementBatch>> acks,
                                                       ShareGroupMetadata metadata) {
        calls.add(acks);
    }
}
