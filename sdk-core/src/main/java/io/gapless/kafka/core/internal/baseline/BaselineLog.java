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

import io.gapless.kafka.core.spi.BaselineTopic;
import io.gapless.kafka.core.spi.StateTopicProvisioner;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.utils.Utils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The baseline log of one group: its partition of the baseline topic (the topic created on first
 * use), read into a {@link GroupBaseline} from where the last read stopped, and appended to with
 * the idempotent producer. Every call runs under the {@link BaselineClients}' lock.
 */
final class BaselineLog {
    private static final Logger log = LoggerFactory.getLogger(BaselineLog.class);

    private final BaselineClients clients;
    private final BaselineTopic baselineTopic;
    private final String topic;
    private final String group;
    private final Runnable onRead;
    private final Runnable onWrite;
    private final GroupBaseline baseline;
    private TopicPartition groupPartition;
    private boolean openFailed;

    BaselineLog(BaselineClients clients, BaselineTopic baselineTopic, String group, Runnable onRead, Runnable onWrite) {
        this.clients = clients;
        this.baselineTopic = baselineTopic;
        this.topic = baselineTopic.name();
        this.group = group;
        this.onRead = onRead;
        this.onWrite = onWrite;
        this.baseline = new GroupBaseline(group);
    }

    /** See {@link BaselineStore#warmUp()}. */
    void warmUp() {
        if (clients.closed()) {
            return;
        }
        try {
            read();
            clients.guarded("open the producer of", () -> onTopic(describeTopic(), () -> clients.producer().partitionsFor(topic)));
        } catch (InterruptException e) {
            throw e;
        } catch (RuntimeException e) {
            log.debug("Warming up the baseline of group {} failed; the first real use reports it", group, e);
        }
    }

    /** See {@link BaselineStore#open(Runnable)}. */
    boolean open(Runnable whenMissing) {
        return clients.guarded("open", () -> ensureOpen(whenMissing));
    }

    GroupBaseline cached() {
        return baseline;
    }

    /** Reads the group's partition from where the last read stopped up to its current end. */
    GroupBaseline read() {
        return clients.guarded("read", () -> {
            ensureOpen(() -> { });
            KafkaConsumer<byte[], byte[]> reader = clients.reader();
            return onTopic(aclOnTopic("Read"), () -> readUpTo(reader.endOffsets(List.of(groupPartition), clients.timeout()).get(groupPartition)));
        });
    }

    /** See {@link BaselineStore#readThrough(long)}. */
    GroupBaseline readThrough(long offset) {
        return clients.guarded("read", () -> {
            ensureOpen(() -> { });
            return onTopic(aclOnTopic("Read"), () -> readUpTo(offset + 1));
        });
    }

    private GroupBaseline readUpTo(long end) throws TimeoutException {
        Duration timeout = clients.timeout();
        KafkaConsumer<byte[], byte[]> reader = clients.reader();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (reader.position(groupPartition, timeout) < end) {
            if (System.nanoTime() > deadline) {
                throw new TimeoutException("reading " + groupPartition + " up to offset " + end);
            }
            for (ConsumerRecord<byte[], byte[]> r : reader.poll(Duration.ofMillis(100))) {
                BaselineRecord record = BaselineRecord.parse(r.value());
                if (record != null) {
                    baseline.apply(record, r.timestamp());
                }
            }
        }
        onRead.run();
        return baseline;
    }

    /** Whether the baseline topic exists, without creating it. */
    boolean topicExists() {
        return clients.guarded("describe the topic of", () -> StateTopicProvisioner.exists(clients.admin(), topic, clients.timeout()));
    }

    Optional<TopicPartition> partition() {
        return Optional.ofNullable(groupPartition);
    }

    /** Appends records to the group's partition, acknowledged by all in-sync replicas; returns the offset of the last one. */
    long append(List<BaselineRecord> records) {
        return clients.guarded("write", () -> {
            ensureOpen(() -> { });
            clients.producer();
            try {
                return onTopic(aclOnTopic("Write"), () -> send(records));
            } catch (Exception e) {
                clients.discardProducer();
                throw e;
            }
        });
    }

    private Long send(List<BaselineRecord> records) throws ExecutionException, InterruptedException, TimeoutException {
        KafkaProducer<byte[], byte[]> producer = clients.producer();
        List<Future<RecordMetadata>> sends = new ArrayList<>();
        for (BaselineRecord r : records) {
            sends.add(producer.send(new ProducerRecord<>(topic, groupPartition.partition(), BaselineRecord.key(r), BaselineRecord.value(r))));
        }
        long deadline = System.nanoTime() + clients.timeout().toNanos();
        long last = -1;
        for (Future<RecordMetadata> f : sends) {
            last = f.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS).offset();
        }
        onWrite.run();
        return last;
    }

    /** Opens the log (see {@link BaselineStore#open()}); returns whether this call created the baseline topic. */
    private boolean ensureOpen(Runnable whenMissing) throws Exception {
        if (groupPartition != null) {
            return false;
        }
        clients.admin();
        // The clients first: their set-up (and the producer's InitProducerId) overlaps with the topic's round trips.
        if (openFailed) {
            clients.discardProducer(); // an earlier open that failed half-way
        }
        openFailed = true;
        clients.producer();
        KafkaConsumer<byte[], byte[]> reader = clients.reader();
        log.debug("Group {}: baseline clients built", group);
        StateTopicProvisioner.Provisioned state = StateTopicProvisioner.ensure(clients.admin(),
                BaselineTopicSetup.spec(baselineTopic, clients.timeout()), whenMissing);
        // One group per topic by default (one partition); a shared topic spreads groups over its partitions.
        int partitions = state.description().partitions().size();
        TopicPartition mine = new TopicPartition(topic, Utils.toPositive(Utils.murmur2(group.getBytes(StandardCharsets.UTF_8))) % partitions);
        reader.assign(List.of(mine));
        // Offset 0 rather than seekToBeginning: no ListOffsets first. Below a log start moved by deleteRecords the
        // reader's auto.offset.reset=earliest takes it to the start, which is where seekToBeginning goes.
        reader.seek(mine, 0);
        groupPartition = mine;
        openFailed = false;
        log.debug("Group {} keeps its baseline in {}", group, groupPartition);
        return state.created();
    }

    private <T> T onTopic(String acl, BaselineClients.Call<T> call) throws Exception {
        return BaselineClients.needs(acl, ResourceType.TOPIC, topic, call);
    }

    private String aclOnTopic(String operation) {
        return operation + " on topic " + topic;
    }

    private String describeTopic() {
        return "Describe on topic " + topic + " (implied by Read or Write)";
    }
}
