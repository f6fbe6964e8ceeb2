package io.gapless.kafka.benchmarks;

/**
 * One run of a consume-transform-produce loop.
 *
 * @param recordsPerSecond input records divided by the time from the first non-empty poll to the last commit
 * @param commitP50Micros  median commit latency (what the variant does to make a batch durable, see its class)
 * @param commitP99Micros  99th percentile of the same
 * @param averageBatch     input records per commit
 * @param commits          commits in the run
 * @param redelivered      records polled with {@code deliveryCount() > 1} (0 on the happy path)
 * @param pollP50Micros    median duration of the non-empty polls
 * @param sendP50Micros    median time to send (and, for share loops, acknowledge) one batch's outputs
 */
public record LoopOutcome(double recordsPerSecond, double commitP50Micros, double commitP99Micros, double averageBatch,
                          long commits, long redelivered,
                          double pollP50Micros, double sendP50Micros) {
}
