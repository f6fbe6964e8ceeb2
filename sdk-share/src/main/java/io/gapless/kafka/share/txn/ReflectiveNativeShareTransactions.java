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
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ShareConsumer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.errors.UnsupportedVersionException;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * KIP-1289 through Kafka's own API, found by {@link Kip1289Api} (absent from kafka-clients 4.4);
 * the broker is judged by its finalized {@code share.version} and {@code transaction.version}.
 */
final class ReflectiveNativeShareTransactions implements NativeShareTransactions {
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(30);

    private final Optional<Kip1289Api> api;
    private final Map<String, Object> adminConfig;

    ReflectiveNativeShareTransactions(Optional<Kip1289Api> api, Map<String, Object> adminConfig) {
        this.api = api;
        this.adminConfig = adminConfig;
    }

    @Override
    public boolean clientSupports() {
        return api.isPresent();
    }

    @Override
    public BrokerCapabilities broker() {
        try (Admin admin = Admin.create(adminConfig)) {
            return BrokerCapabilities.probe(admin, PROBE_TIMEOUT);
        }
    }

    @Override
    public ShareAcknowledgements acknowledgementsForTransaction(ShareConsumer<?, ?> consumer) {
        return api().acknowledgementsForTransaction(consumer);
    }

    @Override
    public ShareGroupMetadata shareGroupMetadata(ShareConsumer<?, ?> consumer) {
        return api().shareGroupMetadata(consumer);
    }

    @Override
    public void sendShareAcknowledgementsToTransaction(Producer<?, ?> producer, ShareAcknowledgements acknowledgements,
                                                       ShareGroupMetadata metadata) {
        api().sendShareAcknowledgementsToTransaction(producer, acknowledgements, metadata);
    }

    private Kip1289Api api() {
        return api.orElseThrow(() -> new UnsupportedVersionException("kafka-clients on the classpath has no KIP-1289 API"));
    }
}
