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

import io.gapless.kafka.share.GaplessShareConfig;
import io.gapless.kafka.share.GaplessShareConsumer;
import io.gapless.kafka.share.txn.TransactionalShareProducer;
import io.gapless.kafka.spring.GaplessShareConsumerFactory;
import org.apache.kafka.clients.consumer.ShareConsumer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.serialization.Serializer;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.core.ProducerFactory;
import org.springframework.kafka.core.ShareConsumerFactory;
import org.springframework.kafka.listener.MessageListenerContainer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A share-group listener container whose listener's output and acknowledgements commit together
 * (KIP-1289), one transaction per poll: it polls, hands the listener each record (or the whole
 * poll, for a {@code BatchMessageListener}), lets it send through the {@link KafkaTemplate} (which
 * joins the poll's transaction: the listener makes no transaction call), then sends the share
 * acknowledgements into the same transaction and commits. A listener exception aborts the
 * transaction and the poll's records come back; a record that failed {@code maxAttempts} times is
 * rejected ({@code AcknowledgeType.REJECT}) in a transaction with the others' output.
 *
 * <p>Each consumer thread has its own {@link GaplessShareConsumer} (from the share consumer factory,
 * with {@code share.acknowledgement.mode=transactional}) and its own
 * {@link TransactionalShareProducer} built from the template's producer factory settings, with
 * {@code transactional.id} {@code <transaction-id-prefix><listener id>-<thread>}: as with Spring's
 * own transactions, give each application instance its own prefix. That factory's listeners are
 * told of these producers (Boot's Micrometer listener binds their meters); its producer
 * post-processors are not applied to them.
 *
 * <p>Built by {@link TransactionalShareListenerContainerFactory}; {@code @KafkaListener(containerFactory
 * = "transactionalShareListenerContainerFactory")} methods are record or batch listeners.
 *
 * @since 0.1.0
 */
public class TransactionalShareListenerContainer<K, V> implements MessageListenerContainer {
    static final String TRANSACTION_ID_PREFIX_PROPERTY = "spring.kafka.producer.transaction-id-prefix";

    private final ShareConsumerFactory<K, V> consumerFactory;
    private final KafkaTemplate<?, ?> template;
    private final List<String> topics;
    private final String groupId;
    private final String listenerId;
    private final int concurrency;
    private final Duration pollTimeout;
    private final int maxAttempts;
    private volatile Object messageListener;
    private volatile boolean autoStartup = true;
    private final List<ShareTransactionLoop<K, V>> loops = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();
    private final Map<String, ShareConsumer<K, V>> consumers = new LinkedHashMap<>();

    /**
     * @param consumerFactory a factory creating {@link GaplessShareConsumer}s
     * @param template        the template the listener sends with; its producer factory must be transactional
     * @param topics          the topics to subscribe to
     * @param groupId         the share group
     * @param listenerId      the container's id (thread names, {@code transactional.id}s)
     * @param concurrency     consumer threads, at least 1
     * @param pollTimeout     how long one poll waits
     * @param maxAttempts     failed deliveries of a record before it is rejected, at least 1
     * @throws IllegalArgumentException if a count is below 1, topics or ids are empty
     * @throws NullPointerException if an argument is null
     * @since 0.1.0
     */
    public TransactionalShareListenerContainer(ShareConsumerFactory<K, V> consumerFactory, KafkaTemplate<?, ?> template,
                                               List<String> topics, String groupId, String listenerId, int concurrency,
                                               Duration pollTimeout, int maxAttempts) {
        this.consumerFactory = Objects.requireNonNull(consumerFactory, "consumerFactory");
        this.template = Objects.requireNonNull(template, "template");
        this.topics = List.copyOf(Objects.requireNonNull(topics, "topics"));
        this.groupId = Objects.requireNonNull(groupId, "groupId");
        this.listenerId = Objects.requireNonNull(listenerId, "listenerId");
        this.pollTimeout = Objects.requireNonNull(pollTimeout, "pollTimeout");
        if (this.topics.isEmpty() || groupId.isBlank() || listenerId.isBlank()) {
            throw new IllegalArgumentException("A transactional share listener needs topics, a group id and an id; got topics="
                    + topics + ", groupId='" + groupId + "', id='" + listenerId + "'");
        }
        if (concurrency < 1) {
            throw new IllegalArgumentException("gapless.share.listener.concurrency must be at least 1, got " + concurrency);
        }
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("gapless.share.listener.max-attempts must be at least 1, got " + maxAttempts);
        }
        this.concurrency = concurrency;
        this.maxAttempts = maxAttempts;
    }

    @Override
    public void setupMessageListener(Object messageListener) {
        new ListenerInvoker<K, V>(messageListener);   // refuses what it cannot call, now rather than at start
        this.messageListener = messageListener;
    }

    /**
     * Creates the consumers and producers and starts the threads.
     *
     * @throws IllegalStateException if the template's producer factory is not transactional (no
     *                               {@code spring.kafka.producer.transaction-id-prefix}), the
     *                               consumer factory does not create {@code GaplessShareConsumer}s, or no listener is set
     */
    @Override
    public synchronized void start() {
        if (isRunning()) {
            return;
        }
        ProducerFactory<?, ?> producerFactory = template.getProducerFactory();
        if (!producerFactory.transactionCapable() || producerFactory.getTransactionIdPrefix() == null) {
            throw new IllegalStateException("Transactional share listener '" + listenerId + "' needs a transactional KafkaTemplate:"
                    + " set " + TRANSACTION_ID_PREFIX_PROPERTY + " (or a transactionIdPrefix on the template's producer factory)");
        }
        if (messageListener == null) {
            throw new IllegalStateException("Transactional share listener '" + listenerId + "' has no message listener");
        }
        if (!(consumerFactory instanceof GaplessShareConsumerFactory)) {
            throw new IllegalStateException("Transactional share listener '" + listenerId + "' needs GaplessShareConsumers: its share"
                    + " consumer factory is a " + consumerFactory.getClass().getName() + "; use GaplessShareConsumerFactory");
        }
        DeliveryAttempts attempts = new DeliveryAttempts();
        for (int i = 0; i < concurrency; i++) {
            String clientId = listenerId + "-" + i;
            ShareConsumer<K, V> created = consumerFactory.createShareConsumer(groupId, clientId,
                    Map.of(GaplessShareConfig.ACKNOWLEDGEMENT_MODE_CONFIG, GaplessShareConfig.ACKNOWLEDGEMENT_MODE_TRANSACTIONAL));
            if (!(created instanceof GaplessShareConsumer<K, V> consumer)) {
                created.close();
                throw new IllegalStateException("Transactional share listener '" + listenerId + "': its share consumer factory ("
                        + consumerFactory.getClass().getName() + ") created a " + created.getClass().getName() + ", not a GaplessShareConsumer");
            }
            String transactionalId = producerFactory.getTransactionIdPrefix() + clientId;
            ShareTransactionLoop<K, V> loop = new ShareTransactionLoop<>(consumer, () -> newProducer(producerFactory, transactionalId),
                    producerFactory, new ListenerInvoker<>(messageListener), topics, pollTimeout, maxAttempts, attempts);
            Thread thread = new Thread(loop, clientId);
            consumers.put(clientId, consumer);
            loops.add(loop);
            threads.add(thread);
        }
        threads.forEach(Thread::start);
    }

    @SuppressWarnings("unchecked")
    private TransactionalShareProducer<K, V> newProducer(ProducerFactory<?, ?> factory, String transactionalId) {
        Map<String, Object> props = new HashMap<>(factory.getConfigurationProperties());
        // The SDK's ledger settings must be the same on consumer and producer.
        consumerFactory.getConfigurationProperties().forEach((k, v) -> {
            if (k.startsWith(GaplessShareConfig.PREFIX)) {
                props.putIfAbsent(k, v);
            }
        });
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        Serializer<K> keySerializer = (Serializer<K>) factory.getKeySerializerSupplier().get();
        Serializer<V> valueSerializer = (Serializer<V>) factory.getValueSerializerSupplier().get();
        // The factory's listeners see these producers as they see its own (Boot's Micrometer listener binds their meters).
        List<ProducerFactory.Listener<K, V>> listeners = (List<ProducerFactory.Listener<K, V>>) (List<?>) factory.getListeners();
        ListenedShareProducer<K, V> producer = keySerializer == null && valueSerializer == null
                ? new ListenedShareProducer<>(props, transactionalId, listeners)
                : new ListenedShareProducer<>(props, keySerializer, valueSerializer, transactionalId, listeners);
        producer.initTransactions();
        producer.announce();
        return producer;
    }

    /** Stops the threads after their current poll and its transaction (up to one poll timeout); waits up to 30 seconds each. */
    @Override
    public synchronized void stop() {
        loops.forEach(ShareTransactionLoop::stop);
        for (Thread thread : threads) {
            try {
                thread.join(Duration.ofSeconds(30).toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        loops.clear();
        threads.clear();
        consumers.clear();
    }

    @Override
    public synchronized boolean isRunning() {
        return threads.stream().anyMatch(Thread::isAlive);
    }

    @Override
    public void destroy() {
        stop();
    }

    @Override
    public boolean isAutoStartup() {
        return autoStartup;
    }

    @Override
    public void setAutoStartup(boolean autoStartup) {
        this.autoStartup = autoStartup;
    }

    @Override
    public String getGroupId() {
        return groupId;
    }

    @Override
    public String getListenerId() {
        return listenerId;
    }

    @Override
    public synchronized Map<String, Map<MetricName, ? extends Metric>> metrics() {
        Map<String, Map<MetricName, ? extends Metric>> out = new LinkedHashMap<>();
        consumers.forEach((id, consumer) -> out.put(id, consumer.metrics()));
        return out;
    }
}
