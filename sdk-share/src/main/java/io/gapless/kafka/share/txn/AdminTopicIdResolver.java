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
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.Uuid;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;
import java.util.concurrent.TimeUnit;

/**
 * Resolves topic ids with an admin client; answers are cached for a minute, replaced when the
 * Kafka consumer's acknowledgements show another id for the topic (it was re-created) and when a
 * caller asks for a fresh lookup.
 */
final class AdminTopicIdResolver implements TopicIdResolver {
    private static final Logger log = LoggerFactory.getLogger(AdminTopicIdResolver.class);

    private final Supplier<Admin> admin;
    private final Cache<String, Uuid> ids = Caffeine.newBuilder().expireAfterWrite(Duration.ofMinutes(1)).maximumSize(10_000).build();

    /** @param admin the consumer's helper admin client, created on first use */
    AdminTopicIdResolver(Supplier<Admin> admin) {
        this.admin = admin;
    }

    @Override
    public synchronized Uuid topicId(String topic) {
        return ids.get(topic, this::describe);
    }

    @Override
    public synchronized Uuid refresh(String topic) {
        Uuid id = describe(topic);
        remember(topic, id);
        return id;
    }

    @Override
    public synchronized void learned(TopicIdPartition partition) {
        remember(partition.topic(), partition.topicId());
    }

    private void remember(String topic, Uuid id) {
        Uuid before = ids.getIfPresent(topic);
        if (before != null && !before.equals(id)) {
            log.warn("Topic {} has a new topic id {} (was {}): it was deleted and re-created", topic, id, before);
        }
        ids.put(topic, id);
    }

    private Uuid describe(String topic) {
        try {
            return admin.get().describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS).get(topic).topicId();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaException("Interrupted while resolving the topic id of " + topic, e);
        } catch (Exception e) {
            throw new KafkaException("Cannot resolve the topic id of " + topic, e);
        }
    }
}
