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

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The share group's {@code share.delivery.count.limit} (a group config whose default is the
 * broker's {@code group.share.delivery.count.limit}): a record released in its last delivery is
 * archived. Looked up with the consumer's admin client when first needed and cached for minutes;
 * Kafka's default 5 when it cannot be read.
 */
final class DeliveryLimits {
    static final String CONFIG = "share.delivery.count.limit";
    static final int KAFKA_DEFAULT = 5;
    private static final Logger log = LoggerFactory.getLogger(DeliveryLimits.class);

    /** The limit of one group. */
    @FunctionalInterface
    interface Lookup {
        int limit(String group);
    }

    private DeliveryLimits() {
    }

    /** A lookup through {@code admin} (DescribeConfigs on the group), cached for five minutes. */
    static Lookup viaAdmin(Supplier<Admin> admin) {
        Cache<String, Integer> cache = Caffeine.newBuilder().expireAfterWrite(Duration.ofMinutes(5)).build();
        return group -> cache.get(group, g -> {
            ConfigResource resource = new ConfigResource(ConfigResource.Type.GROUP, g);
            try {
                Config config = admin.get().describeConfigs(List.of(resource)).all().get(10, TimeUnit.SECONDS).get(resource);
                ConfigEntry e = config.get(CONFIG);
                return e == null || e.value() == null ? KAFKA_DEFAULT : Integer.parseInt(e.value());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return KAFKA_DEFAULT;
            } catch (Exception e) {
                log.debug("Cannot read {} of share group {} ({}); assuming {}", CONFIG, g, e.toString(), KAFKA_DEFAULT);
                return KAFKA_DEFAULT;
            }
        });
    }
}
