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

import io.gapless.kafka.share.GaplessShareConfig;
import io.gapless.kafka.share.GaplessShareConsumer;
import io.gapless.kafka.share.TestShareConsumers;
import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.EmbeddedKafkaTest;
import io.gapless.kafka.testkit.TestTopics;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static io.gapless.kafka.share.txn.ShareTestSupport.committedValues;
import static io.gapless.kafka.share.txn.ShareTestSupport.configureGroup;
import static io.gapless.kafka.share.txn.ShareTestSupport.producerConfig;
import static io.gapless.kafka.share.txn.UpstreamScenarios.explicitConsumerConfig;
import static io.gapless.kafka.share.txn.UpstreamScenarios.lag;
import static io.gapless.kafka.share.txn.UpstreamScenarios.produceOneBatch;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A share group moving from the SDK's emulation to native KIP-1289 member by member, on Kafka 4.4
 * (which has no native KIP-1289: the native members are simulated with an injected capability
 * whose "Kafka" transactions do nothing, so they acknowledge through Kafka's consumer as usual).
 * Emulated and native members never mix: a native-capable member joining live emulated members
 * keeps emulating; an empty group moves, and a redelivered record the emulation already committed
 * is not processed again by a native member; emulated members are refused once it moved.
 */
@EmbeddedKafkaTest
class RollingUpgradeIT {
    private final EmbeddedKafka kafka;
    private final String group = TestTopics.unique("upgrade-group");
    private final String ledger = TestTopics.unique("upgrade-ledger");
    private final String modes = TestTopics.unique("upgrade-modes") + ".";
    private final TopicPartition tp = new TopicPartition(TestTopics.unique("upgrade-in"), 0);
    private final String output = TestTopics.unique("upgrade-out");
    private final List<AutoCloseable> closeables = new ArrayList<>();

    RollingUpgradeIT(EmbeddedKafka kafka) throws Exception {
        this.kafka = kafka;
        kafka.createTopic(tp.topic(), 1);
        kafka.createTopic(output, 1);
        configureGroup(kafka, group, 2000);
    }

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : closeables) {
            try {
                c.close();
            } catch (KafkaException ignored) {
                // a refused member may fail its close; the test already checked what matters
            }
        }
    }

    private Map<String, Object> consumerConfig() {
        Map<String, Object> c = explicitConsumerConfig(kafka, group, ledger);
        c.put(ShareTransactionConfigs.MODE_TOPIC_PREFIX_CONFIG, modes);
        return c;
    }

    private Map<String, Object> producerConfigFor(String txnId) {
        Map<String, Object> p = producerConfig(kafka, txnId, ledger);
        p.put(ShareTransactionConfigs.MODE_TOPIC_PREFIX_CONFIG, modes);
        return p;
    }

    /** A member on Kafka 4.4 as it is: emulated. */
    private GaplessShareConsumer<String, String> emulatedConsumer() {
        return track(new GaplessShareConsumer<>(consumerConfig()));
    }

    /** A member whose kafka-clients and broker (so the injected capability says) have KIP-1289. */
    private GaplessShareConsumer<String, String> nativeCapableConsumer(NativeSupport capability) {
        Map<String, Object> config = consumerConfig();
        KafkaShareConsumer<String, String> kafkaConsumer = new KafkaShareConsumer<>(GaplessShareConfig.withoutSdkKeys(config),
                new StringDeserializer(), new StringDeserializer());
        return track(TestShareConsumers.wrapping(kafkaConsumer, config, null, capability));
    }

    private TransactionalShareProducer<String, String> emulatedProducer(Map<String, Object> extra) {
        Map<String, Object> config = producerConfigFor(TestTopics.unique("txn"));
        config.putAll(extra);
        TransactionalShareProducer<String, String> p = track(new TransactionalShareProducer<>(config));
        p.initTransactions();
        return p;
    }

    private TransactionalShareProducer<String, String> nativeCapableProducer(NativeSupport capability) {
        Map<String, Object> config = producerConfigFor(TestTopics.unique("txn"));
        Map<String, Object> bytes = TransactionalShareProducerConfig.withoutSdkKeys(config);
        bytes.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        bytes.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        TransactionalShareProducer<String, String> p = track(TestProducers.wrapping(new KafkaProducer<>(bytes), config,
                new StringSerializer(), new StringSerializer(), capability));
        p.initTransactions();
        return p;
    }

    private <T extends AutoCloseable> T track(T c) {
        closeables.add(c);
        return c;
    }

    /** One poll and, if it returned records, one transaction in Kafka's shape; returns the values it committed. */
    private List<String> pollAndProcess(GaplessShareConsumer<String, String> c, TransactionalShareProducer<String, String> p) {
        ConsumerRecords<String, String> records = c.poll(Duration.ofMillis(200));
        if (records.isEmpty()) {
            return List.of();
        }
        List<String> values = new ArrayList<>();
        p.beginTransaction();
        try {
            for (ConsumerRecord<String, String> r : records) {
                p.send(new ProducerRecord<>(output, r.key(), r.value()));
                c.acknowledge(r, AcknowledgeType.ACCEPT);
                values.add(r.value());
            }
            p.sendShareAcknowledgementsToTransaction(c.acknowledgementsForTransaction(), c.shareGroupMetadata());
            p.commitTransaction();
            return values;
        } catch (UnsupportedVersionException fatal) {
            throw fatal;
        } catch (KafkaException e) {
            p.abortTransaction();
            return List.of();
        }
    }

    private static List<String> values(String prefix, int count) {
        return IntStream.range(0, count).mapToObj(i -> prefix + i).toList();
    }

    @Test
    void aNativeCapableMemberJoiningLiveEmulatedMembersKeepsEmulating() throws Exception {
        produceOneBatch(kafka, tp, values("a", 10).toArray(String[]::new));
        GaplessShareConsumer<String, String> emulated = emulatedConsumer();
        emulated.subscribe(List.of(tp.topic()));
        TransactionalShareProducer<String, String> emulatedProducer = emulatedProducer(Map.of());
        List<String> committed = new ArrayList<>();
        await().pollInSameThread().atMost(Duration.ofSeconds(30)).until(() -> {
            committed.addAll(pollAndProcess(emulated, emulatedProducer));
            return !committed.isEmpty();
        });

        NativeSupport capability = NativeSupport.supported();
        GaplessShareConsumer<String, String> joiner = nativeCapableConsumer(capability);
        assertEquals("emulate", joiner.transactionalAcknowledgementsMode(), "the group has a live emulated member");
        assertTrue(TransactionalShareGroups.nativeSince(Map.of("bootstrap.servers", kafka.bootstrapServers(),
                ShareTransactionConfigs.MODE_TOPIC_PREFIX_CONFIG, modes), group).isEmpty(), "the group did not move");
        joiner.subscribe(List.of(tp.topic()));
        TransactionalShareProducer<String, String> joinerProducer = nativeCapableProducer(capability);
        produceOneBatch(kafka, tp, values("b", 10).toArray(String[]::new));
        await().pollInSameThread().atMost(Duration.ofSeconds(60)).until(() -> {
            committed.addAll(pollAndProcess(emulated, emulatedProducer));
            committed.addAll(pollAndProcess(joiner, joinerProducer));
            return lag(kafka, group, tp) == 0;
        });
        assertEquals(List.of(), capability.calls, "nothing went to Kafka's native API");
        Set<String> expected = new HashSet<>(values("a", 10));
        expected.addAll(values("b", 10));
        List<String> out = committedValues(kafka, output);
        assertEquals(20, out.size(), "each input once: " + out);
        assertEquals(expected, new HashSet<>(out));
    }

    @Test
    void anEmptyGroupMovesAndEmulatedMembersAreRefusedUntilItReturns() throws Exception {
        Map<String, Object> operator = Map.of("bootstrap.servers", kafka.bootstrapServers(), ShareTransactionConfigs.MODE_TOPIC_PREFIX_CONFIG, modes);
        produceOneBatch(kafka, tp, values("a", 10).toArray(String[]::new));
        // An emulated member commits its first transaction and dies before the acknowledgements reach Kafka.
        AtomicBoolean crash = new AtomicBoolean(true);
        GaplessShareConsumer<String, String> dying = emulatedConsumer();
        dying.subscribe(List.of(tp.topic()));
        TransactionalShareProducer<String, String> dyingProducer = emulatedProducer(Map.of(TransactionPhase.LISTENER_CONFIG,
                (TransactionPhase.Listener) phase -> {
                    if (phase == TransactionPhase.COMMITTED && crash.getAndSet(false)) {
                        throw new IllegalStateException("simulated crash after the commit");
                    }
                }));
        List<String> committedByEmulation = new ArrayList<>();
        await().pollInSameThread().atMost(Duration.ofSeconds(30)).until(() -> {
            ConsumerRecords<String, String> records = dying.poll(Duration.ofMillis(200));
            if (records.isEmpty()) {
                return false;
            }
            dyingProducer.beginTransaction();
            for (ConsumerRecord<String, String> r : records) {
                dyingProducer.send(new ProducerRecord<>(output, r.key(), r.value()));
                dying.acknowledge(r, AcknowledgeType.ACCEPT);
                committedByEmulation.add(r.value());
            }
            dyingProducer.sendShareAcknowledgementsToTransaction(dying.acknowledgementsForTransaction(), dying.shareGroupMetadata());
            assertThrows(IllegalStateException.class, dyingProducer::commitTransaction);
            return true;
        });
        assertEquals(Set.copyOf(committedByEmulation), Set.copyOf(committedValues(kafka, output)), "committed, not acknowledged");
        closeables.remove(dying);
        dying.close(Duration.ofSeconds(5));   // its records come back to the group

        // The group is empty: the first native-capable member moves it.
        NativeSupport capability = NativeSupport.supported();
        GaplessShareConsumer<String, String> nativeMember = nativeCapableConsumer(capability);
        assertEquals("native", nativeMember.transactionalAcknowledgementsMode());
        assertTrue(TransactionalShareGroups.nativeSince(operator, group).isPresent(), "the move is recorded");
        nativeMember.subscribe(List.of(tp.topic()));
        TransactionalShareProducer<String, String> nativeProducer = nativeCapableProducer(capability);
        List<String> handedToNative = new ArrayList<>();
        await().pollInSameThread().atMost(Duration.ofSeconds(60)).until(() -> {
            handedToNative.addAll(pollAndProcess(nativeMember, nativeProducer));
            return lag(kafka, group, tp) == 0;
        });
        Set<String> overlap = handedToNative.stream().filter(committedByEmulation::contains).collect(Collectors.toSet());
        assertEquals(Set.of(), overlap, "what the emulation committed is not processed again after the move");
        assertEquals(Set.copyOf(values("a", 10)), new HashSet<>(new ArrayList<>() {{
            addAll(handedToNative);
            addAll(committedByEmulation);
        }}), "and nothing is lost");
        closeables.remove(nativeMember);
        nativeMember.close();

        // An emulated member (kafka-clients without KIP-1289) joining the moved group is refused at its first commit, then stops.
        produceOneBatch(kafka, tp, "late");
        GaplessShareConsumer<String, String> late = emulatedConsumer();
        late.subscribe(List.of(tp.topic()));
        TransactionalShareProducer<String, String> lateProducer = emulatedProducer(Map.of());
        UnsupportedVersionException refused = assertThrows(UnsupportedVersionException.class, () -> await().pollInSameThread()
                .atMost(Duration.ofSeconds(30)).until(() -> !pollAndProcess(late, lateProducer).isEmpty()));
        assertTrue(refused.getMessage().contains("share group " + group + " runs KIP-1289 natively"), refused.getMessage());
        assertFalse(committedValues(kafka, output).contains("late"), "its output was aborted");
        assertThrows(UnsupportedVersionException.class, () -> late.poll(Duration.ofMillis(100)), "the member stops");
        closeables.remove(late);
        late.close();

        // Every member stopped: the operator returns the group to the emulation, and emulated members work again.
        TransactionalShareGroups.returnToEmulation(operator, group);
        assertTrue(TransactionalShareGroups.nativeSince(operator, group).isEmpty());
        GaplessShareConsumer<String, String> again = emulatedConsumer();
        again.subscribe(List.of(tp.topic()));
        TransactionalShareProducer<String, String> againProducer = emulatedProducer(Map.of());
        await().pollInSameThread().atMost(Duration.ofSeconds(30)).until(() -> pollAndProcess(again, againProducer).contains("late"));
        assertEquals(1, committedValues(kafka, output).stream().filter("late"::equals).count());
    }
}
