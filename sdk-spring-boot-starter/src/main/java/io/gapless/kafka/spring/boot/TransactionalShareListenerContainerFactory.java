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

import org.springframework.kafka.config.KafkaListenerContainerFactory;
import org.springframework.kafka.config.KafkaListenerEndpoint;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.core.ShareConsumerFactory;
import org.springframework.kafka.support.TopicPartitionOffset;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Creates {@link TransactionalShareListenerContainer}s for {@code @KafkaListener} methods:
 *
 * <pre>{@code
 * @KafkaListener(topics = "payments", groupId = "enricher", containerFactory = "transactionalShareListenerContainerFactory")
 * void enrich(ConsumerRecord<String, String> payment) {
 *     template.send("payments-enriched", payment.key(), enrich(payment.value()));   // joins the poll's transaction
 * }
 * }</pre>
 *
 * <p>The group is the endpoint's {@code groupId}, else its {@code id}; {@code concurrency} on the
 * annotation overrides the factory's.
 *
 * @since 0.1.0
 */
public class TransactionalShareListenerContainerFactory<K, V>
        implements KafkaListenerContainerFactory<TransactionalShareListenerContainer<K, V>> {

    private final ShareConsumerFactory<K, V> consumerFactory;
    private final KafkaTemplate<?, ?> template;
    private int concurrency = 1;
    private Duration pollTimeout = Duration.ofSeconds(1);
    private int maxAttempts = 3;
    private boolean autoStartup = true;
    private int containers;

    /**
     * @param consumerFactory a factory creating {@code GaplessShareConsumer}s
     * @param template        the template the listeners send with (transactional)
     * @throws NullPointerException if an argument is null
     * @since 0.1.0
     */
    public TransactionalShareListenerContainerFactory(ShareConsumerFactory<K, V> consumerFactory, KafkaTemplate<?, ?> template) {
        this.consumerFactory = Objects.requireNonNull(consumerFactory, "consumerFactory");
        this.template = Objects.requireNonNull(template, "template");
    }

    /** @param concurrency consumer threads per container (gapless.share.listener.concurrency) */
    public void setConcurrency(int concurrency) {
        this.concurrency = concurrency;
    }

    /** @param pollTimeout how long one poll waits (gapless.share.listener.poll-timeout) */
    public void setPollTimeout(Duration pollTimeout) {
        this.pollTimeout = pollTimeout;
    }

    /** @param maxAttempts failed deliveries of a record before it is rejected (gapless.share.listener.max-attempts) */
    public void setMaxAttempts(int maxAttempts) {
        this.maxAttempts = maxAttempts;
    }

    /** @param autoStartup whether the containers start with the application context */
    public void setAutoStartup(boolean autoStartup) {
        this.autoStartup = autoStartup;
    }

    /**
     * @throws IllegalArgumentException if the endpoint names no topic (patterns and explicit
     *                                  partitions have no meaning for share groups), no group and no id
     */
    @Override
    public TransactionalShareListenerContainer<K, V> createListenerContainer(KafkaListenerEndpoint endpoint) {
        if (endpoint.getTopicPattern() != null || (endpoint.getTopicPartitionsToAssign() != null
                && endpoint.getTopicPartitionsToAssign().length > 0)) {
            throw new IllegalArgumentException("Share groups subscribe to topics by name: listener '" + endpoint.getId()
                    + "' names a pattern or partitions");
        }
        String id = endpoint.getId() != null ? endpoint.getId() : "transactional-share-" + nextContainer();
        String group = endpoint.getGroupId() != null && !endpoint.getGroupId().isBlank() ? endpoint.getGroupId() : id;
        Integer endpointConcurrency = endpoint.getConcurrency();
        TransactionalShareListenerContainer<K, V> container = new TransactionalShareListenerContainer<>(consumerFactory, template,
                List.copyOf(endpoint.getTopics()), group, id, endpointConcurrency != null ? endpointConcurrency : concurrency,
                pollTimeout, maxAttempts);
        endpoint.setupListenerContainer(container, null);
        Boolean endpointAutoStartup = endpoint.getAutoStartup();
        container.setAutoStartup(endpointAutoStartup != null ? endpointAutoStartup : autoStartup);
        return container;
    }

    /**
     * A container for {@code topics} in group {@code groupId}; set its listener with
     * {@link TransactionalShareListenerContainer#setupMessageListener(Object)}.
     *
     * @param groupId the share group (also the container's id)
     * @param topics  the topics
     * @return the container, not started
     * @since 0.1.0
     */
    public TransactionalShareListenerContainer<K, V> createContainer(String groupId, String... topics) {
        TransactionalShareListenerContainer<K, V> container = new TransactionalShareListenerContainer<>(consumerFactory, template,
                Arrays.asList(topics), groupId, groupId, concurrency, pollTimeout, maxAttempts);
        container.setAutoStartup(autoStartup);
        return container;
    }

    /** @throws UnsupportedOperationException always: a share group needs a group id, use {@link #createContainer(String, String...)} */
    @Override
    public TransactionalShareListenerContainer<K, V> createContainer(String... topics) {
        throw new UnsupportedOperationException("A transactional share listener needs a group id: use createContainer(groupId, topics...)");
    }

    /** @throws UnsupportedOperationException always: share groups have no explicit partition assignment */
    @Override
    public TransactionalShareListenerContainer<K, V> createContainer(TopicPartitionOffset... topicPartitions) {
        throw new UnsupportedOperationException("Share groups have no explicit partition assignment");
    }

    /** @throws UnsupportedOperationException always: share groups subscribe to topics by name */
    @Override
    public TransactionalShareListenerContainer<K, V> createContainer(Pattern topicPattern) {
        throw new UnsupportedOperationException("Share groups subscribe to topics by name, not by pattern");
    }

    private synchronized int nextContainer() {
        return containers++;
    }
}
