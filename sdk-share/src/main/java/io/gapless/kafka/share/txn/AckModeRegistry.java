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

import io.gapless.kafka.core.spi.Authorization;
import io.gapless.kafka.core.spi.ConnectionConfigs;
import io.gapless.kafka.core.spi.StateTopicProvisioner;
import io.gapless.kafka.core.spi.StateTopics;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Which share groups run KIP-1289 natively: per group a small compacted topic
 * ({@code <gapless.share.mode.topic.prefix><group>}, like the group's ledger topic, so that ACLs
 * scope it to the group) holding one record, written when the group moves from the ack-ledger
 * emulation to Kafka's own transactional acknowledgements, removed (a tombstone) when an operator
 * moves it back. Emulated members read it before each commit and refuse to commit into a group
 * that moved; see sdk-share/RATIONALE.md ("Emulated and native members never mix") for why the
 * order of the two reads makes that safe. Helper clients are created on first use; used from one
 * thread at a time.
 */
final class AckModeRegistry implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(AckModeRegistry.class);
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    static final String NATIVE = "native";
    static final String LEDGER = "ledger";
    // The binding's key; the native claim's key is the group id itself. Older clients skip records they do not know.
    private static final String BINDING_KEY = "ledger-binding:";

    /** A group's move to native: when, and which client did it. */
    record NativeClaim(String group, Instant since, String byClient) {
        String describe() {
            return "share group " + group + " runs KIP-1289 natively since " + since + " (moved by client " + byClient + ")";
        }
    }

    /**
     * The ack-ledger topic a group's commits are checked against: its name and topic id, since
     * when, and which client bound it (the group's first ledger commit, or an operator accepting a
     * lost ledger).
     */
    record LedgerBinding(String group, String topic, Uuid topicId, Instant since, String byClient) {
        String describe() {
            return "ack-ledger topic " + topic + " (topic id " + topicId + ", bound " + since + " by client " + byClient + ")";
        }
    }

    private final Map<String, Object> connection;
    private final String topicPrefix;
    private final short replicationFactor;
    private final Map<String, NativeClaim> claims = new HashMap<>();
    private final Map<String, LedgerBinding> bindings = new HashMap<>();
    private final Set<String> readyTopics = new HashSet<>();
    private Admin admin;
    private KafkaConsumer<byte[], byte[]> reader;
    private KafkaProducer<byte[], byte[]> writer;

    /**
     * @param clientConfig      the owning client's settings (connection and security are used); {@code client.id} names the helpers
     * @param replicationFactor replication factor of a mode topic the SDK creates, -1 for the broker's default
     */
    AckModeRegistry(Map<String, Object> clientConfig, String topicPrefix, short replicationFactor) {
        this.connection = ConnectionConfigs.from(clientConfig, "ack-modes");
        this.topicPrefix = topicPrefix;
        this.replicationFactor = replicationFactor;
    }

    /** The mode topic of {@code group}. */
    String topicOf(String group) {
        return StateTopics.forGroup(topicPrefix, group);
    }

    /**
     * The group's native claim as its mode topic says now (read to its end, from the partition
     * leader), if it moved to native. Creates the topic on first use: an absent topic could be one
     * whose creation has not reached every broker yet, and would not prove that there is no claim.
     */
    Optional<NativeClaim> nativeClaim(String group) {
        readToEnd(group);
        return Optional.ofNullable(claims.get(group));
    }

    /** Records that {@code group} runs natively from now on; returns once the record is replicated. */
    NativeClaim claimNative(String group, String byClient) {
        String topic = ensureTopic(group);
        NativeClaim claim = new NativeClaim(group, Instant.now(), byClient);
        String value = NATIVE + ";" + claim.since().toEpochMilli() + ";" + byClient;
        send(new ProducerRecord<>(topic, 0, key(group), value.getBytes(StandardCharsets.UTF_8)));
        claims.put(group, claim);
        log.info("Share group {} moved to native KIP-1289 (recorded in {})", group, topic);
        return claim;
    }

    /**
     * The ack-ledger topic the group's commits are checked against (issue 22, finding 8), as the
     * mode topic said when it was last read to its end ({@code fresh}: read it now).
     */
    Optional<LedgerBinding> ledgerBinding(String group, boolean fresh) {
        String topic = topicOf(group);
        if (fresh || !reader().assignment().contains(new TopicPartition(topic, 0))) {
            readToEnd(group);
        }
        return Optional.ofNullable(bindings.get(group));
    }

    /**
     * Binds {@code group} to the ledger topic {@code ledgerTopic} with id {@code ledgerTopicId}.
     *
     * @param await return once the record is replicated; otherwise it is sent in the background (a
     *              failure is logged at WARN; {@link #close()} waits for it)
     */
    LedgerBinding bind(String group, String ledgerTopic, Uuid ledgerTopicId, String byClient, boolean await) {
        String topic = ensureTopic(group);
        LedgerBinding binding = new LedgerBinding(group, ledgerTopic, ledgerTopicId, Instant.now(), byClient);
        String value = LEDGER + ";" + ledgerTopic + ";" + ledgerTopicId + ";" + binding.since().toEpochMilli() + ";" + byClient;
        ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic, 0, (BINDING_KEY + group).getBytes(StandardCharsets.UTF_8),
                value.getBytes(StandardCharsets.UTF_8));
        if (await) {
            send(record);
        } else {
            writer().send(record, (metadata, e) -> {
                if (e != null) {
                    log.warn("Share group {} could not be bound to its ack-ledger topic {} in {} ({}); a deleted or replaced ledger will "
                            + "not be detected until a later client binds it (it needs Write on that topic)", group, ledgerTopic, topic,
                            e.toString());
                }
            });
        }
        bindings.put(group, binding);
        log.info("Share group {} is bound to ack-ledger topic {} (topic id {}), recorded in {}", group, ledgerTopic, ledgerTopicId, topic);
        return binding;
    }

    /** Removes the group's native claim: emulated members may take it over again. */
    void release(String group) {
        String topic = ensureTopic(group);
        send(new ProducerRecord<>(topic, 0, key(group), null));
        claims.remove(group);
        log.info("Share group {} returned to the ack-ledger emulation of KIP-1289 (tombstone in {})", group, topic);
    }

    private static byte[] key(String group) {
        return group.getBytes(StandardCharsets.UTF_8);
    }

    private void send(ProducerRecord<byte[], byte[]> record) {
        try {
            writer().send(record).get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaException("Interrupted while writing to " + record.topic(), e);
        } catch (ExecutionException e) {
            KafkaException failure = e.getCause() instanceof KafkaException ke ? ke : new KafkaException("Cannot write to " + record.topic(), e.getCause());
            throw Authorization.explainOrRethrow(failure, "Write on topic " + record.topic() + " (the KIP-1289 mode topic)",
                    ResourceType.TOPIC, record.topic());
        } catch (java.util.concurrent.TimeoutException e) {
            throw new TimeoutException("Timed out writing to " + record.topic(), e);
        }
    }

    private void readToEnd(String group) {
        String topic = ensureTopic(group);
        try {
            readToEnd(new TopicPartition(topic, 0));
        } catch (AuthorizationException e) {
            throw Authorization.explain(e, "Read on topic " + topic + " (the KIP-1289 mode topic)", ResourceType.TOPIC, topic);
        }
    }

    private void readToEnd(TopicPartition partition) {
        KafkaConsumer<byte[], byte[]> r = reader();
        if (!r.assignment().contains(partition)) {
            Set<TopicPartition> assignment = new HashSet<>(r.assignment());
            assignment.add(partition);
            r.assign(assignment);
            r.seekToBeginning(List.of(partition));
        }
        long end = r.endOffsets(List.of(partition), TIMEOUT).get(partition);
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (r.position(partition, TIMEOUT) < end) {
            if (System.nanoTime() > deadline) {
                throw new TimeoutException("Timed out reading " + partition + " up to offset " + end);
            }
            for (ConsumerRecord<byte[], byte[]> record : r.poll(Duration.ofMillis(100))) {
                String key = new String(record.key(), StandardCharsets.UTF_8);
                if (key.startsWith(BINDING_KEY)) {
                    readBinding(key.substring(BINDING_KEY.length()), record.value());
                } else if (record.value() == null) {
                    claims.remove(key);
                } else {
                    String[] parts = new String(record.value(), StandardCharsets.UTF_8).split(";", 3);
                    if (parts.length == 3 && NATIVE.equals(parts[0])) {
                        claims.put(key, new NativeClaim(key, Instant.ofEpochMilli(Long.parseLong(parts[1])), parts[2]));
                    }
                }
            }
        }
    }

    private void readBinding(String group, byte[] value) {
        if (value == null) {
            bindings.remove(group);
            return;
        }
        String[] parts = new String(value, StandardCharsets.UTF_8).split(";", 5);
        if (parts.length == 5 && LEDGER.equals(parts[0])) {
            bindings.put(group, new LedgerBinding(group, parts[1], Uuid.fromString(parts[2]), Instant.ofEpochMilli(Long.parseLong(parts[3])),
                    parts[4]));
        }
    }

    // Compacted (one live record), one partition; replicated like the ledger, since losing the record would let emulated members in.
    // Described first (by the provisioner): a topic the operator created needs no Create (Kafka refuses a create without it even
    // when the topic exists).
    private String ensureTopic(String group) {
        String topic = topicOf(group);
        if (readyTopics.contains(topic)) {
            return topic;
        }
        Optional<Short> rf = replicationFactor == -1 ? Optional.empty() : Optional.of(replicationFactor);
        try {
            StateTopicProvisioner.ensure(admin(), new StateTopicProvisioner.Spec(topic, "KIP-1289 mode topic", 1, rf,
                    Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT,
                            TopicConfig.UNCLEAN_LEADER_ELECTION_ENABLE_CONFIG, "false"),
                    TIMEOUT, StateTopicProvisioner.Check.NONE));
        } catch (ExecutionException e) {
            throw new KafkaException("Cannot create the KIP-1289 mode topic " + topic, e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaException("Interrupted while creating " + topic, e);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new TimeoutException("Timed out creating " + topic, e);
        }
        readyTopics.add(topic);
        return topic;
    }

    private Admin admin() {
        if (admin == null) {
            admin = Admin.create(connection);
        }
        return admin;
    }

    private KafkaConsumer<byte[], byte[]> reader() {
        if (reader == null) {
            Map<String, Object> config = ConnectionConfigs.withClientIdSuffix(connection, "reader");
            config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
            config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
            config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
            reader = new KafkaConsumer<>(config);
        }
        return reader;
    }

    private KafkaProducer<byte[], byte[]> writer() {
        if (writer == null) {
            Map<String, Object> config = ConnectionConfigs.withClientIdSuffix(connection, "writer");
            config.put(ProducerConfig.ACKS_CONFIG, "all");
            config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
            config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
            config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
            writer = new KafkaProducer<>(config);
        }
        return writer;
    }

    @Override
    public void close() {
        Duration t = Duration.ofSeconds(5);
        if (reader != null) {
            reader.close(t);
        }
        if (writer != null) {
            writer.close(t);
        }
        if (admin != null) {
            admin.close(t);
        }
    }
}
