package io.gapless.kafka.benchmarks;

import io.gapless.kafka.core.GaplessConsumer;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * {@link GaplessConsumer} with {@code auto.offset.reset.new.partitions=earliest} (emulation active:
 * the inner consumer runs with {@code auto.offset.reset=none} and the SDK resets every partition
 * through the group baseline) against {@link KafkaConsumer}, both reading the same pre-filled
 * 4-partition topic from the beginning with a fresh group per run.
 */
public final class ConsumeBenchmark implements Benchmark {
    static final String NAME = "consume";
    private static final Logger log = LoggerFactory.getLogger(ConsumeBenchmark.class);
    private static final int PARTITIONS = 4;
    private static final String PROTOCOL = "classic";
    private static final Duration RUN_TIMEOUT = Duration.ofMinutes(3);

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<BenchmarkResult> run(BenchmarkContext ctx) {
        BenchmarkMode mode = ctx.mode();
        String topic = ctx.unique("consume");
        int records = mode.consumeRecords();
        log.info("consume: loading {} records of {} bytes into {} partitions", records, TopicLoader.VALUE_BYTES, PARTITIONS);
        TopicLoader.load(ctx.kafka(), topic, PARTITIONS, records);
        Interleaved.Runs<ConsumeRun> runs = Interleaved.run(NAME, mode.warmupPairs(), mode.pairs(),
                run -> consume(ctx, topic, records, run, KafkaConsumer::new, false),
                run -> consume(ctx, topic, records, run, GaplessConsumer::new, true));
        // Noise floor: the same comparison with plain Kafka on both sides (A/A).
        Interleaved.Runs<ConsumeRun> control = !mode.controls() ? new Interleaved.Runs<>(List.of(), List.of())
                : Interleaved.run(NAME + " A/A control", mode.warmupPairs(), mode.pairs(),
                run -> consume(ctx, topic, records, 1000 + run, KafkaConsumer::new, false),
                run -> consume(ctx, topic, records, 2000 + run, KafkaConsumer::new, false));
        ctx.kafka().deleteTopics(topic);
        return List.of(result(runs, control, records));
    }

    private static ConsumeRun consume(BenchmarkContext ctx, String topic, int records, int run,
                                      Function<Map<String, Object>, Consumer<byte[], byte[]>> factory, boolean sdk) {
        Map<String, Object> props = ClientSettings.consumer(ctx.kafka(), ctx.unique("consume-" + run), PROTOCOL, "earliest");
        if (sdk) {
            props = ClientSettings.sdkConsumer(props, "earliest");
        }
        LatencySamples polls = new LatencySamples();
        try (Consumer<byte[], byte[]> consumer = factory.apply(props)) {
            long subscribed = System.nanoTime();
            consumer.subscribe(List.of(topic));
            long deadline = subscribed + RUN_TIMEOUT.toNanos();
            long firstRecordAt = -1;
            long steadyStart = -1;
            int received = 0;
            int steadyRecords = 0;
            // Steady state starts once a tenth of the records arrived: the fetch pipeline has ramped up
            // and the start-up path (the SDK's resets) is behind both variants.
            int steadyFrom = Math.max(1, records / 10);
            long end = subscribed;
            long cpuStart = -1;
            while (received < records) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("consume run " + run + " read " + received + " of " + records + " records in " + RUN_TIMEOUT);
                }
                long before = System.nanoTime();
                ConsumerRecords<byte[], byte[]> batch = consumer.poll(Duration.ofMillis(100));
                long after = System.nanoTime();
                if (firstRecordAt < 0 && !batch.isEmpty()) {
                    firstRecordAt = after;
                }
                if (steadyStart >= 0) {
                    polls.add(after - before);
                    steadyRecords += batch.count();
                }
                received += batch.count();
                if (steadyStart < 0 && received >= steadyFrom) {
                    steadyStart = after;
                    cpuStart = CpuClock.threadNanos();
                }
                end = after;
            }
            long cpu = CpuClock.threadNanos() - cpuStart;
            double seconds = (end - steadyStart) / 1e9;
            long resets = sdk ? SdkMetrics.sum(consumer.metrics(), "resets-total") : 0;
            return new ConsumeRun(seconds > 0 ? steadyRecords / seconds : Double.NaN, (firstRecordAt - subscribed) / 1e6,
                    polls.percentileMicros(50), polls.percentileMicros(99), resets,
                    cpuStart < 0 || steadyRecords == 0 ? Double.NaN : (double) cpu / steadyRecords);
        }
    }

    private static BenchmarkResult result(Interleaved.Runs<ConsumeRun> runs, Interleaved.Runs<ConsumeRun> control, int records) {
        ThroughputFigures f = ThroughputFigures.of(runs, control, ConsumeRun::recordsPerSecond, ConsumeRun::cpuNanosPerRecord);
        double plainP50 = Stats.median(runs.plain(), ConsumeRun::pollP50Micros);
        double sdkP50 = Stats.median(runs.sdk(), ConsumeRun::pollP50Micros);
        double plainP99 = Stats.median(runs.plain(), ConsumeRun::pollP99Micros);
        double sdkP99 = Stats.median(runs.sdk(), ConsumeRun::pollP99Micros);
        double plainStart = Stats.median(runs.plain(), ConsumeRun::startupMillis);
        double sdkStart = Stats.median(runs.sdk(), ConsumeRun::startupMillis);
        long minResets = runs.sdk().stream().mapToLong(ConsumeRun::resets).min().orElse(0);
        String label = NAME;
        return new BenchmarkResult(NAME)
                .metric("records", records)
                .metric("partitions", PARTITIONS)
                .metric("runs", runs.plain().size())
                .metrics(f)
                .metric("plain_poll_p50_us", plainP50)
                .metric("sdk_poll_p50_us", sdkP50)
                .metric("plain_poll_p99_us", plainP99)
                .metric("sdk_poll_p99_us", sdkP99)
                .metric("plain_startup_ms", plainStart)
                .metric("sdk_startup_ms", sdkStart)
                .metric("sdk_resets_per_run", minResets)
                .row(TableRow.checked(label, "records/s (median of " + runs.plain().size() + ", " + records + " x 100 B, "
                        + PARTITIONS + " partitions)", Format.rate(f.plainRate()), Format.rate(f.sdkRate()), "ratio " + Format.ratio(f.ratio()),
                        "ratio >= 0.98", f.ratio() >= 0.98))
                .row(TableRow.info(label, "records/s: median of per-pair ratios / ratio of best runs", "", "",
                        Format.ratio(f.paired()) + " / " + Format.ratio(f.best())))
                .row(TableRow.info(label, "noise floor: KafkaConsumer vs KafkaConsumer (A/A), records/s / CPU per record", "", "",
                        "ratio " + Format.ratio(f.controlRatio()) + " / " + Format.ratio(f.controlCpu())))
                .row(TableRow.info(label, "CPU of the polling thread per record (median)", Format.number(f.plainCpu()) + " ns",
                        Format.number(f.sdkCpu()) + " ns", "ratio " + Format.ratio(Stats.ratio(f.sdkCpu(), f.plainCpu()))))
                .row(TableRow.info(label, "poll latency p50", Format.micros(plainP50), Format.micros(sdkP50),
                        "ratio " + Format.ratio(Stats.ratio(sdkP50, plainP50))))
                .row(TableRow.info(label, "poll latency p99", Format.micros(plainP99), Format.micros(sdkP99),
                        "ratio " + Format.ratio(Stats.ratio(sdkP99, plainP99))))
                .row(TableRow.info(label, "subscribe to first record (new group)", Format.millis(plainStart), Format.millis(sdkStart),
                        Format.delta(sdkStart - plainStart)))
                .row(TableRow.info(label, "partitions reset by the SDK per run (emulation active)", "-",
                        Long.toString(minResets), ""));
    }
}
