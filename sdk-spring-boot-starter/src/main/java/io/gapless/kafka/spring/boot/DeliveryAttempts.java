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
package io.gapless.kafka.spring.boot;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import org.apache.kafka.clients.consumer.ConsumerRecord;

import java.time.Duration;

/**
 * How often the listener failed on a record, counted by the container across its threads (a
 * record released after a failure may come back to another thread). Not the broker's delivery
 * count: that also counts deliveries that never reached the listener (records released because
 * another record of their poll failed), and Spring's attempts count listener invocations. The
 * broker's {@code share.delivery.count.limit} still archives a record delivered that often.
 */
final class DeliveryAttempts {
    private record Key(String topic, int partition, long offset) {
    }

    private final Cache<Key, Integer> failures = Caffeine.newBuilder()
            .maximumSize(10_000).expireAfterAccess(Duration.ofMinutes(10)).build();

    /** Records one more failed attempt of {@code record}; returns its attempts so far. */
    int failed(ConsumerRecord<?, ?> record) {
        Key key = new Key(record.topic(), record.partition(), record.offset());
        return failures.asMap().merge(key, 1, Integer::sum);
    }

    /** A settled record is forgotten. */
    void settled(ConsumerRecord<?, ?> record) {
        failures.invalidate(new Key(record.topic(), record.partition(), record.offset()));
    }
}
