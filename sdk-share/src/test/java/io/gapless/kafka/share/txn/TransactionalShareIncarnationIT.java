package io.gapless.kafka.share.txn;

import io.gapless.kafka.share.GaplessShareConsumer;
import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.EmbeddedKafkaTest;
import io.gapless.kafka.testkit.TestTopics;
import org.apache.kafka.clients.admin.AlterShareGroupOffsetsResult;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static io.gapless.kafka.share.txn.ShareTestSupport.allAcknowledged;
import static io.gapless.kafka.share.txn.ShareTestSupport.committedValues;
import static io.gapless.kafka.share.txn.ShareTestSupport.configureGroup;
import static io.gapless.kafka.share.txn.ShareTestSupport.consumerConfig;
import static io.gapless.kafka.share.txn.ShareTestSupport.produce;
import static io.gapless.kafka.share.txn.ShareTestSupport.producerConfig;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The ledger across incarnations of what it keys (issue 12, holes 3 and 4; issue 22): an input
 * topic deleted and re-created is a new incarnation (new topic id): its records are processed once.
 * A share group whose offsets are reset backwards, or deleted and re-created, is not told apart
 * from a stale holder: Kafka 4.4 shows nothing that identifies it (ShareAcknowledgeFactsIT: the
 * reported start offset trails at 0 before and after a reset) and a delivery count proves nothing
 * (issue 22). Records a committed entry holds are acknowledged as recorded, never output twice.
 */
@EmbeddedKafkaTest
class TransactionalShareIncarnationIT {
    private static final int RECORDS = 10;

    private final EmbeddedKafka kafka;
    private final String input = TestTopics.unique("inc-in");
    private final String output = TestTopics.unique("inc-out");
    private final String group = TestTopics.unique("inc-group");
    private final String ledger = TestTopics.unique("inc-ledger");
    private final List<AutoCloseable> closeables = new ArrayList<>();

    TransactionalShareIncarnationIT(EmbeddedKafka kafka) throws Exception {
        this.kafka = kafka;
        kafka.createTopic(input, 1);
        kafka.createTopic(output, 1);
        configureGroup(kafka, group, 2000);
        produce(kafka, input, RECORDS, "v");
    }

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : closeables) {
            c.close();
        }
    }

    private GaplessShareConsumer<String, String> consumer() {
        GaplessShareConsumer<String, String> c = new GaplessShareConsumer<>(consumerConfig(kafka, group, ledger));
        c.subscribe(List.of(input));
        closeables.add(c);
        return c;
    }

    private TransactionalShareProducer<String, String> producer() {
        TransactionalShareProducer<String, String> p = new TransactionalShareProducer<>(producerConfig(kafka, TestTopics.unique("txn"), ledger));
        closeables.add(p);
        p.initTransactions();
        return p;
    }

    /** Copies records to the output transactionally until the group has acknowledged everything; refusals are retried. */
    private void drain(TransactionalShareProducer<String, String> p, GaplessShareConsumer<String, String> c) {
        await().pollInSameThread().atMost(Duration.ofSeconds(60)).until(() -> {
            ConsumerRecords<String, String> records = c.poll(Duration.ofMillis(200));
            if (!records.isEmpty()) {
                p.beginTransaction();
                try {
                    for (ConsumerRecord<String, String> r : records) {
                        p.send(new ProducerRecord<>(output, r.key(), r.value()));
                    }
                    p.sendShareAcknowledgementsToTransaction(ShareAcknowledgements.fromRecords(records, AcknowledgeType.ACCEPT),
                            c.shareGroupMetadata());
                    p.commitTransaction();
                } catch (KafkaException e) {
                    p.abortTransaction();
                }
            }
            return allAcknowledged(kafka, group, input);
        });
    }

    private Map<String, Integer> outputCounts() {
        Map<String, Integer> counts = new TreeMap<>();
        committedValues(kafka, output).forEach(v -> counts.merge(v, 1, Integer::sum));
        return counts;
    }

    private static Map<String, Integer> expected(int times, String... prefixes) {
        Map<String, Integer> m = new TreeMap<>();
        for (String prefix : prefixes) {
            IntStream.range(0, RECORDS).forEach(i -> m.put(prefix + i, times));
        }
        return m;
    }

    @Test
    void aTopicDeletedAndRecreatedIsProcessedAgainFromItsNewRecords() throws Exception {
        GaplessShareConsumer<String, String> c = consumer();
        TransactionalShareProducer<String, String> p = producer();
        drain(p, c);
        assertEquals(expected(1, "v"), outputCounts());

        // Within the consumer's topic-id cache: same name, same offsets, a new topic id.
        kafka.deleteTopics(input);
        await().atMost(Duration.ofSeconds(30)).until(() -> !kafka.admin().listTopics().names().get().contains(input));
        kafka.createTopic(input, 1);
        produce(kafka, input, RECORDS, "w");
        drain(p, c);
        assertEquals(expected(1, "v", "w"), outputCounts(), "every record of the re-created topic exactly once in the output");
    }

    @Test
    void offsetsResetBackwardsOverCommittedRecordsAreAcknowledgedAsRecorded() throws Exception {
        GaplessShareConsumer<String, String> c = consumer();
        TransactionalShareProducer<String, String> p = producer();
        drain(p, c);
        c.close();
        p.close();
        // The operator resets the (now empty) group to the beginning: the records are to be processed again.
        TopicPartition tp = new TopicPartition(input, 0);
        await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> {
            AlterShareGroupOffsetsResult r = kafka.admin().alterShareGroupOffsets(group, Map.of(tp, 0L));
            r.all().get(10, TimeUnit.SECONDS);
            return true;
        });
        drain(producer(), consumer());
        assertEquals(expected(1, "v"), outputCounts(), "a record a committed entry holds is never output again");
    }

    @Test
    void aShareGroupDeletedAndRecreatedAcknowledgesCommittedRecordsAsRecorded() throws Exception {
        GaplessShareConsumer<String, String> c = consumer();
        TransactionalShareProducer<String, String> p = producer();
        drain(p, c);
        c.close();
        p.close();
        await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> {
            kafka.admin().deleteShareGroups(List.of(group)).all().get(10, TimeUnit.SECONDS);
            return true;
        });
        configureGroup(kafka, group, 2000);
        drain(producer(), consumer());
        assertEquals(expected(1, "v"), outputCounts(), "a record a committed entry holds is never output again");
    }
}
