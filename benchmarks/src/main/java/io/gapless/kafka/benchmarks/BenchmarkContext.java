package io.gapless.kafka.benchmarks;

import io.gapless.kafka.testkit.EmbeddedKafka;

/** What every benchmark gets: the cluster, the run size, and unique names. */
public record BenchmarkContext(EmbeddedKafka kafka, BenchmarkMode mode) {

    /** A topic or group name unique in this JVM and across recent runs on a shared cluster. */
    public String unique(String prefix) {
        return io.gapless.kafka.testkit.TestTopics.unique("bench-" + prefix);
    }
}
