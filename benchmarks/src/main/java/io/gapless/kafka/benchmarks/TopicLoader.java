package io.gapless.kafka.benchmarks;

import io.gapless.kafka.testkit.EmbeddedKafka;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

import java.util.Random;

/** Fills a topic with fixed-size records spread evenly over its partitions. */
public final class TopicLoader {
    /** Record value size used by every throughput benchmark. */
    public static final int VALUE_BYTES = 100;

    private TopicLoader() {
    }

    /** A {@value #VALUE_BYTES}-byte value with random content (compression is off, so content does not matter). */
    public static byte[] value() {
        byte[] v = new byte[VALUE_BYTES];
        new Random(42).nextBytes(v);
        return v;
    }

    /** Creates {@code topic} with {@code partitions} partitions and writes {@code records} records round-robin. */
    public static void load(EmbeddedKafka kafka, String topic, int partitions, int records) {
        kafka.createTopic(topic, partitions);
        byte[] value = value();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(ClientSettings.producer(kafka))) {
            for (int i = 0; i < records; i++) {
                producer.send(new ProducerRecord<>(topic, i % partitions, null, value));
            }
            producer.flush();
        }
    }
}
