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

import io.gapless.kafka.core.spi.StateTopics;
import io.gapless.kafka.share.GaplessShareConsumer;
import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.TestTopics;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static io.gapless.kafka.share.txn.ShareTestSupport.configureGroup;
import static io.gapless.kafka.share.txn.ShareTestSupport.consumerConfig;
import static io.gapless.kafka.share.txn.ShareTestSupport.produce;
import static io.gapless.kafka.share.txn.ShareTestSupport.producerConfig;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The ack-ledger topic on a three-broker cluster (issue 12, holes 6 and 8): one topic per share
 * group, created durable; an existing topic whose settings could drop committed entries, or that
 * has more than one partition, is refused with an error naming the topic and the setting.
 */
class LedgerTopicIT {
    private static EmbeddedKafka kafka;

    @BeforeAll
    static void start() {
        kafka = EmbeddedKafka.builder().nodes(3).start();
    }

    @AfterAll
    static void stop() {
        kafka.close();
    }

    /** One transaction of {@code group} acknowledging one record of a fresh input topic; the ledger topic as configured. */
    private static void commitOne(String group, Map<String, Object> ledgerSettings) throws Exception {
        String input = TestTopics.unique("lt-in");
        String output = TestTopics.unique("lt-out");
        kafka.createTopic(input, 1);
        kafka.createTopic(output, 1);
        configureGroup(kafka, group, 5000);
        produce(kafka, input, 1);
        Map<String, Object> c = consumerConfig(kafka, group, "unused");
        c.remove(io.gapless.kafka.share.GaplessShareConfig.LEDGER_TOPIC_CONFIG);
        c.putAll(ledgerSettings);
        Map<String, Object> p = producerConfig(kafka, TestTopics.unique("txn"), "unused");
        p.remove(io.gapless.kafka.share.GaplessShareConfig.LEDGER_TOPIC_CONFIG);
        p.putAll(ledgerSettings);
        try (GaplessShareConsumer<String, String> consumer = new GaplessShareConsumer<>(c);
             TransactionalShareProducer<String, String> producer = new TransactionalShareProducer<>(p)) {
            consumer.subscribe(List.of(input));
            producer.initTransactions();
            ConsumerRecords<String, String>[] polled = new ConsumerRecords[1];
            await().pollInSameThread().atMost(Duration.ofSeconds(30)).until(() -> !(polled[0] = consumer.poll(Duration.ofMillis(200))).isEmpty());
            producer.beginTransaction();
            polled[0].forEach(r -> producer.send(new ProducerRecord<>(output, r.key(), r.value())));
            producer.sendShareAcknowledgementsToTransaction(ShareAcknowledgements.fromRecords(polled[0], AcknowledgeType.ACCEPT),
                    consumer.shareGroupMetadata());
            producer.commitTransaction();
        }
    }

    private static Map<String, ConfigEntry> topicConfig(String topic) throws Exception {
        ConfigResource r = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        Config config = kafka.admin().describeConfigs(List.of(r)).all().get(30, TimeUnit.SECONDS).get(r);
        Map<String, ConfigEntry> m = new HashMap<>();
        config.entries().forEach(e -> m.put(e.name(), e));
        return m;
    }

    @Test
    void eachShareGroupGetsItsOwnDurableLedgerTopic() throws Exception {
        String group = TestTopics.unique("lt-group");
        commitOne(group, Map.of());
        String topic = StateTopics.forGroup("__gapless_ledger.", group);
        assertTrue(kafka.admin().listTopics().names().get().contains(topic), "no ledger topic " + topic + " for group " + group);
        TopicDescription d = kafka.admin().describeTopics(List.of(topic)).allTopicNames().get().get(topic);
        assertEquals(1, d.partitions().size());
        assertEquals(3, d.partitions().get(0).replicas().size(), "replication factor min(3, brokers)");
        Map<String, ConfigEntry> config = topicConfig(topic);
        for (Map.Entry<String, String> expected : Map.of("min.insync.replicas", "2", "cleanup.policy", "delete", "retention.ms", "-1",
                "retention.bytes", "-1", "unclean.leader.election.enable", "false").entrySet()) {
            ConfigEntry e = config.get(expected.getKey());
            assertEquals(expected.getValue(), e.value(), expected.getKey());
            assertEquals(ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG, e.source(), expected.getKey() + " set on the topic itself");
        }
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource({
            "cleanup.policy, compact",
            "cleanup.policy, 'compact,delete'",
            "retention.ms, 86400000",
            "retention.bytes, 1073741824",
            "unclean.leader.election.enable, true",
            "partitions, 2",
            "replication.factor, 1",
    })
    void anExistingLedgerTopicThatCouldLoseEntriesIsRefused(String setting, String value) throws Exception {
        String topic = TestTopics.unique("lt-unsafe");
        Map<String, String> configs = new HashMap<>(Map.of("cleanup.policy", "delete", "retention.ms", "-1", "retention.bytes", "-1",
                "min.insync.replicas", "2"));
        int partitions = 1;
        short rf = 3;
        switch (setting) {
            case "partitions" -> partitions = Integer.parseInt(value);
            case "replication.factor" -> {
                rf = Short.parseShort(value);
                configs.put("min.insync.replicas", "1");
            }
            default -> configs.put(setting, value);
        }
        kafka.admin().createTopics(List.of(new NewTopic(topic, Optional.of(partitions), Optional.of(rf)).configs(configs)))
                .all().get(30, TimeUnit.SECONDS);
        Exception e = assertThrows(Exception.class, () -> commitOne(TestTopics.unique("lt-group"), Map.of(
                io.gapless.kafka.share.GaplessShareConfig.LEDGER_TOPIC_CONFIG, topic)),
                "a ledger topic with " + setting + "=" + value + " was used");
        Throwable t = e;
        while (!(t instanceof org.apache.kafka.common.config.ConfigException || t instanceof IllegalStateException) && t.getCause() != null) {
            t = t.getCause();
        }
        assertTrue(t instanceof org.apache.kafka.common.config.ConfigException || t instanceof IllegalStateException, e.toString());
        assertTrue(t.getMessage().contains(topic) && t.getMessage().contains(setting), t.getMessage());
    }
}
