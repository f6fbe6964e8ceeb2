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

import io.gapless.kafka.share.GaplessShareConsumer;
import io.gapless.kafka.testkit.EmbeddedKafka;
import io.gapless.kafka.testkit.EmbeddedKafkaTest;
import org.apache.kafka.clients.admin.AlterShareGroupOffsetsResult;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static io.gapless.kafka.share.txn.ShareTestSupport.configureGroup;
import static io.gapless.kafka.share.txn.ShareTestSupport.produce;
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
    private final ShareTxnFixture f;
    private final String input;
    private final String group;

    TransactionalShareIncarnationIT(EmbeddedKafka kafka) throws Exception {
        this.kafka = kafka;
        this.f = new ShareTxnFixture(kafka, "inc");
        this.input = f.input;
        this.group = f.group;
        configureGroup(kafka, group, 2000);
        produce(kafka, input, RECORDS, "v");
    }

    @AfterEach
    void close() {
        f.close();
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
        GaplessShareConsumer<String, String> c = f.consumer();
        TransactionalShareProducer<String, String> p = f.producer();
        f.drain(p, c);
        assertEquals(expected(1, "v"), f.outputCounts());

        // Within the consumer's topic-id cache: same name, same offsets, a new topic id.
        kafka.deleteTopics(input);
        await().atMost(Duration.ofSeconds(30)).until(() -> !kafka.admin().listTopics().names().get().contains(input));
        kafka.createTopic(input, 1);
        produce(kafka, input, RECORDS, "w");
        f.drain(p, c);
        assertEquals(expected(1, "v", "w"), f.outputCounts(), "every record of the re-created topic exactly once in the output");
    }

    @Test
    void offsetsResetBackwardsOverCommittedRecordsAreAcknowledgedAsRecorded() throws Exception {
        GaplessShareConsumer<String, String> c = f.consumer();
        TransactionalShareProducer<String, String> p = f.producer();
        f.drain(p, c);
        c.close();
        p.close();
        // The operator resets the (now empty) group to the beginning: the records are to be processed again.
        TopicPartition tp = new TopicPartition(input, 0);
        await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> {
            AlterShareGroupOffsetsResult r = kafka.admin().alterShareGroupOffsets(group, Map.of(tp, 0L));
            r.all().get(10, TimeUnit.SECONDS);
            return true;
        });
        f.drain(f.producer(), f.consumer());
        assertEquals(expected(1, "v"), f.outputCounts(), "a record a committed entry holds is never output again");
    }

    @Test
    void aShareGroupDeletedAndRecreatedAcknowledgesCommittedRecordsAsRecorded() throws Exception {
        GaplessShareConsumer<String, String> c = f.consumer();
        TransactionalShareProducer<String, String> p = f.producer();
        f.drain(p, c);
        c.close();
        p.close();
        await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> {
            kafka.admin().deleteShareGroups(List.of(group)).all().get(10, TimeUnit.SECONDS);
            return true;
        });
        configureGroup(kafka, group, 2000);
        f.drain(f.producer(), f.consumer());
        assertEquals(expected(1, "v"), f.outputCounts(), "a record a committed entry holds is never output again");
    }
}
