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
package io.gapless.kafka.benchmarks;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.reflect.Constructor;
import java.util.List;
import java.util.Optional;

/**
 * {@code TransactionalShareProducer} used as a plain producer (no transaction, no share
 * acknowledgements) against {@link KafkaProducer}: the decorator's cost on the hot send path.
 * Three producers stay open, each on a 4-partition topic of its own (plain, SDK, and a second
 * plain one as the A/A control), and write in turns of one segment each ({@link Rounds}), a
 * segment being {@code n} sends and a {@code flush()}.
 */
public final class ProduceBenchmark implements Benchmark {
    static final String NAME = "produce";
    private static final Logger log = LoggerFactory.getLogger(ProduceBenchmark.class);
    private static final int PARTITIONS = 4;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<BenchmarkResult> run(BenchmarkContext ctx) {
        Optional<Constructor<?>> sdk = ShareSdk.producerConstructor();
        if (sdk.isEmpty()) {
            log.info("produce: {}TransactionalShareProducer is not on the classpath yet: skipped", ShareSdk.TXN_PACKAGE);
            return List.of(BenchmarkResult.skipped(NAME, "not-yet-built", "TransactionalShareProducer (sdk-share) not built yet"));
        }
        BenchmarkMode.Throughput size = ctx.mode().throughput();
        String plainTopic = topic(ctx, "produce-plain");
        String sdkTopic = topic(ctx, "produce-sdk");
        String controlTopic = topic(ctx, "produce-aa");
        List<List<Segment>> segments;
        LatencySamples plainAcks;
        LatencySamples sdkAcks;
        try (LiveProducer plain = new LiveProducer(plain(ctx), plainTopic, PARTITIONS, size.produceSegment());
             LiveProducer shareSdk = new LiveProducer(ShareSdk.newPlainProducer(sdk.get(), ClientSettings.producer(ctx.kafka()),
                     new ByteArraySerializer(), new ByteArraySerializer()), sdkTopic, PARTITIONS, size.produceSegment());
             LiveProducer control = new LiveProducer(plain(ctx), controlTopic, PARTITIONS, size.produceSegment())) {
            segments = Rounds.runUntil(NAME, size.warmupRounds(), size.rounds(), size.maxRounds(), size.budget(), List.of(
                    (round, run) -> plain.segment(round >= 0),
                    (round, run) -> shareSdk.segment(round >= 0),
                    (round, run) -> control.segment(round >= 0)), ThroughputFigures::resolved);
            plainAcks = plain.acks();
            sdkAcks = shareSdk.acks();
        }
        ctx.kafka().deleteTopics(plainTopic, sdkTopic, controlTopic);
        ThroughputFigures f = ThroughputFigures.of(NAME, segments.get(0), segments.get(1), segments.get(2));
        return List.of(result(f, size, plainAcks, sdkAcks));
    }

    private static String topic(BenchmarkContext ctx, String prefix) {
        String topic = ctx.unique(prefix);
        TopicLoader.create(ctx.kafka(), topic, PARTITIONS);
        return topic;
    }

    private static Producer<byte[], byte[]> plain(BenchmarkContext ctx) {
        return new KafkaProducer<>(ClientSettings.producer(ctx.kafka()), new ByteArraySerializer(), new ByteArraySerializer());
    }

    private static BenchmarkResult result(ThroughputFigures f, BenchmarkMode.Throughput size, LatencySamples plainAcks,
                                          LatencySamples sdkAcks) {
        double plainP50 = plainAcks.percentileMicros(50);
        double sdkP50 = sdkAcks.percentileMicros(50);
        double plainP99 = plainAcks.percentileMicros(99);
        double sdkP99 = sdkAcks.percentileMicros(99);
        return new BenchmarkResult(NAME)
                .metric("records", size.produceSegment())
                .metric("partitions", PARTITIONS)
                .metric("runs", f.ratio().n())
                .metrics(f)
                .metric("segment_records", size.produceSegment())
                .metric("plain_ack_p50_us", plainP50)
                .metric("sdk_ack_p50_us", sdkP50)
                .metric("plain_ack_p99_us", plainP99)
                .metric("sdk_ack_p99_us", sdkP99)
                .throughputRows(NAME, "records/s (median of " + f.ratio().n() + " segments of " + size.produceSegment()
                        + " x 100 B and a flush, acks=all, live producers); ratio: geometric mean of per-round ratios, 95% interval", f,
                        "KafkaProducer vs KafkaProducer", "CPU of the sending thread per record")
                .row(TableRow.info(NAME, "send-to-ack latency p50 (every 16th record)", Format.micros(plainP50), Format.micros(sdkP50),
                        "ratio " + Format.ratio(Stats.ratio(sdkP50, plainP50))))
                .row(TableRow.info(NAME, "send-to-ack latency p99", Format.micros(plainP99), Format.micros(sdkP99),
                        "ratio " + Format.ratio(Stats.ratio(sdkP99, plainP99))));
    }
}
