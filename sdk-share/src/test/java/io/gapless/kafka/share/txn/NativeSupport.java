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
