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

import io.gapless.kafka.core.GaplessConsumer;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * {@link GaplessConsumer} with {@code auto.offset.reset.new.partitions=earliest} (emulation active:
 * the inner consumer runs with {@code auto.offset.reset=none} and the SDK resets every partition
 * through the group baseline) against {@link KafkaConsumer}, reading the same pre-filled
 * 4-partition topic.
 *
 * <p>Throughput: three consumers stay open, each in a group of its own (plain, SDK, and a second
 * plain one as the A/A control), and read the topic in turns of one segment each ({@link Rounds}:
 * every order of the three in turn), over and over; each round gives one sdk/plain and one A/A
 * pair. Start-up: new groups, plain and SDK alternately, timed from {@code subscribe} to the
 * first record.
 */
public final class ConsumeBenchmark implements Benchmark {
    static final String NAME = "consume";
    private static final Logger log = LoggerFactory.getLogger(ConsumeBenchmark.class);
    private static final int PARTITIONS = 4;
    private static final String PROTOCOL = "classic";
    private static final Duration STARTUP_TIMEOUT = Duration.ofMinutes(2);

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<BenchmarkResult> run(BenchmarkContext ctx) {
        BenchmarkMode.Throughput size = ctx.mode().throughput();
        String topic = ctx.unique("consume");
        int records = size.consumeRecords();
        log.info("consume: loading {} records of {} bytes into {} partitions", records, TopicLoader.VALUE_BYTES, PARTITIONS);
        TopicLoader.load(ctx.kafka(), topic, PARTITIONS, records);
        long total = records + PARTITIONS; // TopicLoader.create's readiness record per partition
        List<List<Segment>> segments;
        LatencySamples plainPolls;
        LatencySamples sdkPolls;
        String sdkGroup = ctx.unique("consume-live-sdk");
        try (LiveConsumer plain = live(ctx, topic, total, size, ctx.unique("consume-live-plain"), KafkaConsumer::new, false);
             LiveConsumer sdk = live(ctx, topic, total, size, sdkGroup, GaplessConsumer::new, true);
             LiveConsumer control = live(ctx, topic, total, size, ctx.unique("consume-live-aa"), KafkaConsumer::new, false)) {
            segments = Rounds.runUntil(NAME, size.warmupRounds(), size.rounds(), size.maxRounds(), size.budget(), List.of(
                    (round, run) -> plain.segment(round >= 0),
                    (round, run) -> sdk.segment(round >= 0),
                    (round, run) -> control.segment(round >= 0)), ThroughputFigures::resolved);
            plainPolls = plain.polls();
            sdkPolls = sdk.polls();
        }
        BaselineTopics.deleteFor(ctx, sdkGroup);
        List<List<Startup>> startups = Rounds.run(NAME + " start-up", 1, size.startupPairs(), List.of(
                (round, run) -> startup(ctx, topic, run, KafkaConsumer::new, false),
                (round, run) -> startup(ctx, topic, run, GaplessConsumer::new, true)));
        ctx.kafka().deleteTopics(topic);
        ThroughputFigures f = ThroughputFigures.of(NAME, segments.get(0), segments.get(1), segments.get(2));
        return List.of(result(f, size, plainPolls, sdkPolls, startups.get(0), startups.get(1), records));
    }

    private static LiveConsumer live(BenchmarkContext ctx, String topic, long total, BenchmarkMode.Throughput size, String group,
                                     Function<Map<String, Object>, Consumer<byte[], byte[]>> factory, boolean sdk) {
        return new LiveConsumer(factory.apply(props(ctx, group, sdk)), topic, total, size.consumeSegment());
    }

    private static Map<String, Object> props(BenchmarkContext ctx, String group, boolean sdk) {
        Map<String, Object> props = ClientSettings.consumer(ctx.kafka(), group, PROTOCOL, "earliest");
        return sdk ? ClientSettings.sdkConsumer(props, "earliest") : props;
    }

    /**
     * A new group's start.
     *
     * @param firstRecordMillis from {@code subscribe} to the first record
     * @param resets            partitions the SDK reset (0 for plain Kafka)
     */
    private record Startup(double firstRecordMillis, long resets) {
    }

    private static Startup startup(BenchmarkContext ctx, String topic, int run,
                                   Function<Map<String, Object>, Consumer<byte[], byte[]>> factory, boolean sdk) {
        String group = ctx.unique("consume-start-" + run);
        try (Consumer<byte[], byte[]> consumer = factory.apply(props(ctx, group, sdk))) {
            double millis = FirstRecord.millis(consumer, topic, STARTUP_TIMEOUT);
            for (TopicPartition tp : consumer.assignment()) {
                consumer.position(tp, STARTUP_TIMEOUT);
            }
            return new Startup(millis, sdk ? SdkMetrics.sum(consumer.metrics(), "resets-total") : 0);
        } finally {
            if (sdk) {
                BaselineTopics.deleteFor(ctx, group);
            }
        }
    }

    private static BenchmarkResult result(ThroughputFigures f, BenchmarkMode.Throughput size, LatencySamples plainPolls,
                                          LatencySamples sdkPolls, List<Startup> plainStarts, List<Startup> sdkStarts, int records) {
        double plainP50 = plainPolls.percentileMicros(50);
        double sdkP50 = sdkPolls.percentileMicros(50);
        double plainP99 = plainPolls.percentileMicros(99);
        double sdkP99 = sdkPolls.percentileMicros(99);
        double plainStart = Stats.median(plainStarts, Startup::firstRecordMillis);
        double sdkStart = Stats.median(sdkStarts, Startup::firstRecordMillis);
        long minResets = sdkStarts.stream().mapToLong(Startup::resets).min().orElse(0);
        return new BenchmarkResult(NAME)
                .metric("records", records)
                .metric("partitions", PARTITIONS)
                .metric("runs", f.ratio().n())
                .metrics(f)
                .metric("segment_records", size.consumeSegment())
                .metric("plain_poll_p50_us", plainP50)
                .metric("sdk_poll_p50_us", sdkP50)
                .metric("plain_poll_p99_us", plainP99)
                .metric("sdk_poll_p99_us", sdkP99)
                .metric("plain_startup_ms", plainStart)
                .metric("sdk_startup_ms", sdkStart)
                .metric("startup_runs", plainStarts.size())
                .metric("sdk_resets_per_run", minResets)
                .throughputRows(NAME, "records/s (median of " + f.ratio().n() + " segments of " + size.consumeSegment() + " x 100 B, "
                        + PARTITIONS + " partitions, live consumers); ratio: geometric mean of per-round ratios, 95% interval", f,
                        "KafkaConsumer vs KafkaConsumer", "CPU of the polling thread per record")
                .row(TableRow.info(NAME, "poll latency p50 (every poll of the measured segments)", Format.micros(plainP50),
                        Format.micros(sdkP50), "ratio " + Format.ratio(Stats.ratio(sdkP50, plainP50))))
                .row(TableRow.info(NAME, "poll latency p99", Format.micros(plainP99), Format.micros(sdkP99),
                        "ratio " + Format.ratio(Stats.ratio(sdkP99, plainP99))))
                .row(TableRow.info(NAME, "subscribe to first record, new group (median of " + plainStarts.size() + ")",
                        Format.millis(plainStart), Format.millis(sdkStart), Format.delta(sdkStart - plainStart)))
                .row(TableRow.info(NAME, "partitions reset by the SDK per new group (emulation active)", "-", Long.toString(minResets), ""));
    }
}
