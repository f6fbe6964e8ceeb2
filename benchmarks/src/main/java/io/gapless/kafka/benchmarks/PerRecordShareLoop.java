package io.gapless.kafka.benchmarks;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.ShareConsumer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The transactional share listener of sdk-spring's README on Spring's share container: one
 * transaction per record (begin, send, the record's acknowledgement, commit), here as a plain loop
 * on the SDK's clients so that only the transaction pattern differs from {@link LedgerShareLoop}.
 * Measured on at most {@value #MAX_RECORDS} records.
 */
public final class PerRecordShareLoop implements TransformLoop {
    /** A transaction per record is slow: the rate is measured on this many records at most. */
    static final int MAX_RECORDS = 2_000;
    private final ShareSdk sdk;

    public PerRecordShareLoop(ShareSdk sdk) {
        this.sdk = sdk;
    }

    @Override
    public String name() {
        return "per_record";
    }

    @Override
    public LoopOutcome run(BenchmarkContext ctx, String input, String output, int records, int batch, int run) {
        String group = ctx.unique("share-per-record-" + run);
        ShareGroups.startFromEarliest(ctx.kafka(), group);
        Map<String, Object> cc = ShareGroups.consumer(ctx.kafka(), group, batch);
        cc.put("share.acknowledgement.mode", LedgerShareLoop.TRANSACTIONAL_MODE);
        Map<String, Object> pc = ClientSettings.producer(ctx.kafka());
        pc.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, group + "-tx");
        LoopTimer timer = new LoopTimer("per_record run " + run);
        try (ShareConsumer<byte[], byte[]> consumer = sdk.newConsumer(cc, new ByteArrayDeserializer(), new ByteArrayDeserializer());
             Producer<byte[], byte[]> producer = sdk.newProducer(pc, new ByteArraySerializer(), new ByteArraySerializer())) {
            producer.initTransactions();
            consumer.subscribe(List.of(input));
            int target = Math.min(records, MAX_RECORDS);
            while (!timer.done(target)) {
                long pollStart = System.nanoTime();
                ConsumerRecords<byte[], byte[]> polled = consumer.poll(Duration.ofMillis(100));
                if (polled.isEmpty()) {
                    continue;
                }
                long sendStart = System.nanoTime();
                timer.batch(polled.count(), sendStart - pollStart);
                for (ConsumerRecord<byte[], byte[]> r : polled) {
                    producer.beginTransaction();
                    producer.send(new ProducerRecord<>(output, r.partition(), r.key(), TransformLoop.transform(r.value())));
                    long began = System.nanoTime();
                    sdk.sendAcceptsToTransaction(producer, consumer,
                            new ConsumerRecords<>(Map.of(new TopicPartition(r.topic(), r.partition()), List.of(r)), Map.of()));
                    producer.commitTransaction();
                    timer.commit(began);
                }
            }
        }
        return timer.outcome();
    }
}
