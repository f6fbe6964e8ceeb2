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
import io.gapless.kafka.core.spi.BaselineTopic;
import io.gapless.kafka.core.spi.StateTopics;
import io.gapless.kafka.testkit.EmbeddedKafka;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.TopicConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.IntStream;

/**
 * A new group's first start on a cluster with many topics (issue 23, finding 7): from
 * {@code subscribe} to the first record, {@link KafkaConsumer} and {@link GaplessConsumer}
 * (emulation active: the group's start takes the snapshot of every topic) in interleaved rounds,
 * each in a new group. Then the same with the SDK's own topics of 1,000 more groups on the
 * cluster (one compacted one-partition baseline topic per group, named and configured as the SDK
 * creates them), and what those topics cost in metadata: the bytes a client receives for the
 * snapshot's ListTopics and DescribeTopics of every topic.
 */
public final class ScaleStartBenchmark implements Benchmark {
    static final String NAME = "scale-start";
    private static final Logger log = LoggerFactory.getLogger(ScaleStartBenchmark.class);
    private static final String PROTOCOL = "classic";
    private static final Duration STARTUP_TIMEOUT = Duration.ofMinutes(3);
    private static final int CREATE_BATCH = 500;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<BenchmarkResult> run(BenchmarkContext ctx) {
        boolean smoke = ctx.mode() == BenchmarkMode.SMOKE;
        int topics = smoke ? 40 : 10_000;
        int groups = smoke ? 20 : 1_000;
        int pairs = switch (ctx.mode()) {
            case FULL -> 10;
            case QUICK -> 6;
            case SMOKE -> 1;
        };
        String prefix = ctx.unique("scale");
        List<String> bulk = IntStream.range(0, topics).mapToObj(i -> prefix + "-" + i).toList();
        List<String> stateTopics = IntStream.range(0, groups)
                .mapToObj(i -> StateTopics.forGroup(BaselineTopic.PREFIX_DEFAULT, prefix + "-group-" + i)).toList();
        String orders = prefix + "-orders";
        try {
            long t0 = System.nanoTime();
            createBulk(ctx.kafka(), bulk, Map.of());
            log.info("{}: created {} topics in {} s", NAME, topics, (System.nanoTime() - t0) / 1_000_000_000);
            TopicLoader.create(ctx.kafka(), orders, 2);
            Starts atScale = starts(ctx, orders, pairs, "at " + topics);
            long bytes = snapshotBytes(ctx.kafka());
            // The SDK's own topics of 1,000 groups, as it creates them (replicas: the cluster's brokers up to 3; 1 here).
            createBulk(ctx.kafka(), stateTopics, Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT,
                    TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG, "LogAppendTime"));
            Starts withGroups = starts(ctx, orders, pairs, "with " + groups + " groups' topics");
            long bytesWithGroups = snapshotBytes(ctx.kafka());
            return List.of(result(topics, groups, atScale, withGroups, bytes, bytesWithGroups));
        } finally {
            List<String> all = new ArrayList<>(bulk);
            all.addAll(stateTopics);
            all.add(orders);
            deleteQuietly(ctx.kafka(), all);
        }
    }

    /** The first starts of new groups, plain and SDK in turns; each SDK group's baseline topic deleted after its run. */
    private record Starts(double[] plainMillis, double[] sdkMillis) {
        Intervals.Interval extra() {
            return Intervals.difference(sdkMillis, plainMillis);
        }

        Intervals.Interval ratio() {
            return Intervals.ratio(sdkMillis, plainMillis);
        }

        /** The medians and the per-round difference with its interval, as {@code RESULT} metrics named after {@code prefix}. */
        void metrics(BenchmarkResult r, String prefix) {
            Intervals.Interval extra = extra();
            r.metric(prefix + "plain_first_record_ms", Stats.median(plainMillis))
                    .metric(prefix + "sdk_first_record_ms", Stats.median(sdkMillis))
                    .metric(prefix + "sdk_extra_mean_ms", extra.estimate())
                    .metric(prefix + "sdk_extra_ci_low", extra.low())
                    .metric(prefix + "sdk_extra_ci_high", extra.high());
        }

        String extraText() {
            Intervals.Interval extra = extra();
            return Format.delta(extra.estimate()) + ", 95% interval " + Format.delta(extra.low()) + " to " + Format.delta(extra.high());
        }
    }

    private static Starts starts(BenchmarkContext ctx, String topic, int pairs, String what) {
        List<List<Double>> runs = Rounds.run(NAME + " " + what, 1, pairs, List.of(
                (round, run) -> firstRecordMillis(ctx, topic, run, KafkaConsumer::new, false),
                (round, run) -> firstRecordMillis(ctx, topic, run, GaplessConsumer::new, true)));
        return new Starts(runs.get(0).stream().mapToDouble(Double::doubleValue).toArray(),
                runs.get(1).stream().mapToDouble(Double::doubleValue).toArray());
    }

    private static double firstRecordMillis(BenchmarkContext ctx, String topic, int run,
                                            Function<Map<String, Object>, Consumer<byte[], byte[]>> factory, boolean sdk) {
        String group = ctx.unique("scale-start-" + run);
        Map<String, Object> props = ClientSettings.consumer(ctx.kafka(), group, PROTOCOL, "earliest");
        try (Consumer<byte[], byte[]> consumer = factory.apply(sdk ? ClientSettings.sdkConsumer(props, "earliest") : props)) {
            return FirstRecord.millis(consumer, topic, STARTUP_TIMEOUT);
        } finally {
            if (sdk) {
                BaselineTopics.deleteFor(ctx, group);
            }
        }
    }

    /** Bytes a new Admin client receives for ListTopics (internal ones too) and DescribeTopics of every topic: a snapshot's reads. */
    private static long snapshotBytes(EmbeddedKafka kafka) {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
            admin.describeCluster().nodes().get(60, TimeUnit.SECONDS); // the bootstrap metadata, not counted
            long before = incomingBytes(admin);
            Collection<String> names = admin.listTopics(new ListTopicsOptions().listInternal(true)).names().get(60, TimeUnit.SECONDS);
            admin.describeTopics(names).allTopicNames().get(120, TimeUnit.SECONDS);
            return incomingBytes(admin) - before;
        } catch (Exception e) {
            throw new IllegalStateException("measuring the snapshot's bytes failed", e);
        }
    }

    private static long incomingBytes(Admin admin) {
        double sum = 0;
        for (Map.Entry<org.apache.kafka.common.MetricName, ? extends Metric> m : admin.metrics().entrySet()) {
            if (m.getKey().name().equals("incoming-byte-total") && m.getKey().tags().size() == 1) {
                sum += ((Number) m.getValue().metricValue()).doubleValue(); // the client-wide total (one tag: client-id)
            }
        }
        return (long) sum;
    }

    private static void createBulk(EmbeddedKafka kafka, List<String> names, Map<String, String> configs) {
        try {
            for (int from = 0; from < names.size(); from += CREATE_BATCH) {
                List<NewTopic> batch = names.subList(from, Math.min(names.size(), from + CREATE_BATCH)).stream()
                        .map(n -> new NewTopic(n, Optional.of(1), Optional.empty()).configs(configs)).toList();
                kafka.admin().createTopics(batch).all().get(5, TimeUnit.MINUTES);
            }
            // The broker creates the logs after the controller answered: wait until the last one's leader serves it.
            Map<TopicPartition, OffsetSpec> last = Map.of(new TopicPartition(names.get(names.size() - 1), 0), OffsetSpec.latest());
            long deadline = System.nanoTime() + Duration.ofSeconds(60 + names.size() / 50).toNanos();
            while (true) {
                try {
                    kafka.admin().listOffsets(last).all().get(10, TimeUnit.SECONDS);
                    return;
                } catch (Exception e) {
                    if (System.nanoTime() > deadline) {
                        throw e;
                    }
                    Thread.sleep(200);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (Exception e) {
            throw new IllegalStateException("creating " + names.size() + " topics failed", e);
        }
    }

    private static void deleteQuietly(EmbeddedKafka kafka, List<String> names) {
        for (int from = 0; from < names.size(); from += CREATE_BATCH) {
            try {
                kafka.admin().deleteTopics(names.subList(from, Math.min(names.size(), from + CREATE_BATCH))).all().get(5, TimeUnit.MINUTES);
            } catch (Exception e) {
                log.debug("{}: deleting topics failed ({})", NAME, e.toString());
            }
        }
    }

    private static BenchmarkResult result(int topics, int groups, Starts atScale, Starts withGroups, long bytes, long bytesWithGroups) {
        Intervals.Interval ratio = atScale.ratio();
        int n = atScale.plainMillis().length;
        BenchmarkResult r = new BenchmarkResult(NAME).metric("topics", topics).metric("runs", n);
        atScale.metrics(r, "");
        r.metric("ratio", ratio.estimate())
                .metric("ratio_ci_low", ratio.low())
                .metric("ratio_ci_high", ratio.high())
                .metric("snapshot_bytes", bytes)
                .metric("groups", groups);
        withGroups.metrics(r, "groups_");
        return r.metric("groups_snapshot_bytes", bytesWithGroups)
                .metric("snapshot_bytes_per_group_topic", (bytesWithGroups - bytes) / (double) groups)
                .row(TableRow.info(NAME, "new group's first start at " + topics + " topics: subscribe to first record (median of " + n
                                + " interleaved rounds, each a new group)", Format.millis(Stats.median(atScale.plainMillis())),
                        Format.millis(Stats.median(atScale.sdkMillis())), atScale.extraText() + "; ratio " + Format.ratio(ratio.estimate())
                                + " [" + Format.ratio(ratio.low()) + ", " + Format.ratio(ratio.high()) + "]"))
                .row(TableRow.info(NAME, "the same with " + groups + " groups' baseline topics on the cluster (" + (topics + groups)
                                + " topics)", Format.millis(Stats.median(withGroups.plainMillis())),
                        Format.millis(Stats.median(withGroups.sdkMillis())), withGroups.extraText()))
                .row(TableRow.info(NAME, "bytes a client receives for ListTopics + DescribeTopics of every topic (a snapshot's reads)",
                        "", bytes + " B at " + topics + " topics; " + bytesWithGroups + " B with " + groups + " groups' topics",
                        "+" + Format.number((bytesWithGroups - bytes) / (double) groups) + " B per group topic"));
    }
}
