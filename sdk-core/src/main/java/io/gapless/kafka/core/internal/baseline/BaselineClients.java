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
package io.gapless.kafka.core.internal.baseline;

import io.gapless.kafka.core.BaselineUnavailableException;
import io.gapless.kafka.core.GaplessConsumerConfig;
import io.gapless.kafka.core.spi.Authorization;
import io.gapless.kafka.core.spi.ConnectionConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The helper clients of one group's baseline store (an Admin, an idempotent producer, a reader),
 * each built on first use, and the lock that serializes every call on them. {@link #close} never
 * waits for a call in progress: the caller that holds the lock closes the clients when it lets
 * go, and no call after {@code close} opens a client. An interrupt ends a call with Kafka's
 * {@link InterruptException}, the thread's interrupt flag set; every other failure is a
 * {@link BaselineUnavailableException} naming the group and the topic.
 */
final class BaselineClients {
    private static final Logger log = LoggerFactory.getLogger(BaselineClients.class);

    private final String topic;
    private final String group;
    private final Map<String, Object> connection;
    private final IsolationLevel isolation;
    private final Duration timeout;
    private final ReentrantLock lock = new ReentrantLock();
    private volatile boolean closed;
    private volatile Duration closeTimeout = Duration.ofSeconds(5);
    private boolean clientsClosed;
    private Admin admin;
    private KafkaProducer<byte[], byte[]> producer;
    private KafkaConsumer<byte[], byte[]> reader;

    BaselineClients(String topic, String group, Map<String, Object> connection, IsolationLevel isolation, Duration timeout) {
        this.topic = topic;
        this.group = group;
        this.connection = connection;
        this.isolation = isolation;
        this.timeout = timeout;
    }

    /** A call on the clients; any failure is explained by {@link #guarded}. */
    @FunctionalInterface
    interface Call<T> {
        T call() throws Exception;
    }

    Duration timeout() {
        return timeout;
    }

    boolean closed() {
        return closed;
    }

    Admin admin() {
        if (admin == null) {
            admin = Admin.create(ConnectionConfigs.withClientIdSuffix(connection, "admin"));
        }
        return admin;
    }

    /** The Admin if a call built it already, without building it. */
    Optional<Admin> startedAdmin() {
        return Optional.ofNullable(admin);
    }

    KafkaProducer<byte[], byte[]> producer() {
        if (producer == null) {
            Map<String, Object> p = ConnectionConfigs.withClientIdSuffix(connection, "producer");
            p.put(ProducerConfig.ACKS_CONFIG, "all");
            p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
            p.put(ProducerConfig.LINGER_MS_CONFIG, 0);
            producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
        }
        return producer;
    }

    /** The reader, unassigned until the baseline log assigns it: offset look-ups for user partitions need nothing of the baseline topic. */
    KafkaConsumer<byte[], byte[]> reader() {
        if (reader == null) {
            Map<String, Object> c = ConnectionConfigs.withClientIdSuffix(connection, "reader");
            c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
            c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
            // The baseline is written without transactions; the user's level matters for the offset look-ups made for it.
            c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation.toString().toLowerCase(Locale.ROOT));
            // The reader only reads up to a known end offset: a long-polling fetch in flight would delay the next read.
            c.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 10);
            reader = new KafkaConsumer<>(c, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        }
        return reader;
    }

    /**
     * A failed write may leave the idempotent producer in a fatal state for good (a refused
     * InitProducerId is a ClusterAuthorizationException there): the next write starts a new one.
     */
    void discardProducer() {
        if (producer != null) {
            producer.close(Duration.ZERO);
            producer = null;
        }
    }

    /** Runs {@code call} under the lock; {@code what} names the call in a {@link BaselineUnavailableException}. */
    <T> T guarded(String what, Call<T> call) {
        try {
            lock.lockInterruptibly();
        } catch (InterruptedException e) {
            throw new InterruptException(e);
        }
        try {
            if (closed) {
                throw new IllegalStateException("The baseline store of group " + group + " is closed");
            }
            return call.call();
        } catch (InterruptedException e) {
            throw new InterruptException(e);
        } catch (InterruptException | BaselineUnavailableException | IllegalStateException | NoTopicIdsException e) {
            throw e;
        } catch (Exception e) {
            throw unavailable(what, e);
        } finally {
            if (closed && !clientsClosed) {
                // close() ran while this call held the lock: this thread closes the clients, interrupt or not.
                boolean interrupted = Thread.interrupted();
                closeClients(closeTimeout);
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
            lock.unlock();
        }
    }

    /** Runs {@code call}; a refusal by the broker comes out as Kafka's own exception type, naming {@code acl}. */
    static <T> T needs(String acl, ResourceType type, String name, Call<T> call) throws Exception {
        try {
            return call.call();
        } catch (Exception e) {
            AuthorizationException explained = Authorization.explain(e, acl, type, name);
            if (explained != null) {
                throw explained;
            }
            throw e;
        }
    }

    static <T> T needs(String acl, Call<T> call) throws Exception {
        return needs(acl, null, null, call);
    }

    private BaselineUnavailableException unavailable(String what, Exception e) {
        Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
        if (cause instanceof BaselineUnavailableException bue) {
            return bue;
        }
        String why = cause instanceof TimeoutException ? "timed out after " + timeout.toMillis() + " ms ("
                + GaplessConsumerConfig.BASELINE_TIMEOUT_MS_CONFIG + ")" : cause.toString();
        return new BaselineUnavailableException("Cannot " + what + " the group baseline of group " + group + " in topic "
                + topic + ": " + why, cause);
    }

    /**
     * Closes the clients, each within {@code timeout}. Does not wait for a call in progress on
     * another thread: that call closes them when it returns. Idempotent.
     */
    void close(Duration timeout) {
        closeTimeout = timeout;
        closed = true;
        if (lock.tryLock()) {
            try {
                if (!clientsClosed) {
                    closeClients(timeout);
                }
            } finally {
                lock.unlock();
            }
        }
    }

    private void closeClients(Duration timeout) {
        clientsClosed = true;
        closeQuietly(reader, timeout);
        closeQuietly(producer, timeout);
        closeQuietly(admin, timeout);
    }

    private static void closeQuietly(AutoCloseable c, Duration timeout) {
        if (c == null) {
            return;
        }
        try {
            if (c instanceof KafkaProducer<?, ?> p) {
                p.close(timeout);
            } else if (c instanceof KafkaConsumer<?, ?> k) {
                k.close(CloseOptions.timeout(timeout));
            } else if (c instanceof Admin a) {
                a.close(timeout);
            } else {
                c.close();
            }
        } catch (Exception e) {
            log.debug("Ignoring failure closing a baseline client", e);
        }
    }
}
