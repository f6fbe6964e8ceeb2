package io.gapless.kafka.share.txn;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.Uuid;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Resolves topic ids with an admin client, created on first use; answers are cached for a minute. */
final class AdminTopicIdResolver implements TopicIdResolver, AutoCloseable {
    private final Map<String, Object> adminConfig;
    private final Cache<String, Uuid> ids = Caffeine.newBuilder().expireAfterWrite(Duration.ofMinutes(1)).maximumSize(10_000).build();
    private Admin admin;

    /** @param adminConfig the admin client's connection settings, client id included */
    AdminTopicIdResolver(Map<String, Object> adminConfig) {
        this.adminConfig = new HashMap<>(adminConfig);
    }

    @Override
    public synchronized Uuid topicId(String topic) {
        return ids.get(topic, this::describe);
    }

    private Uuid describe(String topic) {
        if (admin == null) {
            admin = Admin.create(adminConfig);
        }
        try {
            return admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS).get(topic).topicId();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaException("Interrupted while resolving the topic id of " + topic, e);
        } catch (Exception e) {
            throw new KafkaException("Cannot resolve the topic id of " + topic, e);
        }
    }

    @Override
    public synchronized void close() {
        if (admin != null) {
            admin.close(Duration.ofSeconds(5));
        }
    }
}
