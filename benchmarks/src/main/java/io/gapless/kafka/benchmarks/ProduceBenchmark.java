package io.gapless.kafka.benchmarks;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.reflect.Constructor;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * {@code TransactionalShareProducer} used as a plain producer (no transaction, no share
 * acknowledgements) against {@link KafkaProducer}: the decorator's cost on the hot send path.
 * Each run writes to a fresh 4-partition topic, deleted afterwards.
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
        BenchmarkMode mode = ctx.mode();
        int records = mode.produceRecords();
        Interleaved.Runs<ProduceRun> runs = Interleaved.run(NAME, mode.warmupPairs(), mode.pairs(),
                run -> produce(ctx, records, run, cfg -> new KafkaProducer<>(cfg, new ByteArraySerializer(), new ByteArraySerializer())),
                run -> produce(ctx, records, run,
                        cfg -> ShareSdk.newPlainProducer(sdk.get(), cfg, new ByteArraySerializer(), new ByteArraySerializer())));
        // Noise floor: the same comparison with KafkaProducer on both sides (A/A).
        Interleaved.Runs<ProduceRun> control = !mode.controls() ? new Interleaved.Runs<>(List.of(), List.of())
                : Interleaved.run(NAME + " A/A control", mode.warmupPairs(), mode.pairs(),
                run -> produce(ctx, records, 1000 + run, cfg -> new KafkaProducer<>(cfg, new ByteArraySerializer(), new ByteArraySerializer())),
                run -> produce(ctx, records, 2000 + run, cfg -> new KafkaProducer<>(cfg, new ByteArraySerializer(), new ByteArraySerializer())));
        return List.of(result(runs, control, records));
    }

    private static ProduceRun produce(BenchmarkContext ctx, int records, int run,
                                      Function<Map<String, Object>, Producer<byte[], byte[]>> factory) {
        String topic = ctx.unique("produce-" + run);
        TopicLoader.create(ctx.kafka(), topic, PARTITIONS);
        byte[] value = TopicLoader.value();
        long[] acked = new long[records];
        AtomicReference<Exception> failure = new AtomicReference<>();
        long start;
        long end;
        long cpuStart;
        long cpu;
        try (Producer<byte[], byte[]> producer = factory.apply(ClientSettings.producer(ctx.kafka()))) {
            // Metadata first, so that the first send does not pay for the topic lookup.
            producer.partitionsFor(topic);
            long[] sent = new long[records];
            start = System.nanoTime();
            cpuStart = CpuClock.threadNanos();
            for (int i = 0; i < records; i++) {
                final int n = i;
                sent[i] = System.nanoTime();
                producer.send(new ProducerRecord<>(topic, i % PARTITIONS, null, value), (md, e) -> {
                    if (e != null) {
                        failure.compareAndSet(null, e);
                    }
                    acked[n] = System.nanoTime() - sent[n];
                });
            }
            producer.flush();
            end = System.nanoTime();
            cpu = CpuClock.threadNanos() - cpuStart;
        }
        if (failure.get() != null) {
            throw new IllegalStateException("produce run " + run + " failed", failure.get());
        }
        ctx.kafka().deleteTopics(topic);
        LatencySamples samples = new LatencySamples();
        for (long a : acked) {
            samples.add(a);
        }
        return new ProduceRun(records / ((end - start) / 1e9), samples.percentileMicros(50), samples.percentileMicros(99),
                cpuStart < 0 ? Double.NaN : (double) cpu / records);
    }

    private static BenchmarkResult result(Interleaved.Runs<ProduceRun> runs, Interleaved.Runs<ProduceRun> control, int records) {
        ThroughputFigures f = ThroughputFigures.of(runs, control, ProduceRun::recordsPerSecond, ProduceRun::cpuNanosPerRecord);
        double plainP50 = Stats.median(runs.plain(), ProduceRun::ackP50Micros);
        double sdkP50 = Stats.median(runs.sdk(), ProduceRun::ackP50Micros);
        double plainP99 = Stats.median(runs.plain(), ProduceRun::ackP99Micros);
        double sdkP99 = Stats.median(runs.sdk(), ProduceRun::ackP99Micros);
        return new BenchmarkResult(NAME)
                .metric("records", records)
                .metric("partitions", PARTITIONS)
                .metric("runs", runs.plain().size())
                .metrics(f)
                .metric("plain_ack_p50_us", plainP50)
                .metric("sdk_ack_p50_us", sdkP50)
                .metric("plain_ack_p99_us", plainP99)
                .metric("sdk_ack_p99_us", sdkP99)
                .row(TableRow.checked(NAME, "records/s (median of " + runs.plain().size() + ", " + records + " x 100 B, acks=all)",
                        Format.rate(f.plainRate()), Format.rate(f.sdkRate()), "ratio " + Format.ratio(f.ratio()), "ratio >= 0.98", f.ratio() >= 0.98))
                .row(TableRow.info(NAME, "records/s: median of per-pair ratios / ratio of best runs", "", "",
                        Format.ratio(f.paired()) + " / " + Format.ratio(f.best())))
                .row(TableRow.info(NAME, "noise floor: KafkaProducer vs KafkaProducer (A/A), records/s / CPU per record", "", "",
                        "ratio " + Format.ratio(f.controlRatio()) + " / " + Format.ratio(f.controlCpu())))
                .row(TableRow.info(NAME, "CPU of the sending thread per record (median)", Format.number(f.plainCpu()) + " ns",
                        Format.number(f.sdkCpu()) + " ns", "ratio " + Format.ratio(Stats.ratio(f.sdkCpu(), f.plainCpu()))))
                .row(TableRow.info(NAME, "send-to-ack latency p50", Format.micros(plainP50), Format.micros(sdkP50),
                        "ratio " + Format.ratio(Stats.ratio(sdkP50, plainP50))))
                .row(TableRow.info(NAME, "send-to-ack latency p99", Format.micros(plainP99), Format.micros(sdkP99),
                        "ratio " + Format.ratio(Stats.ratio(sdkP99, plainP99))));
    }
}
